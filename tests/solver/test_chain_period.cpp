// The mirrored chain's program (solver/period/chain_period.hpp): which placements
// it takes, and that it decides every period, and the least latency at the
// answer, as the unit-step modulo encoding does on both backends: on the
// paper's chains and on random mirrored chains with spans, delays,
// all-device blocks, memory limits and a bound on the micro-batches in
// flight. Every schedule goes through the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <thread>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/period/chain_period.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/period_program_checks.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

using testing::add_block;
using testing::cross_check;
using testing::decide;
using testing::Decided;

std::vector<int> every_device(int ndevs) {
  std::vector<int> devices(ndevs);
  for (int d = 0; d < ndevs; ++d) devices[d] = d;
  return devices;
}

// A random mirrored chain: forwards on the devices in a shuffled order
// (each allocating 0-2), some all-device blocks among them, an all-device
// middle block when `odd`, then the mirror image back (frees, all-device
// blocks at the mirrored places); spans 1-3 forward and 1-4 backward, and
// on some edges a delay.
Placement random_chain(std::mt19937& random, int ndevs, int all_device_pairs, bool odd) {
  std::uniform_int_distribution<int> span(1, 3), amount(0, 2), delay(0, 2), slot(0, ndevs);
  Placement placement;
  placement.name = "random mirrored chain";
  placement.ndevs = ndevs;
  std::vector<int> order = every_device(ndevs);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<int> half = order;  // device, or -1 for an all-device block
  for (int i = 0; i < all_device_pairs; ++i) half.insert(half.begin() + slot(random) % (half.size() + 1), -1);
  std::vector<int> chain, amounts;
  for (size_t i = 0; i < half.size(); ++i) {
    const bool all = half[i] < 0;
    amounts.push_back(all ? 0 : amount(random));
    chain.push_back(add_block(placement, "f" + std::to_string(i), all ? every_device(ndevs) : std::vector<int>{half[i]},
                              span(random), amounts.back()));
  }
  if (odd) chain.push_back(add_block(placement, "mid", every_device(ndevs), span(random), 0));
  for (int i = static_cast<int>(half.size()) - 1; i >= 0; --i) {
    const bool all = half[i] < 0;
    chain.push_back(add_block(placement, "b" + std::to_string(i), all ? every_device(ndevs) : std::vector<int>{half[i]},
                              span(random) + 1, -amounts[i]));
  }
  for (size_t i = 1; i < chain.size(); ++i)
    placement.edges.push_back({chain[i - 1], chain[i], delay(random) == 2 ? delay(random) : 0});
  return placement;
}

}  // namespace

TEST_CASE("The program takes one-chain placements whose devices each sit at one level", "[chain]") {
  for (const char* name : {"vshape", "mshape", "nnshape"})
    for (int ndevs : {4, 7, 16}) {
      if (std::string(name) == "nnshape" && ndevs % 2 == 1) continue;  // below
      INFO(name << " on " << ndevs << " devices");
      const Placement placement = make_case(name, ndevs, false);
      const std::optional<MirroredChain> chain = mirrored_chain(placement, std::vector<long long>(ndevs, 2));
      REQUIRE(chain);
      CHECK(chain->blocks.size() == placement.blocks.size());
      CHECK(chain->all_device.size() == (std::string(name) == "vshape" ? 0u : std::string(name) == "mshape" ? 2u : 4u));
      CHECK(*std::max_element(chain->held_caps.begin(), chain->held_caps.end()) == 2);
    }
  // Two chains (xshape), a branching graph (kshape), a device at two levels
  // (interleaved stages), a limit below zero: the modulo encoding's.
  CHECK_FALSE(mirrored_chain(make_case("xshape", 4, false), {}));
  // nnshape on an odd D, in the Python Tessel's order: device 2 of 5 has f2
  // at level 4 (with bs2) and b2 at level 3 (with fs2).
  CHECK_FALSE(mirrored_chain(make_case("nnshape", 5, false), {}));
  CHECK_FALSE(mirrored_chain(make_case("nnshape", 7, false), {}));
  CHECK_FALSE(mirrored_chain(make_case("kshape", 4, false), {}));
  Placement interleaved;
  interleaved.ndevs = 2;
  std::vector<int> chain;
  for (int stage = 0; stage < 4; ++stage) chain.push_back(add_block(interleaved, "f" + std::to_string(stage), {stage % 2}, 1, 1));
  for (int stage = 3; stage >= 0; --stage) chain.push_back(add_block(interleaved, "b" + std::to_string(stage), {stage % 2}, 2, -1));
  for (size_t i = 1; i < chain.size(); ++i) interleaved.edges.push_back({chain[i - 1], chain[i]});
  CHECK_FALSE(mirrored_chain(interleaved, {}));
  CHECK_FALSE(mirrored_chain(make_case("vshape", 4, false), {2, 2, -1, 2}));
}

