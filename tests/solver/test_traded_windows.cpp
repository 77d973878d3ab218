// The traded neighbourhoods (solver/makespan/improvements/traded_windows.hpp):
// windows of a schedule that recomputes or offloads re-solved by the shift
// search's step with every choice outside the window held. An encoding that
// holds every instance and every choice answers the schedule itself (the
// held choices say what they should); on small random chains offering
// recomputation and offload under tight memory what the windows return
// passes the verifier and is never longer than the memory-trading list
// schedule they start from; on vshape with four devices at memory 2 they
// shorten that list schedule, still trading memory. (On such small cases
// the shift search given no time limit ends with the full search's own
// question and reaches what the windows reach: the windows are for N = 128,
// where it cannot.)
#include <random>
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/improvements/traded_windows.hpp"
#include "solver/modulo/schedule_check.hpp"
#include "solver/strategies/full_encoding.hpp"
#include "tests/solver/traded_chains.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// vshape on 4 devices, every forward offering recomputation and offload
// (copies of one step), at memory 2: keeping everything needs far longer.
Placement traded_vshape() {
  Placement placement = testing::offering_recompute(make_case("vshape", 4, false));
  for (Block& block : placement.blocks)
    if (block.recompute) block.offload = OffloadOffer{1, 1, block.recompute->before};
  return placement;
}

SearchOptions options_within(const std::vector<Memory>& limits, double seconds) {
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit = limits;
  options.deadline = Deadline::after_seconds(seconds);
  return options;
}

void check_valid(const Schedule& schedule) {
  const verify::Report checked = testing::verify_schedule(schedule);
  for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
  CHECK(checked.valid);
}

}  // namespace

TEST_CASE("held choices: holding every instance and choice, the encoding answers the schedule itself",
          "[recompute][shift][offload]") {
  const Placement placement = traded_vshape();
  const std::vector<Memory> limits(placement.ndevs, 2);
  const std::optional<TradingBest> start = best_trading_schedule(placement, limits, 8);
  REQUIRE(start);
  const Schedule& centre = start->schedule;
  REQUIRE_FALSE((centre.recomputes.empty() && centre.transfers.empty()));
  StartDomains domains(placement.blocks.size(), std::vector<StartDomain>(centre.nmicros));
  for (const Instance& instance : centre.instances)
    domains[instance.block][instance.micro] = {static_cast<int>(instance.start), static_cast<int>(instance.start)};
  HeldChoices held(placement.blocks.size());
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (placement.blocks[b].recompute || placement.blocks[b].offload)
      held[b].assign(centre.nmicros, HeldChoice{HeldKind::Keep, 0, 0});
  for (const RecomputeRun& run : centre.recomputes)
    held[run.block][run.micro] = {HeldKind::Recompute, static_cast<int>(run.start), 0};
  for (const Transfer& copy : centre.transfers) {
    HeldChoice& choice = held[copy.block][copy.micro];
    choice.kind = HeldKind::Offload;
    (copy.direction == TransferDirection::Out ? choice.at : choice.back) = static_cast<int>(copy.start);
  }
  const SearchOptions options = options_within(limits, 60);
  std::optional<FullEncoding> encoding =
      build_full_encoding(placement, options, centre.nmicros, makespan(centre), domains, true, held);
  REQUIRE(encoding);
  REQUIRE(encoding->backend->solve({}, options.deadline) == Answer::Sat);
  const Schedule decoded = decode_schedule(*encoding, placement, limits, centre.nmicros);
  auto runs = [](const Schedule& schedule) {
    std::set<std::tuple<int, int, Time>> all;
    for (const RecomputeRun& run : schedule.recomputes) all.insert({run.block, run.micro, run.start});
    return all;
  };
  auto copies = [](const Schedule& schedule) {
    std::set<std::tuple<int, int, bool, Time>> all;
    for (const Transfer& copy : schedule.transfers)
      all.insert({copy.block, copy.micro, copy.direction == TransferDirection::Out, copy.start});
    return all;
  };
  CHECK(runs(decoded) == runs(centre));
  CHECK(copies(decoded) == copies(centre));
  CHECK(makespan(decoded) == makespan(centre));
  check_valid(decoded);
  // The same domains asked one step shorter: nothing is free, so no.
  ShiftStats stats;
  Schedule asked = centre;
  Tails tails(placement.blocks.size(), std::vector<Time>(centre.nmicros, 0));
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    for (Time& tail : tails[b]) tail = placement.blocks[b].span;
  CHECK(shorten_within(asked, domains, held, tails, options, 0, stats) == WithinAnswer::NoneWithin);
  CHECK(makespan(asked) == makespan(centre));
}

TEST_CASE("traded windows: verified and never longer on random chains offering recompute and offload",
          "[recompute][lns][offload][property]") {
  std::mt19937 random(4949);
  int traded = 0, shorter = 0;
  for (int round = 0; round < 10; ++round) {
    const testing::TradedChain chain = testing::random_traded_chain(random);
    const int nmicros = 4 + round % 3;
    const std::vector<Memory> limits(chain.placement.ndevs, chain.limit);
    const std::optional<TradingBest> start = best_trading_schedule(chain.placement, limits, nmicros);
    if (!start || (start->schedule.recomputes.empty() && start->schedule.transfers.empty())) continue;
    ++traded;
    INFO("round " << round << ", limit " << chain.limit << ", N " << nmicros);
    const Time bound = makespan_bound(chain.placement, nmicros).value;
    TradedWindowStats stats;
    const Schedule improved =
        improve_traded_by_windows(start->schedule, options_within(limits, 10), bound, &stats);
    CHECK(makespan(improved) <= makespan(start->schedule));
    CHECK(makespan(improved) >= bound);
    CHECK(schedule_fits(improved));
    check_valid(improved);
    if (makespan(improved) < makespan(start->schedule)) ++shorter;
  }
  CHECK(traded >= 4);
  CHECK(shorter >= 1);
}

TEST_CASE("traded windows: shorter than the memory-trading list schedule on vshape 4 at memory 2",
          "[recompute][lns][offload]") {
  const Placement placement = traded_vshape();
  const std::vector<Memory> limits(placement.ndevs, 2);
  const int nmicros = 16;
  const std::optional<TradingBest> start = best_trading_schedule(placement, limits, nmicros);
  REQUIRE(start);
  REQUIRE_FALSE((start->schedule.recomputes.empty() && start->schedule.transfers.empty()));
  const Time bound = makespan_bound(placement, nmicros).value;
  REQUIRE(makespan(start->schedule) > bound);
  TradedWindowStats stats;
  const Schedule improved = improve_traded_by_windows(start->schedule, options_within(limits, 60), bound, &stats);
  INFO("list " << makespan(start->schedule) << ", windows " << makespan(improved) << " in " << stats.windows
               << " windows");
  CHECK(makespan(improved) < makespan(start->schedule));
  CHECK(stats.improvements >= 1);
  CHECK(makespan(improved) >= bound);
  CHECK_FALSE((improved.recomputes.empty() && improved.transfers.empty()));  // keeping everything needs far longer
  check_valid(improved);
}
