// The shift search's floor (solver/makespan/improvements/shift_search.hpp,
// least_swapping_shift): below the least shift that lets two neighbours on
// a device swap, a compacted schedule has nothing shorter (checked here with
// the full encoding itself, on both backends); on unit spans the floor is
// below the first shift (nothing changes), and on measured-like times (x1000,
// one span off the grid) it is about a span, so the search builds no
// encoding of a few ticks.
#include <catch2/catch.hpp>

#include <random>

#include "solver/makespan/bounds/device_work_bounds.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/modulo/schedule_check.hpp"
#include "solver/strategies/full_encoding.hpp"
#include "tests/solver/pipelines.hpp"

using namespace tessel;
using testing::checked_within;
using testing::hand_start;
using testing::options_for;
using testing::times;

namespace {

// Whether a schedule one step shorter exists with every start within
// `shift` of `centre`'s (the shift search's own question, asked directly).
Answer shorter_within(const Schedule& centre, Time shift, const std::string& backend) {
  const DeviceWorkBounds work(centre.placement, centre.nmicros);
  const Time horizon = makespan(centre);
  StartDomains domains(centre.placement.blocks.size(), std::vector<StartDomain>(centre.nmicros));
  for (const Instance& instance : centre.instances) {
    const Time earliest = std::max(work.head(instance.block, instance.micro), instance.start - shift);
    const Time latest = std::min(horizon - work.tail(instance.block, instance.micro), instance.start + shift);
    domains[instance.block][instance.micro] = {static_cast<int>(earliest), static_cast<int>(std::max(earliest, latest))};
  }
  const SearchOptions options = options_for(backend, centre.memory_limit, 60);
  std::optional<FullEncoding> encoding =
      build_full_encoding(centre.placement, options, centre.nmicros, horizon, domains);
  REQUIRE(encoding);
  std::vector<Lit> assumptions;
  for (size_t b = 0; b < encoding->start.size(); ++b)
    for (int micro = 0; micro < centre.nmicros; ++micro)
      assumptions.push_back(encoding->backend->at_most(
          encoding->start[b][micro], static_cast<int>(horizon - 1 - work.tail(static_cast<int>(b), micro))));
  return encoding->backend->solve(assumptions, Deadline::after_seconds(60));
}

}  // namespace

TEST_CASE("shift floor: below it a compacted schedule has nothing shorter", "[makespan][shift]") {
  std::mt19937 random(4811);
  int asked = 0;
  for (int round = 0; round < 12; ++round) {
    std::optional<testing::ProvenRound> proven = testing::proven_round(random, round);
    if (!proven) continue;
    Schedule centre = in_micro_order(compacted(testing::poor_start(proven->placement, proven->limits, proven->nmicros)));
    centre.repetend.reset();
    const Time least = least_swapping_shift(centre);
    INFO("round " << round << ", makespan " << makespan(centre) << ", optimum " << proven->optimum.makespan
                  << ", least swapping shift " << least);
    if (least < 2) continue;  // nothing below it but shift 0
    for (const std::string backend : {"cadical", "z3"}) CHECK(shorter_within(centre, least - 1, backend) == Answer::Unsat);
    ++asked;
  }
  CHECK(asked >= 3);
}

TEST_CASE("shift floor: below the first shift on unit spans, about a span on measured times", "[makespan][shift]") {
  const testing::HandMade hand = testing::hand_made("interleaved-zb", 8, 16, 2, 2, 1);
  const Schedule start = compacted(in_micro_order(hand_start(hand)));
  const Time unit = least_swapping_shift(start);
  CHECK(unit >= 1);
  CHECK(unit <= static_cast<Time>(kDefaultTuning.shift_first));
  Schedule measured = times(start, 1000);
  measured.placement.blocks[0].span += 1;  // off the grid: the search runs in ticks
  measured = compacted(measured);
  const Time floor = least_swapping_shift(measured);
  CHECK(floor >= 1000);
  // Not compacted: sliding alone may shorten it, so no floor.
  Schedule loose = measured;
  for (Instance& instance : loose.instances) instance.start += 7;
  CHECK(least_swapping_shift(loose) == 0);
  // The search there asks nothing within a few ticks: its first encoding
  // (if the budget admits one) is at least the floor wide.
  ShiftStats stats;
  const Schedule found = improve_by_shifts(measured, options_for("cadical", hand.peaks, 30), 0, &stats);
  CHECK(checked_within(found, hand.peaks).makespan <= makespan(measured));
  CHECK((stats.encodings == 0 || stats.largest_shift >= floor));
}