TEST_CASE("The program decides the paper's chains as the modulo encoding does", "[chain]") {
  for (const char* name : {"vshape", "mshape", "nnshape"})
    for (int ndevs : {4, 6})
      for (long long memory : {ndevs / 2, ndevs, 2 * ndevs}) {
        INFO(name << " on " << ndevs << " devices, memory " << memory);
        cross_check(make_case(name, ndevs, false), std::vector<long long>(ndevs, memory));
      }
  // Without a memory limit only the bound on micro-batches in flight binds.
  cross_check(make_case("mshape", 5, false), {}, 3);
  cross_check(make_case("nnshape", 6, false), {});
}

TEST_CASE("The program decides random mirrored chains as the modulo encoding does", "[chain]") {
  std::mt19937 random(20261127);
  // At most three all-device blocks: with more, the long periods that tight
  // limits give cost the program too much and go to the solver.
  std::uniform_int_distribution<int> devices(2, 4), pairs(0, 1), coin(0, 1), factor(1, 3);
  for (int trial = 0; trial < 32; ++trial) {
    const Placement placement = random_chain(random, devices(random), pairs(random), coin(random) == 1);
    // Each device's limit one to three times its pair's amount; on some
    // trials at most two micro-batches in flight.
    std::vector<long long> limits(placement.ndevs, 0);
    for (const Block& block : placement.blocks)
      if (block.devices.size() == 1 && block.memory > 0) limits[block.devices[0]] = block.memory * factor(random);
    const std::optional<int> nmicros = trial % 4 == 3 ? std::optional<int>(2) : std::nullopt;
    INFO("trial " << trial << ": " << placement.blocks.size() << " blocks on " << placement.ndevs << " devices");
    cross_check(placement, limits, nmicros);
  }
}

TEST_CASE("The program decides a chain the solver takes minutes to refute", "[chain]") {
  // nnshape, 32 devices, memory 24: period 11 took the unit-step encoding
  // 4 minutes of CaDiCaL on one thread; the program refutes it outright.
  const Placement placement = make_case("nnshape", 32, false);
  const Decided decided = decide(placement, std::vector<long long>(32, 24), std::nullopt,
                                 PeriodMethodChoice::Automatic, "cadical");
  REQUIRE(decided.result.status == SearchStatus::Found);
  CHECK(decided.by_program);
  CHECK(decided.result.period == 12);
  CHECK(decided.result.proven_lower_bound == 12);
  testing::check_repetend(decided.result);
}

TEST_CASE("A period's phase choices shared by several threads give the single thread's answer", "[chain]") {
  // The race lets idle threads help a program (ChainPeriodWork::help): the
  // answer, its least-latency repetend and the choices counted must not
  // depend on how many helped. mllm, 16 devices, memory 4: periods 16-21
  // refuted, 22 satisfiable, with thousands of choices each.
  const Placement placement = make_case("mllm", 16, false);
  const std::vector<long long> limits(16, 4);
  const std::optional<MirroredChain> chain = mirrored_chain(placement, limits);
  REQUIRE(chain);
  const int in_flight = static_cast<int>(placement.blocks.size());
  for (int period : {17, 22}) {
    INFO("period " << period);
    const ChainPeriod one = decide_chain_period(placement, *chain, period, in_flight, Deadline::none());
    REQUIRE(one.answer == (period == 22 ? Answer::Sat : Answer::Unsat));
    for (int threads : {2, 3}) {
      INFO(threads << " threads");
      ChainPeriodWork work(placement, *chain, period, in_flight);
      std::vector<std::thread> helpers;
      for (int t = 1; t < threads; ++t) helpers.emplace_back([&work] { work.help(Deadline::none()); });
      work.help(Deadline::none());
      const ChainPeriod shared = work.answer(Deadline::none());  // waits for the helpers' last choices
      for (std::thread& helper : helpers) helper.join();
      CHECK(shared.answer == one.answer);
      CHECK(shared.starts == one.starts);
      CHECK(shared.phase_choices == one.phase_choices);
      CHECK_FALSE(work.open());
    }
  }
  // Stopped part-way, the work answers Unknown, never Unsat.
  ChainPeriodWork stopped(placement, *chain, 21, in_flight);
  StopFlag stop{true};
  stopped.help(Deadline::none(&stop));
  CHECK(stopped.answer(Deadline::none()).answer == Answer::Unknown);
}
