// The boundary solver's encoding (solver/strategies/boundary_solver.cpp) narrows every
// warmup and cooldown start to what the window's fixed starts leave and
// states memory only where something may allocate. Narrowing must never cut
// an answer: on random pipelines under tight memory both backends shorten
// the squeezed ends to the same proven lengths, and every result unrolls to
// valid schedules. And an encoding too large for its budget is given up
// after a tenth of its building, not built in full and then left unsolved.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/strategies/boundary_solver.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

void require_unrolls(const Schedule& schedule) {
  REQUIRE(fits_for_any_length(schedule));
  for (int nmicros = smallest_unroll(schedule); nmicros <= 2 * schedule.nmicros + 2; ++nmicros) {
    INFO(nmicros << " micro-batches");
    const verify::Report report = testing::verify_schedule(unroll(schedule, nmicros));
    INFO(verify::report_to_text(report));
    REQUIRE(report.valid);
  }
}

}  // namespace

TEST_CASE("boundary: narrowed domains cut no answer; both backends prove the same ends", "[boundary]") {
  std::mt19937 random(11);
  int compared = 0, shortened = 0;
  for (int round = 0; round < 8; ++round) {
    const int ndevs = 2 + round % 2;
    const Placement placement = testing::random_pipeline(random, ndevs, ndevs + 1, false);
    Memory per_micro = 0;
    for (const Block& block : placement.blocks) per_micro = std::max(per_micro, block.memory);
    SearchOptions options;
    options.backend = "cadical";
    options.memory_limit.assign(ndevs, 2 * per_micro + 1);
    options.boundary_seconds = 0;  // the squeezed schedule, shortened below
    options.largest_auto_window = 1;
    const SearchResult found = search_repetend(placement, options);
    if (found.status != SearchStatus::Found || !found.schedule || !found.schedule->repetend) continue;
    INFO("round " << round);
    std::vector<Time> lengths;
    for (const std::string backend : {"cadical", "z3"}) {
      INFO(backend);
      const BoundaryOutcome outcome =
          shorten_boundary(*found.schedule, backend, Deadline::after_seconds(30), nullptr);
      const Schedule& answer = outcome.shorter ? *outcome.shorter : *found.schedule;
      require_unrolls(answer);
      if (outcome.shorter) CHECK(makespan(*outcome.shorter) < makespan(*found.schedule));
      if (!outcome.complete) break;
      lengths.push_back(makespan(answer));
      if (outcome.shorter) ++shortened;
    }
    if (lengths.size() < 2) continue;
    ++compared;
    CHECK(lengths[0] == lengths[1]);
  }
  CHECK(compared >= 4);
  CHECK(shortened > 0);  // the cases shorten something, or this proves little
}

TEST_CASE("boundary: an encoding too large for its budget is given up early", "[boundary]") {
  // nnshape on 16 devices, memory 20: the repetend of 20 micro-batches has
  // about 700 warmup and cooldown instances; their encoding takes far more
  // than a quarter of 0.6 s to build (about 0.46 s on a quiet machine). The
  // budget is not smaller so that a loaded machine (ctest -j2 beside tests
  // on two threads) still reaches the tenth of the building, where the
  // estimate is made, before the budget runs out.
  Placement placement = make_case("nnshape", 16, false);
  placement.static_memory.clear();
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit.assign(16, 20);
  options.boundary_seconds = 0;
  options.largest_auto_window = 1;
  const SearchResult found = search_repetend(placement, options);
  REQUIRE(found.status == SearchStatus::Found);
  REQUIRE(found.schedule);
  std::vector<std::string> lines;
  const BoundaryOutcome outcome = shorten_boundary(*found.schedule, "cadical", Deadline::after_seconds(0.6),
                                                   [&](const std::string& line) { lines.push_back(line); });
  CHECK_FALSE(outcome.shorter);
  REQUIRE(!lines.empty());
  INFO(lines.back());
  CHECK(lines.back().find("boundary: skipped, building its encoding would take") == 0);
}
