// Fixed perft node counts (engine), shared by the fast and the slow perft tests.
#ifndef TABLERO_LIBS_SHOGI4_TESTS_PERFT_CASES_H_
#define TABLERO_LIBS_SHOGI4_TESTS_PERFT_CASES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tablero::shogi4::testing {

struct PerftCase {
  const char* name;
  const char* position;  // nullptr: the start position, seat 0 to move
  bool last_one_standing, ownerless;
  std::vector<uint64_t> counts;  // depth 1, 2, ...
};

inline const std::vector<PerftCase>& PerftCases() {
  static const std::vector<PerftCase> cases = {
      {"start", nullptr, false, false, {9, 81, 729, 6561, 82134, 1055321, 13537582}},
      // Seat 0's dragon checks seats 1, 2 and 3 at once; they answer in clockwise order.
      {"triple_check",
       "4K2s4/3G2s1S2s3/2P2s6/9/K1e3+R0n3K3w/9/2P0n3P0n2/1G0n5S0n1/4K0n4 1 P/GP/S/RP - 40",
       false,
       false,
       {10, 80, 800, 62280, 5049339}},
      // Mid-game, hands for every seat, seat 1 in check.
      {"hands",
       "1S0n3K2sP2sS2s1/1G2s4G2s2/3R3w5/K1eP1e1P0n1R2s1P3wS1e/5G0nP3wR3wK3w/3P1e2P3wG3wG3w/"
       "1+S3wR1e1S2sS0n1P1e1/1P0n3P0n1G2s+P1e/4K0n4 1 G/S/GS/P - 130",
       false,
       false,
       {73, 8815, 435599, 26868357}},
      // Seat 2 mated by seat 1: a flipped king, inherited pieces facing other ways.
      {"flipped_king",
       "R1e2G0nk2sSxs1+P0nG1e/P0n1+S3wPxs3+S0nP0n/6R3wS0n1/S1eG3w4S3w2/3G1e1R3w3/"
       "K1e2P0nP0n1P0n2/2G0nK0n1G1e1K3w1/1P0n3P0n3/2P0n2S0n1P0n1 0 SP/G/-/RG 2:1 336",
       true,
       false,
       {82, 5223, 592324, 31971043}},
      // Two flipped kings and ownerless pieces anyone may capture.
      {"ownerless",
       "3G1eSxn4/G1e1k2s1S3w4/Pxs1+R3wSxsG3w3G3w/1G1ePxn2S3w3/1Pxs1R1e1Pxn3/"
       "K1e2P1ePxnS3wP3wS3w1/1P3w1Gxn4K3w/PxnP3w1+R1e5/3Gxs+Pxs3k0n 1 -/GP/-/R2S 0:3,2:3 263",
       true,
       true,
       {129, 16571, 1544391}},
      {"ownerless_one_mate",
       "4P3w4/R1e1G2s1G2sP3wK2s1+S1e/2+S3wS3w3P3w1/1G2sP1e1R3wP3w3/2G3w1P3w2G3w1/"
       "K1e3G3w1S2s2/G1e1G1ePxnk0n+R2s2+S2s/S3w5S3w2/3SxnRxn2K3w1 1 -/-/P/4P 0:3 184",
       true,
       true,
       {20, 1672, 98377, 2629245}},
  };
  return cases;
}

}  // namespace tablero::shogi4::testing

#endif  // TABLERO_LIBS_SHOGI4_TESTS_PERFT_CASES_H_
