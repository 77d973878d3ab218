// The crossed chains' program (solver/period/crossed_chains.hpp): which placements
// it takes, and that it decides every period as the unit-step modulo
// encoding does on both backends, on xshape and on random crossed chains
// with spans, delays, amounts and per-device memory limits. Every schedule
// goes through the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "cases/builtin_cases.hpp"
#include "solver/period/crossed_chains.hpp"
#include "tests/solver/period_program_checks.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

using testing::add_block;

// One mirrored chain over `devices` (level t on devices[t]): forwards out
// with the amounts, backwards back freeing them; random spans.
std::vector<int> add_chain(Placement& placement, std::mt19937& random, const std::string& name,
                           const std::vector<int>& devices, const std::vector<long long>& amounts) {
  std::uniform_int_distribution<int> span(1, 3);
  std::vector<int> chain;
  for (size_t t = 0; t < devices.size(); ++t)
    chain.push_back(add_block(placement, name + "f" + std::to_string(t), {devices[t]}, span(random), amounts[t]));
  for (int t = static_cast<int>(devices.size()) - 1; t >= 0; --t)
    chain.push_back(add_block(placement, name + "b" + std::to_string(t), {devices[t]}, span(random) + 1, -amounts[t]));
  return chain;
}

void add_edges(Placement& placement, std::mt19937& random, const std::vector<int>& chain) {
  std::uniform_int_distribution<int> delay(0, 2);
  for (size_t i = 1; i < chain.size(); ++i)
    placement.edges.push_back({chain[i - 1], chain[i], delay(random) == 2 ? delay(random) : 0});
}

struct RandomCrossed {
  Placement placement;
  std::vector<long long> limits;
};

// Two chains over the devices in a shuffled order, the second reversed (so
// each device holds level t of one and level D-1-t of the other); amounts
// 1-2, each device's limit from its larger amount up to a few micro-batches.
RandomCrossed random_crossed(std::mt19937& random, int ndevs) {
  std::uniform_int_distribution<int> amount(1, 2), room(0, 4);
  RandomCrossed crossed;
  crossed.placement.name = "random crossed chains";
  crossed.placement.ndevs = ndevs;
  std::vector<int> order(ndevs);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<int> reversed(order.rbegin(), order.rend());
  std::vector<long long> first_amounts(ndevs), second_amounts(ndevs);
  crossed.limits.assign(ndevs, 0);
  for (int t = 0; t < ndevs; ++t) {
    first_amounts[t] = amount(random);
    second_amounts[ndevs - 1 - t] = amount(random);
  }
  for (int t = 0; t < ndevs; ++t)
    crossed.limits[order[t]] = std::max(first_amounts[t], second_amounts[ndevs - 1 - t]) + room(random);
  const std::vector<int> first = add_chain(crossed.placement, random, "x", order, first_amounts);
  const std::vector<int> second = add_chain(crossed.placement, random, "y", reversed, second_amounts);
  add_edges(crossed.placement, random, first);
  add_edges(crossed.placement, random, second);
  return crossed;
}

}  // namespace

TEST_CASE("The crossed-chains program takes two chains crossing every device in opposite directions", "[crossed]") {
  for (int ndevs : {2, 5, 16}) {
    INFO("xshape on " << ndevs << " devices");
    const Placement placement = make_case("xshape", ndevs, false);
    const std::optional<CrossedChains> chains =
        crossed_chains(placement, std::vector<long long>(ndevs, ndevs / 2 + 1), 4 * ndevs);
    REQUIRE(chains);
    REQUIRE(chains->stages.size() == static_cast<size_t>(ndevs));
    for (int t = 0; t < ndevs; ++t) CHECK(chains->stages[t].device == t);
    CHECK(chains->first.size() + chains->second.size() == placement.blocks.size());
  }
  const Placement xshape = make_case("xshape", 4, false);
  // No limit (holds bounded only by the micro-batches in flight), a limit
  // below zero, or a bound on micro-batches in flight that could bind.
  CHECK_FALSE(crossed_chains(xshape, {}, 16));
  CHECK_FALSE(crossed_chains(xshape, {2, 2, -1, 2}, 16));
  CHECK_FALSE(crossed_chains(xshape, {2, 2, 2, 2}, 4));
  // One chain, a branching graph, and two chains in the same direction.
  CHECK_FALSE(crossed_chains(make_case("vshape", 4, false), {2, 2, 2, 2}, 16));
  CHECK_FALSE(crossed_chains(make_case("kshape", 4, false), {2, 2, 2, 2}, 16));
  std::mt19937 random(7);
  Placement same_way;
  same_way.ndevs = 3;
  const std::vector<int> devices{0, 1, 2};
  add_edges(same_way, random, add_chain(same_way, random, "x", devices, {1, 1, 1}));
  add_edges(same_way, random, add_chain(same_way, random, "y", devices, {1, 1, 1}));
  CHECK_FALSE(crossed_chains(same_way, {2, 2, 2}, 16));
}

TEST_CASE("The crossed-chains program decides xshape as the modulo encoding does", "[crossed]") {
  for (int ndevs : {2, 3, 4, 5})
    for (long long memory : {1LL, ndevs / 2LL + 1, 2LL * ndevs}) {
      INFO("xshape on " << ndevs << " devices, memory " << memory);
      testing::cross_check(make_case("xshape", ndevs, false), std::vector<long long>(ndevs, memory), 4 * ndevs + 8);
    }
}

TEST_CASE("The crossed-chains program decides random crossed chains as the modulo encoding does", "[crossed]") {
  std::mt19937 random(20261127);
  std::uniform_int_distribution<int> devices(1, 4);
  for (int trial = 0; trial < 32; ++trial) {
    const RandomCrossed crossed = random_crossed(random, devices(random));
    INFO("trial " << trial << ": " << crossed.placement.blocks.size() << " blocks on " << crossed.placement.ndevs
                  << " devices");
    // Micro-batches in flight bounded far above what the limits allow, so
    // the program takes every trial.
    testing::cross_check(crossed.placement, crossed.limits, 40);
  }
}

TEST_CASE("The crossed-chains program decides xshape where the solver took minutes", "[crossed]") {
  // 32 devices, memory 16: period 12 took CaDiCaL about 25 s to refute on
  // the unit-step encoding; on 64 devices it stayed undecided for 10 minutes.
  const Placement placement = make_case("xshape", 32, false);
  const testing::Decided decided =
      testing::decide(placement, std::vector<long long>(32, 16), std::nullopt, PeriodMethodChoice::Automatic, "cadical");
  REQUIRE(decided.result.status == SearchStatus::Found);
  CHECK(decided.by_program);
  CHECK(decided.result.period == 13);
  CHECK(decided.result.proven_lower_bound == 13);
  testing::check_repetend(decided.result);
}
