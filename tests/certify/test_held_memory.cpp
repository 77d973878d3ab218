// The verifier's memory by allocation/free pairs and its phase view
// (certify/held_memory, certify/phase_view) add clauses that must be implied
// by the definition: with every start fixed, the CNF must accept a window
// exactly when the definition does. Windows are drawn at random (chains with
// random waits) and judged by the definition written out here, the signed
// sum of docs/algorithms.md "The repetend as a modulo schedule", so a wrong
// pair count or a wrong phase clause shows as a disagreement.
#include <catch2/catch.hpp>

#include <cadical.hpp>

#include <random>

#include "certify/encoder.hpp"
#include "certify/held_memory.hpp"
#include "certify/symmetry.hpp"

using namespace tessel;

namespace {

certify::Block block(const std::string& id, long long span, long long memory, std::vector<int> devices) {
  return certify::Block{id, span, memory, std::move(devices)};
}

// fs, f0, f1, b1, b0, bs on two devices (mshape's form), each forward
// allocating `amount`; with `split`, device 0's free comes in two blocks.
certify::Placement chain(long long amount, bool split) {
  certify::Placement placement;
  placement.ndevs = 2;
  placement.static_memory = {0, 0};
  placement.blocks = {block("fs", 1, 0, {0, 1}), block("f0", 1, amount, {0}), block("f1", 1, amount, {1}),
                      block("b1", 2, -amount, {1})};
  if (split) placement.blocks.push_back(block("c0", 1, -1, {0}));
  placement.blocks.push_back(block("b0", 2, split ? 1 - amount : -amount, {0}));
  placement.blocks.push_back(block("bs", 1, 0, {0, 1}));
  for (size_t b = 0; b + 1 < placement.blocks.size(); ++b)
    placement.edges.push_back({static_cast<int>(b), static_cast<int>(b) + 1, 0});
  return placement;
}

long long floor_div(long long a, long long b) { return a / b - (a % b != 0 && a < 0); }

bool on(const certify::Block& block, int device) {
  return std::find(block.devices.begin(), block.devices.end(), device) != block.devices.end();
}

// The definition: edges, the circle, the latency bound, and the memory sum.
bool is_repetend(const certify::Placement& window, const std::vector<long long>& starts, long long period,
                 long long horizon, long long limit) {
  for (const certify::Edge& edge : window.edges)
    if (starts[edge.to] < starts[edge.from] + window.blocks[edge.from].span + edge.delay) return false;
  for (size_t b = 0; b < starts.size(); ++b)
    if (starts[b] < 0 || starts[b] + window.blocks[b].span > horizon) return false;
  for (int d = 0; d < window.ndevs; ++d)
    for (long long f = 0; f < period; ++f) {
      long long memory = 0, occupants = 0;
      for (size_t b = 0; b < starts.size(); ++b) {
        if (!on(window.blocks[b], d)) continue;
        const long long phase = starts[b] % period;
        memory += window.blocks[b].memory * ((phase <= f) - floor_div(starts[b], period));
        occupants += (f - phase + period) % period < window.blocks[b].span;
      }
      if (memory > limit || occupants > 1) return false;
    }
  return true;
}

int answer_with_starts(const certify::Placement& placement, long long limit, const certify::Claim& claim,
                       const std::vector<long long>& starts) {
  const certify::Cnf cnf = certify::encode_claim(placement, std::vector<long long>(placement.ndevs, limit), claim);
  CaDiCaL::Solver solver;
  for (const auto& clause : cnf.clauses) {
    for (int literal : clause) solver.add(literal);
    solver.add(0);
  }
  for (size_t b = 0; b < starts.size(); ++b) solver.assume(certify::start_literal(placement, claim, static_cast<int>(b), starts[b]));
  return solver.solve();
}

// A window of k chains with random waits, copy 0 from 0 and the others
// from a random step, mapped onto the verifier's symmetry rules.
std::vector<long long> random_window(const certify::Placement& placement, const certify::Claim& claim,
                                     std::mt19937& random) {
  const int n = static_cast<int>(placement.blocks.size());
  std::vector<long long> starts;
  for (int c = 0; c < claim.k; ++c) {
    long long at = c == 0 ? 0 : std::uniform_int_distribution<long long>(0, 2 * claim.period)(random);
    for (int b = 0; b < n; ++b) {
      starts.push_back(at);
      at += placement.blocks[b].span + std::uniform_int_distribution<long long>(0, 3)(random);
    }
  }
  return certify::canonical_starts(placement, claim, true, starts);
}

}  // namespace

TEST_CASE("certify memory: the pairs of a device, or none when a free has no allocation above it", "[certify]") {
  const certify::DevicePairs simple = certify::pair_memory(chain(2, false), 0);
  REQUIRE(simple.paired);
  REQUIRE(simple.pairs.size() == 1);
  CHECK(simple.pairs[0].allocates == 1);
  CHECK(simple.pairs[0].frees == 4);
  CHECK(simple.pairs[0].amount == 2);
  const certify::DevicePairs split = certify::pair_memory(chain(3, true), 0);
  REQUIRE(split.paired);
  CHECK(split.pairs.size() == 2);
  certify::Placement reversed = chain(1, false);
  std::swap(reversed.blocks[1].memory, reversed.blocks[4].memory);  // device 0 frees before it allocates
  CHECK_FALSE(certify::pair_memory(reversed, 0).paired);
}

TEST_CASE("certify memory: with the starts fixed the CNF accepts exactly the definition's repetends", "[certify]") {
  std::mt19937 random(50);
  int accepted = 0, refused_by_memory = 0;
  for (const bool split : {false, true})
    for (const int k : {1, 2})
      for (const long long limit : {1, 2, 3, 5}) {
        const certify::Placement placement = chain(split ? 2 : 1, split);
        const long long period = k * (split ? 7 : 6) + 1;
        const certify::Claim claim{period, k, 3};
        const certify::Placement window = certify::window_of(placement, k);
        for (int draw = 0; draw < 200; ++draw) {
          const std::vector<long long> starts = random_window(placement, claim, random);
          const long long horizon = period * claim.max_in_flight;
          if (!is_repetend(window, starts, period, horizon, 1LL << 40)) continue;  // no memory limit
          const bool expected = is_repetend(window, starts, period, horizon, limit);
          INFO("split " << split << " k " << k << " limit " << limit << " draw " << draw);
          CHECK(answer_with_starts(placement, limit, claim, starts) == (expected ? 10 : 20));
          (expected ? accepted : refused_by_memory) += 1;
        }
      }
  // Both verdicts were met often enough for the agreement to mean something.
  INFO("accepted " << accepted << ", refused by memory " << refused_by_memory);
  CHECK(accepted >= 10);
  CHECK(refused_by_memory >= 10);
}
