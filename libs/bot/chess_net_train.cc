#include "libs/bot/chess_net_train.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>

#include "libs/bot/chess_tune.h"

namespace tablero::bot {

using namespace chess;  // NOLINT: the engine's own vocabulary

namespace {

constexpr int kH = kChessNetHidden;

// The forward pass of one sample: both views' sums and the output in centipawns.
struct Forward {
  float to_move[kH], other[kH];
  double cp = 0;
};

void RunForward(const FloatChessNet& net, const NetSample& s, Forward* f) {
  std::copy(net.b1.begin(), net.b1.end(), f->to_move);
  std::copy(net.b1.begin(), net.b1.end(), f->other);
  for (int k = 0; k < s.count; ++k) {
    const float* a = &net.w1[size_t(s.to_move[k]) * kH];
    const float* b = &net.w1[size_t(s.other[k]) * kH];
    const float* sa = &net.shared[size_t(s.to_move[k] / 64) * kH];
    const float* sb = &net.shared[size_t(s.other[k] / 64) * kH];
    for (int i = 0; i < kH; ++i) {
      f->to_move[i] += a[i] + sa[i];
      f->other[i] += b[i] + sb[i];
    }
  }
  float out = net.b2;
  for (int i = 0; i < kH; ++i) {
    const float u = std::clamp(f->to_move[i], 0.0f, 1.0f), v = std::clamp(f->other[i], 0.0f, 1.0f);
    out += u * u * net.w2[i] + v * v * net.w2[kH + i];
  }
  f->cp = s.base_cp + double(out) * kChessNetScale;
}

// A batch's gradient, one per thread.
struct Gradient {
  std::vector<float> w1 = std::vector<float>(kChessNetInputs * kH);
  std::vector<float> shared = std::vector<float>(12 * kH);
  std::vector<float> b1 = std::vector<float>(kH), w2 = std::vector<float>(2 * kH);
  double b2 = 0, loss = 0;
  void Clear() {
    std::fill(w1.begin(), w1.end(), 0.0f);
    std::fill(shared.begin(), shared.end(), 0.0f);
    std::fill(b1.begin(), b1.end(), 0.0f);
    std::fill(w2.begin(), w2.end(), 0.0f);
    b2 = loss = 0;
  }
};

void AddGradient(const FloatChessNet& net, const NetSample& s, Gradient* g) {
  Forward f;
  RunForward(net, s, &f);
  const double p = WinProbability(f.cp), d = p - s.label;
  g->loss += d * d;
  // d loss / d output: 2 d, times d p / d cp (ln 10 / 400 p (1 - p)), times d cp / d output.
  const float outer = float(2 * d * std::log(10.0) / 400 * p * (1 - p) * kChessNetScale);
  g->b2 += outer;
  float dm[kH], dt[kH];
  for (int i = 0; i < kH; ++i) {
    const float u = f.to_move[i], v = f.other[i];
    const float cu = std::clamp(u, 0.0f, 1.0f), cv = std::clamp(v, 0.0f, 1.0f);
    g->w2[i] += outer * cu * cu;
    g->w2[kH + i] += outer * cv * cv;
    dm[i] = (u > 0 && u < 1) ? outer * net.w2[i] * 2 * u : 0.0f;
    dt[i] = (v > 0 && v < 1) ? outer * net.w2[kH + i] * 2 * v : 0.0f;
    g->b1[i] += dm[i] + dt[i];
  }
  for (int k = 0; k < s.count; ++k) {
    float* a = &g->w1[size_t(s.to_move[k]) * kH];
    float* b = &g->w1[size_t(s.other[k]) * kH];
    float* sa = &g->shared[size_t(s.to_move[k] / 64) * kH];
    float* sb = &g->shared[size_t(s.other[k] / 64) * kH];
    for (int i = 0; i < kH; ++i) {
      a[i] += dm[i];
      b[i] += dt[i];
      sa[i] += dm[i];
      sb[i] += dt[i];
    }
  }
}

// Adam's state for one array of weights.
struct Adam {
  std::vector<float> m, v;
  explicit Adam(size_t n) : m(n), v(n) {}
  void Step(float* w, const float* g, size_t n, double rate, double scale, long t, float clip) {
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
    const double c1 = 1 - std::pow(kBeta1, double(t)), c2 = 1 - std::pow(kBeta2, double(t));
    for (size_t i = 0; i < n; ++i) {
      const double gi = g[i] * scale;
      m[i] = float(kBeta1 * m[i] + (1 - kBeta1) * gi);
      v[i] = float(kBeta2 * v[i] + (1 - kBeta2) * gi * gi);
      const double step = rate * (m[i] / c1) / (std::sqrt(v[i] / c2) + kEps);
      w[i] = std::clamp(float(w[i] - step), -clip, clip);
    }
  }
};

}  // namespace

NetSample MakeNetSample(const Position& pos, double label) {
  NetSample s;
  const Color us = pos.side_to_move();
  for (Bitboard b = pos.pieces(); b && s.count < 32;) {
    const Square sq = PopLsb(b);
    s.to_move[s.count] = uint16_t(ChessNetInput(us, pos.piece_on(sq), sq));
    s.other[s.count] = uint16_t(ChessNetInput(~us, pos.piece_on(sq), sq));
    ++s.count;
  }
  s.label = float(label);
  return s;
}

FloatChessNet RandomChessNet(uint64_t seed) {
  FloatChessNet net;
  std::mt19937_64 rng(seed);
  // About 30 inputs are on: first-layer sums start near 0.1 in size; the output's weights
  // as for 256 inputs.
  std::uniform_real_distribution<float> first(-0.05f, 0.05f), second(-0.0625f, 0.0625f);
  for (float& w : net.w1) w = first(rng);
  for (float& w : net.w2) w = second(rng);
  return net;
}

double FloatChessNetEval(const FloatChessNet& net, const NetSample& s) {
  Forward f;
  RunForward(net, s, &f);
  return f.cp;
}

double ChessNetLoss(const std::vector<NetSample>& samples, const FloatChessNet& net) {
  if (samples.empty()) return 0;
  double sum = 0;
  for (const NetSample& s : samples) {
    const double d = WinProbability(FloatChessNetEval(net, s)) - s.label;
    sum += d * d;
  }
  return sum / double(samples.size());
}

void TrainChessNet(const std::vector<NetSample>& samples, const NetTrainOptions& options,
                   FloatChessNet* net, const std::function<void(int, double)>& progress) {
  const int threads = std::max(1, options.threads);
  std::vector<Gradient> grads(threads);
  Adam a1(net->w1.size()), as(net->shared.size()), ab1(net->b1.size()), a2(net->w2.size()), ab2(1);
  std::vector<uint32_t> order(samples.size());
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(options.seed);
  long t = 0;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    const double rate =
        epoch > options.drop_at * options.epochs ? options.rate * options.drop : options.rate;
    double loss = 0;
    for (size_t start = 0; start < order.size(); start += options.batch) {
      const size_t end = std::min(order.size(), start + size_t(options.batch));
      std::vector<std::thread> workers;
      for (int k = 0; k < threads; ++k) {
        workers.emplace_back([&, k] {
          Gradient& g = grads[k];
          g.Clear();
          for (size_t i = start + k; i < end; i += threads)
            AddGradient(*net, samples[order[i]], &g);
        });
      }
      for (auto& w : workers) w.join();
      for (int k = 1; k < threads; ++k) {
        Gradient& g = grads[0];
        const Gradient& h = grads[k];
        for (size_t i = 0; i < g.w1.size(); ++i) g.w1[i] += h.w1[i];
        for (size_t i = 0; i < g.shared.size(); ++i) g.shared[i] += h.shared[i];
        for (int i = 0; i < kH; ++i) g.b1[i] += h.b1[i];
        for (int i = 0; i < 2 * kH; ++i) g.w2[i] += h.w2[i];
        g.b2 += h.b2;
        g.loss += h.loss;
      }
      const Gradient& g = grads[0];
      loss += g.loss;
      const double scale = 1.0 / double(end - start);
      ++t;
      a1.Step(net->w1.data(), g.w1.data(), net->w1.size(), rate, scale, t, kNetW1Clip);
      as.Step(net->shared.data(), g.shared.data(), net->shared.size(), rate, scale, t, kNetW1Clip);
      ab1.Step(net->b1.data(), g.b1.data(), net->b1.size(), rate, scale, t, kNetW1Clip);
      a2.Step(net->w2.data(), g.w2.data(), net->w2.size(), rate, scale, t, kNetW2Clip);
      const float b2g = float(g.b2);
      ab2.Step(&net->b2, &b2g, 1, rate, scale, t, 1e6f);
    }
    if (progress) progress(epoch, loss / double(samples.size()));
  }
}

std::unique_ptr<ChessNet> QuantizeChessNet(const FloatChessNet& net) {
  auto q = std::make_unique<ChessNet>();
  auto round16 = [](double v) { return int16_t(std::lround(v)); };
  for (int f = 0; f < kChessNetInputs; ++f)
    for (int i = 0; i < kH; ++i)
      q->w1[f][i] =
          round16((net.w1[size_t(f) * kH + i] + net.shared[size_t(f / 64) * kH + i]) * kChessNetQA);
  for (int i = 0; i < kH; ++i) q->b1[i] = round16(net.b1[i] * kChessNetQA);
  for (int v = 0; v < 2; ++v)
    for (int i = 0; i < kH; ++i) q->w2[v][i] = round16(net.w2[v * kH + i] * kChessNetQB);
  q->b2 = int32_t(std::lround(double(net.b2) * kChessNetQA * kChessNetQB));
  return q;
}

}  // namespace tablero::bot
