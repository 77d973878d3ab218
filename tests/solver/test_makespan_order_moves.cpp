// The tabu search on device orders (solver/makespan/improvements/order_moves.hpp). It
// shortens the hand-made interleaved zero bubble on 16 ranks, its own
// placement and peaks (a tie of every other improvement in the default
// search); on random pipelines with delays and tight memory whatever it
// returns passes the verifier within the limits and is never longer than
// its start, every gain is handed over as it comes; it declines the
// placements it cannot reorder and returns at once at the bound; on a
// deadline carrying the portfolio's stall it gives up by its own count of
// steps, at the same step in every run.
#include <catch2/catch.hpp>

#include <random>

#include "solver/makespan/improvements/order_moves.hpp"
#include "tests/placements.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

using testing::checked_within;
using testing::hand_start;
using testing::poor_start;

}  // namespace

TEST_CASE("device orders: shorter than interleaved zero bubble on 16 ranks", "[makespan][device-orders]") {
  // 16 ranks x 2 chunks, F=3 B=2 W=1: the hand-made orders take 252 steps
  // at N 16 and 444 at N 32; the shifts and neighbourhoods find nothing
  // shorter at N 32 in the default search. The search is deterministic
  // step by step; the bound one below the start stops it at its first gain,
  // the deadline is only a hang guard.
  for (const int nmicros : {16, 32}) {
    const testing::HandMade hand = testing::hand_made("interleaved-zb", 16, nmicros, 3, 2, 1);
    const Schedule start = hand_start(hand);
    const Time hand_makespan = checked_within(start, hand.peaks).makespan;
    CHECK(hand_makespan == (nmicros == 16 ? 252 : 444));
    OrderMovesStats stats;
    std::vector<Time> offered;
    const Schedule shorter = improve_by_order_moves(start, hand.peaks, Deadline::after_seconds(120), hand_makespan - 1,
                                                    &stats, [&](const Schedule& found) {
                                                      checked_within(found, hand.peaks);
                                                      offered.push_back(makespan(found));
                                                    });
    INFO("N " << nmicros << ": " << stats.steps << " steps, " << stats.evaluations << " orders run");
    CHECK(checked_within(shorter, hand.peaks).makespan < hand_makespan);
    CHECK(stats.improvements > 0);
    REQUIRE(!offered.empty());
    CHECK(offered.back() == makespan(shorter));
  }
}

TEST_CASE("device orders: valid and never longer on random pipelines with delays", "[makespan][device-orders]") {
  std::mt19937 random(2027);
  std::uniform_int_distribution<int> delay(0, 2);
  int shortened = 0;
  for (int round = 0; round < 24; ++round) {
    const int ndevs = 2 + round % 3;
    Placement placement = testing::random_pipeline(random, ndevs, round % 2 ? 2 * ndevs : ndevs + 1, round % 2 == 1);
    for (Edge& edge : placement.edges) edge.delay = delay(random);
    std::vector<Memory> limits = testing::one_micro_peaks(placement);
    for (Memory& limit : limits) limit += round % 3;  // tight, one above, two above
    const int nmicros = 3 + round % 6;
    INFO("round " << round << ": " << ndevs << " devices, N " << nmicros);
    const Schedule start = poor_start(placement, limits, nmicros);
    const Time start_makespan = checked_within(start, limits).makespan;
    std::vector<Time> offered;
    OrderMovesStats stats;
    const Schedule found = improve_by_order_moves(start, limits, Deadline::after_seconds(0.1), 0, &stats,
                                                  [&](const Schedule& shorter) {
                                                    checked_within(shorter, limits);
                                                    offered.push_back(makespan(shorter));
                                                  });
    const Time found_makespan = checked_within(found, limits).makespan;
    CHECK(found_makespan <= start_makespan);
    for (size_t i = 1; i < offered.size(); ++i) CHECK(offered[i] < offered[i - 1]);
    if (!offered.empty()) CHECK(offered.back() == found_makespan);
    if (found_makespan < start_makespan) ++shortened;
  }
  // Every forward first leaves room in most rounds; a search that never
  // moved would pass the checks above.
  CHECK(shortened >= 12);
}

TEST_CASE("device orders: declines what it cannot reorder, stops at the bound", "[makespan][device-orders]") {
  const testing::HandMade hand = testing::hand_made("1f1b", 4, 8, 1, 1, 1);
  const Schedule start = hand_start(hand);
  REQUIRE(order_moves_apply(start));

  SECTION("a block on two devices (tensor parallel)") {
    Schedule wide = start;
    wide.placement.blocks[0].devices = {0, 1};
    CHECK_FALSE(order_moves_apply(wide));
    OrderMovesStats stats;
    const Schedule same = improve_by_order_moves(wide, hand.peaks, Deadline::after_seconds(5), 0, &stats);
    CHECK(same.instances.size() == wide.instances.size());
    CHECK(makespan(same) == makespan(wide));
    CHECK(stats.evaluations == 0);
  }
  SECTION("a schedule missing an instance") {
    Schedule partial = start;
    partial.instances.pop_back();
    CHECK_FALSE(order_moves_apply(partial));
  }
  SECTION("already at the bound: no step") {
    OrderMovesStats stats;
    const Schedule same =
        improve_by_order_moves(start, hand.peaks, Deadline::after_seconds(5), makespan(start), &stats);
    CHECK(stats.steps == 0);
    CHECK(checked_within(same, hand.peaks).makespan == makespan(start));
  }
  SECTION("an expired deadline: the start compacted") {
    const Schedule same = improve_by_order_moves(start, hand.peaks, Deadline::after_seconds(0), 0);
    CHECK(checked_within(same, hand.peaks).makespan <= makespan(start));
  }
}

TEST_CASE("device orders: on a stalling deadline they give up by steps, the same in every run",
          "[makespan][device-orders][stall]") {
  // order_stall_steps: after more steps without a gain than the knob or
  // than the steps to the last gain. A stall without a stretch in seconds
  // (0): only the count ends the search; the 120 s deadline is a hang guard.
  const testing::HandMade hand = testing::hand_made("interleaved-zb", 16, 16, 3, 2, 1);
  const Schedule start = hand_start(hand);
  Tuning tuning;
  tuning.order_stall_steps = 100;
  auto run = [&](OrderMovesStats& stats, const Stall& stall) {
    Deadline deadline = Deadline::after_seconds(120);
    deadline.stall = &stall;
    return improve_by_order_moves(start, hand.peaks, deadline, 0, &stats, {}, tuning);
  };
  OrderMovesStats first, second;
  const Stall stall_first(0), stall_second(0);
  const Schedule found = run(first, stall_first);
  const Schedule again = run(second, stall_second);
  CHECK(stall_first.given_up());
  CHECK(stall_second.given_up());
  INFO(first.steps << " steps, " << first.improvements << " gains");
  CHECK(first.steps > 100);
  CHECK(first.steps == second.steps);
  CHECK(first.evaluations == second.evaluations);
  CHECK(checked_within(found, hand.peaks).makespan <= makespan(start));
  CHECK(makespan(found) == makespan(again));
  // Without a stall the knob is not read: the deadline alone ends it (here
  // the bound one below the start, at its first gain).
  OrderMovesStats plain;
  const Schedule first_gain =
      improve_by_order_moves(start, hand.peaks, Deadline::after_seconds(120), makespan(start) - 1, &plain, {}, tuning);
  CHECK(makespan(first_gain) < makespan(start));
}
