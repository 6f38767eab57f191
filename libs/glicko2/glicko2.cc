// One Glicko-2 rating period, steps 2-8 of Glickman's "Example of the Glicko-2 system".
#include "libs/glicko2/glicko2.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace tablero::glicko2 {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Bounds the loops of step 5 even if a NaN slipped past validation.
constexpr int kMaxSteps = 1000;

bool Finite(double x) { return std::isfinite(x); }

double ClampRd(double rd, const Config& c) { return std::clamp(rd, c.min_rd, c.max_rd); }

double G(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi)); }

double E(double mu, double mu_j, double g_j) { return 1.0 / (1.0 + std::exp(-g_j * (mu - mu_j))); }

// Step 5: the new volatility, root of f by the Illinois variant of regula falsi.
double NewVolatility(double phi, double v, double delta, double sigma, const Config& c) {
  const double a = std::log(sigma * sigma);
  const double phi2v = phi * phi + v;
  const double d2 = delta * delta;
  const double tau2 = c.tau * c.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double den = phi2v + ex;
    return ex * (d2 - phi2v - ex) / (2.0 * den * den) - (x - a) / tau2;
  };
  double A = a, B;
  if (d2 > phi2v) {
    B = std::log(d2 - phi2v);
  } else {
    int k = 1;
    while (f(a - k * c.tau) < 0 && k < kMaxSteps) ++k;
    B = a - k * c.tau;
  }
  double fA = f(A), fB = f(B);
  for (int i = 0; std::abs(B - A) > c.epsilon && i < kMaxSteps && fB != fA; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    // "<= 0" as in the revised paper: with "< 0" an exact root fC == 0 never ends.
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

}  // namespace

absl::Status ValidateConfig(const Config& c) {
  for (double x : {c.initial_rating, c.initial_rd, c.initial_vol, c.tau, c.min_rd, c.max_rd,
                   c.provisional_rd, c.leaderboard_rd, c.epsilon}) {
    if (!Finite(x)) return absl::InvalidArgumentError("glicko2 config: non-finite value");
  }
  if (!(c.min_rd > 0 && c.min_rd <= c.max_rd))
    return absl::InvalidArgumentError(
        absl::StrCat("glicko2 config: need 0 < min_rd <= max_rd, got ", c.min_rd, ", ", c.max_rd));
  if (!(c.tau > 0)) return absl::InvalidArgumentError("glicko2 config: tau must be > 0");
  if (!(c.epsilon > 0)) return absl::InvalidArgumentError("glicko2 config: epsilon must be > 0");
  return ValidatePlayer(Initial(c));
}

absl::Status ValidatePlayer(const Player& p) {
  if (!Finite(p.rating) || !Finite(p.rd) || !Finite(p.vol))
    return absl::InvalidArgumentError("glicko2: non-finite rating, rd or volatility");
  if (!(p.rd > 0) || !(p.vol > 0))
    return absl::InvalidArgumentError(
        absl::StrCat("glicko2: rd and volatility must be > 0, got ", p.rd, ", ", p.vol));
  return absl::OkStatus();
}

Player Initial(const Config& c) { return {c.initial_rating, c.initial_rd, c.initial_vol}; }

bool IsProvisional(const Player& p, const Config& c) { return p.rd >= c.provisional_rd; }

bool OnLeaderboard(const Player& p, const Config& c) { return p.rd <= c.leaderboard_rd; }

Player Update(const Player& p, const std::vector<Opponent>& opponents, const Config& c) {
  // Step 2: to the Glicko-2 scale.
  const double mu = (p.rating - kCenter) / kScale;
  const double phi = ClampRd(p.rd, c) / kScale;
  // Steps 3-4, weighted: v_inv = sum w g^2 E(1-E), sum = sum w g (s-E), delta = v sum.
  double v_inv = 0, sum = 0;
  for (const Opponent& o : opponents) {
    if (!(o.weight > 0)) continue;
    const double g = G(ClampRd(o.rd, c) / kScale);
    const double e = E(mu, (o.rating - kCenter) / kScale, g);
    v_inv += o.weight * g * g * e * (1 - e);
    sum += o.weight * g * (o.score - e);
  }
  if (!(v_inv > 0)) return Idle(p, 1, c);  // no games (or no information) this period
  const double v = 1 / v_inv;
  const double delta = v * sum;
  // Steps 5-7.
  const double sigma = NewVolatility(phi, v, delta, p.vol, c);
  const double phi_star2 = phi * phi + sigma * sigma;
  const double phi_new = 1 / std::sqrt(1 / phi_star2 + v_inv);
  const double mu_new = mu + phi_new * phi_new * sum;
  // Step 8: back to the Glicko scale.
  return {kCenter + kScale * mu_new, ClampRd(kScale * phi_new, c), sigma};
}

Player Idle(const Player& p, double periods, const Config& c) {
  const double phi = ClampRd(p.rd, c) / kScale;
  const double k = periods > 0 ? periods : 0;  // also maps NaN to 0
  const double phi_new = std::sqrt(phi * phi + k * p.vol * p.vol);
  return {p.rating, ClampRd(kScale * phi_new, c), p.vol};
}

}  // namespace tablero::glicko2
