// The choice inside the repetend (solver/solve/recompute_choice_search.hpp)
// follows every period search: strategy fast above
// fast_largest_shortened_window blocks (the size up to which fast shortens
// its own window; the choice stopped there too before), and --resolution,
// where it decides on the rounded times the period search used and its
// answer is read back on the real ones. Each answer passes the verifier on
// the real placement and is never longer than the same search with the
// choice off (recompute_choice_seconds = 0: what these searches did before,
// the memory-trading list schedules and the recompute-every-forward search
// aside).
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Every forward with memory offers offload (copies of `copy` ticks) before
// the block testing::offering_recompute names, instead of recomputation.
Placement offering_offload(const Placement& base, Time copy) {
  Placement placement = testing::offering_recompute(base);
  for (Block& block : placement.blocks) {
    if (!block.recompute) continue;
    block.offload = OffloadOffer{copy, copy, block.recompute->before};
    block.recompute.reset();
  }
  return placement;
}

SearchRequest request_of(const Placement& placement, Memory memory, int total_micros, Strategy strategy) {
  SearchRequest request;
  request.placement = placement;
  request.memory_limit = std::vector<Memory>(placement.ndevs, memory);
  request.total_micros = total_micros;
  request.threads = 1;
  request.strategy = strategy;
  return request;
}

// The answer at N, required valid on the request's (real) placement.
Time verified_makespan(const SearchReport& report) {
  REQUIRE(report.best);
  REQUIRE(report.makespan);
  const verify::Report checked = testing::verify_schedule(*report.best);
  for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
  REQUIRE(checked.valid);
  CHECK(checked.makespan == report.makespan->makespan);
  return checked.makespan;
}

// The same search without the choice inside the repetend.
Time makespan_without_choice(SearchRequest request) {
  request.tuning.recompute_choice_seconds = 0;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  CHECK_FALSE(report.period->recompute_decided);
  return verified_makespan(report);
}

bool listed_choice(const SearchReport& report) {
  for (const Candidate& candidate : report.makespan->candidates)
    if (candidate.name.rfind("repetend, ", 0) == 0 && candidate.makespan) return true;
  return false;
}

// vshape's spans in thousandths, each a little short of a whole thousand
// (deterministically), the offers' times too: rounded up to 1000 they are
// vshape's own, whose least periods are known (8 kept, 5 recomputing, 4
// offloading).
Placement in_thousandths(Placement placement) {
  Time noise = 0;
  auto scaled = [&noise](Time span) {
    noise = (noise + 37) % 100;
    return span * 1000 - noise;
  };
  for (Block& block : placement.blocks) {
    block.span = scaled(block.span);
    if (block.recompute) block.recompute->span = scaled(block.recompute->span);
    if (block.offload) block.offload = OffloadOffer{scaled(block.offload->out), scaled(block.offload->in),
                                                    block.offload->before};
  }
  return placement;
}

}  // namespace

TEST_CASE("fast above its shortened-window size decides the shorter periods with the choice",
          "[solver][fast][recompute]") {
  const Placement plain = make_case("vshape", 4, false);
  SearchRequest request = request_of(testing::offering_recompute(plain), 2, 16, Strategy::Fast);
  // Above the size: fast's window keeps its constructed period.
  request.tuning.fast_largest_shortened_window = static_cast<double>(plain.blocks.size() - 1);
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.period);
  REQUIRE(report.period->construction);
  CHECK_FALSE(report.period->construction->window_shortened);
  CHECK(report.period->period == 8);  // constructed, every activation kept
  CHECK(report.period->recompute_decided);
  REQUIRE(report.period->recompute_period);
  CHECK(*report.period->recompute_period == 5);  // 4 refuted for every choice, as the repetend strategy finds
  CHECK(report.period->proven_lower_bound == 5);
  CHECK_FALSE(report.period->recompute_chosen.empty());
  CHECK(listed_choice(report));
  CHECK(report.rejected.empty());
  CHECK(verified_makespan(report) <= makespan_without_choice(request));
}

TEST_CASE("fast on 32 devices offering offload chooses inside the repetend; on 64 its encoding is not built",
          "[solver][fast][recompute]") {
  for (const int devices : {32, 64}) {
    INFO(devices << " devices");
    const Placement offered = offering_offload(make_case("nnshape", devices, false), 1);
    REQUIRE(offered.blocks.size() > static_cast<size_t>(kDefaultTuning.fast_largest_shortened_window));
    SearchRequest request = request_of(offered, devices, 64, Strategy::Fast);
    // The solver's own seconds, generous for a loaded machine (not a phase
    // budget: the plan stays); the build's estimate comes on top.
    request.tuning.recompute_choice_seconds = 3;
    Progress quiet;
    const SearchReport report = solve(request, quiet);
    REQUIRE(report.period);
    REQUIRE(report.period->period > report.period->lower_bound);  // memory D binds when everything is kept
    const Time answer = verified_makespan(report);
    CHECK(report.rejected.empty());
    if (devices == 64) {
      // About 45 million terms: more than 3 s at 10 million a second.
      CHECK(report.period->recompute_skipped_terms > 3 * kDefaultTuning.encoding_terms_per_second);
      CHECK_FALSE(report.period->recompute_decided);
      continue;
    }
    CHECK(report.period->recompute_skipped_terms == 0);
    CHECK(report.period->recompute_decided);
    REQUIRE(report.period->recompute_period);
    CHECK(*report.period->recompute_period < report.period->period);
    CHECK(report.period->proven_lower_bound == *report.period->recompute_period);
    CHECK_FALSE(report.period->offload_chosen.empty());
    CHECK(listed_choice(report));
    CHECK(answer <= makespan_without_choice(request));
  }
}

TEST_CASE("resolution: the choice decides on the rounded times, its answer verified on the real ones",
          "[solver][resolution][recompute]") {
  const Placement plain = make_case("vshape", 4, false);
  struct Offer {
    const char* name;
    Placement placement;
    Time least;  // the least rounded period with the choice
  };
  for (const Offer& offer : {Offer{"recompute", in_thousandths(testing::offering_recompute(plain)), 5},
                             Offer{"offload", in_thousandths(offering_offload(plain, 1)), 4}}) {
    INFO(offer.name);
    for (const Strategy strategy : {Strategy::Repetend, Strategy::Fast}) {
      INFO((strategy == Strategy::Fast ? "fast" : "repetend"));
      SearchRequest request = request_of(offer.placement, 2, 16, strategy);
      request.resolution = 1000;
      Progress quiet;
      const SearchReport report = solve(request, quiet);
      REQUIRE(report.period);
      CHECK(report.period->period == 8000);  // the rounded 8, every activation kept
      CHECK(report.period->recompute_decided);
      REQUIRE(report.period->recompute_period);
      CHECK(*report.period->recompute_period == offer.least * 1000);
      // A bound on the real times: at most what was found, at least L.
      CHECK(report.period->proven_lower_bound <= *report.period->recompute_period);
      CHECK(report.period->proven_lower_bound >= report.period->lower_bound);
      CHECK_FALSE(report.period->optimal);
      CHECK(listed_choice(report));
      CHECK(report.rejected.empty());
      CHECK(verified_makespan(report) <= makespan_without_choice(request));
    }
  }
}
