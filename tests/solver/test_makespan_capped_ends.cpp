// The memory-capped ends of the makespan bound (solver/makespan/closed_bound/capped_ends):
// it must never pass an optimum the full solver proves (hand-made families
// at their own peaks and random pipelines under tight memory, both backends
// agreeing on a share of them), and it must close the ties the older bound
// left open: zero bubble with W shorter than B, where a hand-made schedule
// the verifier accepts now meets the bound, so it is optimal.
#include <catch2/catch.hpp>

#include <random>

#include "classic/schemes.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::FamilyRow;
using tessel::testing::for_each_proven_family;
using tessel::testing::hand_made;
using tessel::testing::HandMade;
using tessel::testing::one_micro_peaks;
using tessel::testing::proven_full;
using tessel::testing::proven_round;
using tessel::testing::ProvenRound;
using tessel::testing::random_pipeline;
using tessel::testing::verify_schedule;

TEST_CASE("capped ends: zero bubble with W shorter than B meets the bound, so the hand-made one is optimal",
          "[makespan]") {
  // Before: (S - 1)(B - W) below ZB-H2 at every N; the last device idles
  // after its last B only while at most its memory's W are pending.
  for (int stages : {4, 8}) {
    for (int nmicros : {16, 32}) {
      for (auto [f, b] : {std::pair<Time, Time>{2, 2}, {3, 2}}) {
        INFO("zb-h2, " << stages << " stages, N=" << nmicros << ", F=" << f << " B=" << b << " W=1");
        HandMade made = hand_made("zb-h2", stages, nmicros, f, b, 1);
        const MakespanBound plain = makespan_bound(made.placement, nmicros);
        const MakespanBound capped = makespan_bound(made.placement, nmicros, made.peaks);
        CHECK(capped.value == makespan(made.schedule));
        CHECK(capped.value - plain.value == (stages - 1) * (b - 1));
        CHECK(capped.memory_idle == (stages - 1) * (b - 1));
      }
    }
  }
  // With B = W the term adds nothing (the old bound was already tight).
  HandMade equal = hand_made("zb-h2", 4, 16, 1, 1, 1);
  CHECK(makespan_bound(equal.placement, 16, equal.peaks).memory_idle == 0);
}

TEST_CASE("capped ends: never above the full solver's proven optimum of hand-made families at small N",
          "[makespan][full]") {
  const std::vector<FamilyRow> rows = {
      {"zb-h2", 4, 8, 2, 2, 1},          {"zb-h2", 4, 8, 3, 2, 1},  {"zb-h2", 3, 6, 1, 2, 2},
      {"zb-h1", 4, 6, 2, 2, 1},          {"1f1b", 3, 6, 3, 2, 1},   {"interleaved-zb", 2, 4, 2, 2, 1},
      {"interleaved-zb", 2, 8, 2, 2, 1}, {"v-min", 2, 4, 2, 2, 1},  {"v-half", 2, 4, 1, 1, 1},
      {"zb-v", 2, 4, 1, 2, 2},           {"interleaved-1f1b", 2, 4, 2, 2, 1}};
  int tight = 0;
  for_each_proven_family(rows, [&](const FamilyRow&, const HandMade& made, int nmicros,
                                   const std::vector<Memory>& limits, const SearchResult& optimum) {
    CHECK(optimum.makespan <= makespan(made.schedule));
    const long long bound = makespan_lower_bound(made.placement, nmicros, limits);
    CHECK(bound <= optimum.makespan);
    if (bound == optimum.makespan) ++tight;
  });
  // Not vacuous: on most of them the bound is the optimum.
  CHECK(tight >= 16);
}

TEST_CASE("capped ends: never above the proven optimum of random pipelines under tight memory, both backends agree",
          "[makespan][full]") {
  std::mt19937 random(20261125);
  int raised = 0, compared = 0;
  for (int round = 0; round < 36; ++round) {
    INFO("round " << round);
    const std::optional<ProvenRound> proven = proven_round(random, round);
    if (!proven) continue;
    const Placement& placement = proven->placement;
    const int nmicros = proven->nmicros;
    const std::vector<Memory>& limits = proven->limits;
    const SearchResult& sat = proven->optimum;
    const MakespanBound bound = makespan_bound(placement, nmicros, limits);
    CHECK(bound.value <= sat.makespan);
    ++compared;
    if (bound.memory_idle > 0) ++raised;
    if (round % 6 == 0) {  // Z3 is slower: a sixth of the rounds
      SearchResult smt = proven_full(placement, nmicros, limits, "z3");
      REQUIRE(smt.status == SearchStatus::Found);
      CHECK(smt.makespan == sat.makespan);
      CHECK(verify_schedule(*smt.schedule).valid);
    }
  }
  CHECK(compared >= 30);
  CHECK(raised >= 5);  // the memory terms do raise the bound on some
}

TEST_CASE("memory time: a device that holds each micro-batch's memory for a long chain runs at most M of them at once",
          "[makespan][full]") {
  // Two devices, f0 f1 b1 b0 of span 1; f0 allocates 1 that b0 frees, and
  // device 0 holds at most 1: each micro-batch holds it from f0's start to
  // b0's, 3 steps, so N micro-batches need 3N steps of it, plus b0 itself.
  Placement placement;
  placement.name = "long hold";
  placement.ndevs = 2;
  const int devices[] = {0, 1, 1, 0};
  const Memory memory[] = {1, 1, -1, -1};
  const char* ids[] = {"f0", "f1", "b1", "b0"};
  for (int b = 0; b < 4; ++b) {
    Block block;
    block.id = ids[b];
    block.devices = {devices[b]};
    block.span = 1;
    block.memory = memory[b];
    placement.blocks.push_back(block);
    if (b > 0) placement.edges.push_back({b - 1, b});
  }
  const std::vector<Memory> limits{1, 1};
  for (int nmicros : {2, 4, 6}) {
    INFO("N=" << nmicros);
    const MakespanBound bound = makespan_bound(placement, nmicros, limits);
    CHECK(bound.value >= 3 * nmicros + 1);
    CHECK(makespan_bound(placement, nmicros).value == 2 * nmicros + 2);  // the load alone
    SearchResult optimum = proven_full(placement, nmicros, limits, "cadical");
    REQUIRE(optimum.status == SearchStatus::Found);
    REQUIRE(optimum.makespan == optimum.proven_lower_bound);
    CHECK(verify_schedule(*optimum.schedule).valid);
    CHECK(bound.value <= optimum.makespan);
    CHECK(optimum.makespan == 4 * nmicros);  // b0 occupies the device too: the bound is 1 step per micro short
  }
  // V-Min on 16 devices, F = 3, B = 2, W = 1, at its own peaks: memory, not
  // load, limits the steady state, and the hand-made schedule (verified) is
  // at or above the bound.
  HandMade vmin = hand_made("v-min", 16, 128, 3, 2, 1);
  const long long bound = makespan_lower_bound(vmin.placement, 128, vmin.peaks);
  CHECK(bound > makespan_lower_bound(vmin.placement, 128) + 100);
  CHECK(bound <= makespan(vmin.schedule));
}
