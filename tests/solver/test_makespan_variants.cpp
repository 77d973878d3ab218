// Other repetends of the found period (solver/makespan/constructions/repetend_variants.hpp):
// on interleaved 1F1B's own placement and memory the search's first window
// drains worse than another window of the same period, so the variant found
// must be strictly shorter at N, keep the period, verify at N and unroll to
// other lengths; through solve(), the knob lists it as a candidate.
#include <catch2/catch.hpp>

#include "classic/schemes.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/constructions/repetend_variants.hpp"
#include "solver/search.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

void require_valid(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

// Interleaved 1F1B, 4 ranks x 2 chunks, 32 micro-batches, unit spans: its
// placement and its own peak memory per device.
std::pair<Placement, std::vector<Memory>> interleaved() {
  classic::SchemeRequest request;
  request.scheme = "interleaved-1f1b";
  request.ranks = 4;
  request.nmicros = 32;
  request.split = classic::always_split(request.scheme);
  const Schedule hand = classic::generate_scheme(request);
  require_valid(hand);
  return {hand.placement, testing::verify_schedule(hand).peak_memory};
}

}  // namespace

TEST_CASE("repetend variants: another window of the period is shorter at N and valid", "[makespan][variants]") {
  const auto [placement, peak] = interleaved();
  SearchOptions options;
  options.memory_limit = peak;
  options.boundary_seconds = 10;  // the shortening finishes long before: results do not depend on load
  const SearchResult found = search_repetend(placement, options);
  REQUIRE(found.schedule);
  const Time first = makespan(unroll(*found.schedule, 32));

  VariantRequest request{&placement, &found, options, 32, 8, 30};
  std::optional<VariantOutcome> variant = best_repetend_variant(request);
  REQUIRE(variant);
  CHECK(variant->built >= 2);
  CHECK(makespan(variant->at_total) < first);
  REQUIRE(variant->schedule.repetend);
  CHECK(variant->schedule.repetend->period == found.period);
  CHECK(variant->at_total.nmicros == 32);
  require_valid(variant->at_total);
  for (int nmicros : {smallest_unroll(variant->schedule), 33, 64}) {
    INFO(nmicros << " micro-batches");
    require_valid(unroll(variant->schedule, nmicros));
  }

  // None asked for: none built.
  request.variants = 0;
  CHECK_FALSE(best_repetend_variant(request));
}

TEST_CASE("repetend variants: the tuning knob adds the candidate to the search", "[makespan][variants]") {
  SearchRequest request;
  std::tie(request.placement, request.memory_limit) = interleaved();
  request.total_micros = 32;
  request.tuning.repetend_variants = 8;
  request.tuning.variant_seconds = 30;
  request.tuning.boundary_seconds = 10;
  request.tuning.plan_seconds = 0;  // the budgets as given
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.makespan);
  const std::vector<Candidate>& candidates = report.makespan->candidates;
  REQUIRE(!candidates.empty());
  REQUIRE(candidates.front().name == "repetend");
  REQUIRE(candidates.front().makespan);
  bool listed = false;
  for (const Candidate& candidate : candidates) {
    if (candidate.name.rfind("repetend #", 0) != 0) continue;
    listed = true;
    REQUIRE(candidate.makespan);
    CHECK(*candidate.makespan < *candidates.front().makespan);
    CHECK(candidate.shape == Shape::Repetend);
  }
  CHECK(listed);
  CHECK(report.makespan->makespan <= *candidates.front().makespan);
}
