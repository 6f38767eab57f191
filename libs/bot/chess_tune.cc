#include "libs/bot/chess_tune.h"

#include <cmath>

namespace tablero::bot {

double WinProbability(double eval_cp) { return 1.0 / (1.0 + std::pow(10.0, -eval_cp / 400.0)); }

TuneSample MakeTuneSample(const chess::Position& pos, double label) {
  TuneSample s;
  Evaluate(pos, HandcraftedChessEvalParams(), &s.trace);
  s.label = label;
  return s;
}

std::vector<double> WeightsOf(const ChessEvalParams& params) {
  std::vector<double> w(2 * eval_index::kCount);
  for (int i = 0; i < eval_index::kCount; ++i) {
    w[2 * i] = params[i].mg;
    w[2 * i + 1] = params[i].eg;
  }
  return w;
}

ChessEvalParams ParamsOf(const std::vector<double>& w) {
  ChessEvalParams p;
  for (int i = 0; i < eval_index::kCount; ++i)
    p[i] = EvalScore{int(std::lround(w[2 * i])), int(std::lround(w[2 * i + 1]))};
  return p;
}

double TuneLoss(const std::vector<TuneSample>& samples, const std::vector<double>& weights) {
  if (samples.empty()) return 0;
  double sum = 0;
  for (const TuneSample& s : samples) {
    const double d = WinProbability(TracedEval(s.trace, weights.data())) - s.label;
    sum += d * d;
  }
  return sum / samples.size();
}

std::vector<double> TuneWeights(const std::vector<TuneSample>& samples, std::vector<double> w,
                                const TuneOptions& options,
                                const std::function<void(int, double)>& progress) {
  const size_t n = w.size();
  const std::vector<double> start = w;
  std::vector<double> m(n, 0), v(n, 0), grad(n), local(n);
  std::vector<bool> frozen(n, false);
  for (int i : options.frozen) frozen[2 * i] = frozen[2 * i + 1] = true;
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
  const double k = std::log(10.0) / 400.0;  // d WinProbability / d eval = k p (1 - p)
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    std::fill(grad.begin(), grad.end(), 0.0);
    double loss = 0;
    for (const TuneSample& s : samples) {
      std::fill(local.begin(), local.end(), 0.0);
      const double p = WinProbability(TracedEval(s.trace, w.data(), local.data()));
      const double d = p - s.label;
      loss += d * d;
      const double outer = 2 * d * k * p * (1 - p);
      for (size_t i = 0; i < n; ++i)
        if (local[i] != 0) grad[i] += outer * local[i];
    }
    loss /= samples.size();
    if (options.mirror_pst) {
      for (int t = 0; t < 6; ++t)
        for (int sq = 0; sq < 64; ++sq) {
          if ((sq & 7) >= 4) continue;
          const int a = eval_index::kPst + t * 64 + sq, b = a + 7 - 2 * (sq & 7);
          for (int c = 0; c < 2; ++c)
            grad[2 * a + c] = grad[2 * b + c] = grad[2 * a + c] + grad[2 * b + c];
        }
    }
    const double b1 = 1 - std::pow(kBeta1, epoch), b2 = 1 - std::pow(kBeta2, epoch);
    for (size_t i = 0; i < n; ++i) {
      const double g = grad[i] / samples.size() + 2 * options.pull * (w[i] - start[i]) / 1e4;
      m[i] = kBeta1 * m[i] + (1 - kBeta1) * g;
      v[i] = kBeta2 * v[i] + (1 - kBeta2) * g * g;
      if (v[i] == 0 || frozen[i]) continue;
      w[i] -= options.step * (m[i] / b1) / (std::sqrt(v[i] / b2) + kEps);
    }
    if (progress) progress(epoch, loss);
  }
  return w;
}

}  // namespace tablero::bot
