#include "libs/chess/bitboard.h"

#include <initializer_list>

namespace tablero::chess {
namespace tables {
Bitboard pawn_attacks[2][64];
Bitboard knight[64];
Bitboard king[64];
Bitboard between[64][64];
Bitboard line[64][64];
Magic rook_magic[64];
Magic bishop_magic[64];
}  // namespace tables

namespace {

Bitboard rook_table[0x19000];  // sum over squares of 2^(relevant occupancy bits)
Bitboard bishop_table[0x1480];

// Magic factors found once by the search below (same seed); kept so start-up is instant.
// InitSliders still verifies each one and searches again if it does not fit.
constexpr Bitboard kRookMagics[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard kBishopMagics[64] = {
    0x1010900200902200ULL, 0x0260046086204080ULL, 0x0804087081012c80ULL, 0x0008208a240a1084ULL,
    0x0004042080020020ULL, 0x8019100210008080ULL, 0x0400480444212004ULL, 0xa200240c02882800ULL,
    0xa0a0042008410102ULL, 0x064a08010802004aULL, 0x0008080204322440ULL, 0x0031280600400200ULL,
    0x0000240504100c00ULL, 0x1404020804040400ULL, 0x39a0042104022012ULL, 0x0000802092101005ULL,
    0x0010602420021c44ULL, 0x2020000802841044ULL, 0x15c0800802031022ULL, 0x0084000804240800ULL,
    0x0013002820080001ULL, 0x050102008080c008ULL, 0x8040882062082000ULL, 0x5001840044208810ULL,
    0x0002400110108201ULL, 0x0110080022424421ULL, 0x0800a60410040844ULL, 0x1144040080410200ULL,
    0x0106001002005001ULL, 0x1811050012048080ULL, 0x80020c0800410800ULL, 0x8001204011040880ULL,
    0x048484404a200284ULL, 0x0000901004040480ULL, 0x5224004800210204ULL, 0x05a6008020020201ULL,
    0x0010220200002008ULL, 0x0632080201404044ULL, 0x100801004c010818ULL, 0x0011012601a10444ULL,
    0x0004112441071021ULL, 0x8812021004060314ULL, 0x0000082690000801ULL, 0xc000020212000400ULL,
    0x0000084104002442ULL, 0x0081100101100200ULL, 0x7288816102018404ULL, 0x9408008c0048208aULL,
    0x08040c0208440200ULL, 0x0000440088080400ULL, 0x00200d0290d00160ULL, 0x4000000020880008ULL,
    0x000840a002048001ULL, 0x0001204410208400ULL, 0x4040880280861288ULL, 0x20103c0800604100ULL,
    0x050841040101c000ULL, 0x2020102401241040ULL, 0x4a12000024020800ULL, 0x3201000c00420200ULL,
    0xa559000004050408ULL, 0x1102440892080a10ULL, 0x0400402849046080ULL, 0x0060111001090121ULL,
};

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Reference slider attacks by walking rays; used only to fill the tables.
Bitboard SlidingAttacks(const int (&dirs)[4][2], Square s, Bitboard occ) {
  Bitboard out = 0;
  for (const auto& d : dirs) {
    int f = FileOf(s) + d[0], r = RankOf(s) + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square t = MakeSquare(f, r);
      out |= Bit(t);
      if (occ & Bit(t)) break;
      f += d[0];
      r += d[1];
    }
  }
  return out;
}

// xorshift64*: a fixed seed makes the magic search (and so start-up time) deterministic.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  uint64_t Sparse() { return Next() & Next() & Next(); }
};

void InitSliders(Magic* magics, Bitboard* table, const int (&dirs)[4][2], const Bitboard* known) {
  static Bitboard occupancy[4096], reference[4096];
#ifndef TABLERO_CHESS_USE_PEXT
  static int epoch[4096];
  int attempt = 0;
  Rng rng{0x9E3779B97F4A7C15ULL};
#else
  (void)known;  // PEXT needs no magic factors
#endif
  Bitboard* next = table;
  for (Square s = 0; s < 64; ++s) {
    Bitboard edges =
        ((Rank(0) | Rank(7)) & ~Rank(RankOf(s))) | ((File(0) | File(7)) & ~File(FileOf(s)));
    Magic& m = magics[s];
    m.mask = SlidingAttacks(dirs, s, 0) & ~edges;
    int bits = Popcount(m.mask);
    m.shift = 64 - bits;
    m.attacks = next;
    int n = 0;
    Bitboard b = 0;
    do {  // every subset of the mask (carry-rippler)
      occupancy[n] = b;
      reference[n++] = SlidingAttacks(dirs, s, b);
      b = (b - m.mask) & m.mask;
    } while (b);
#ifdef TABLERO_CHESS_USE_PEXT
    m.magic = 0;
    for (int i = 0; i < n; ++i) next[m.Index(occupancy[i])] = reference[i];
#else
    for (bool first = true;; first = false) {
      m.magic = first ? known[s] : rng.Sparse();
      if (!first && Popcount((m.mask * m.magic) >> 56) < 6) continue;
      ++attempt;
      bool ok = true;
      for (int i = 0; i < n && ok; ++i) {
        unsigned idx = m.Index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          next[idx] = reference[i];
        } else if (next[idx] != reference[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
    next += Bitboard(1) << bits;
  }
}

Bitboard StepAttacks(Square s, const int (&steps)[8][2]) {
  Bitboard out = 0;
  for (const auto& d : steps) {
    int f = FileOf(s) + d[0], r = RankOf(s) + d[1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) out |= Bit(MakeSquare(f, r));
  }
  return out;
}

void Init() {
  using namespace tables;
  constexpr int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                      {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                    {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  for (Square s = 0; s < 64; ++s) {
    knight[s] = StepAttacks(s, kKnightSteps);
    king[s] = StepAttacks(s, kKingSteps);
    pawn_attacks[kWhite][s] = Shift<7>(Bit(s)) | Shift<9>(Bit(s));
    pawn_attacks[kBlack][s] = Shift<-7>(Bit(s)) | Shift<-9>(Bit(s));
  }
  InitSliders(rook_magic, rook_table, kRookDirs, kRookMagics);
  InitSliders(bishop_magic, bishop_table, kBishopDirs, kBishopMagics);
  for (Square a = 0; a < 64; ++a) {
    for (Square b = 0; b < 64; ++b) {
      between[a][b] = line[a][b] = 0;
      if (a == b) continue;
      for (const auto* dirs : {&kRookDirs, &kBishopDirs}) {
        if (SlidingAttacks(*dirs, a, 0) & Bit(b)) {
          line[a][b] =
              (SlidingAttacks(*dirs, a, 0) & SlidingAttacks(*dirs, b, 0)) | Bit(a) | Bit(b);
          between[a][b] = SlidingAttacks(*dirs, a, Bit(b)) & SlidingAttacks(*dirs, b, Bit(a));
        }
      }
    }
  }
}

}  // namespace

void InitTables() {
  static const bool done = [] {
    Init();
    return true;
  }();
  (void)done;
}

}  // namespace tablero::chess
