// Issue 8 item 4 on the paper's 4-device table: the repetend search's
// schedule unrolled to 128 micro-batches is valid, never longer than the
// Python Tessel's for the same case and memory, never below the lower bound
// (a schedule below it would prove the bound wrong), and within 1% of it.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct PaperCase {
  const char* name;
  long long memory;
  bool infer;
  int python_makespan128;  // the Python Tessel's figure
};

// From the Python Tessel's results CSV (the public Python Tessel, commit
// 44f72c3, measured on this machine kind), suite a, column makespan128: every
// row with status "found" (mshape inference had no solution there).
const PaperCase kPaperCases[] = {
    {"vshape", 4, false, 533},  {"xshape", 4, false, 1038}, {"mshape", 6, false, 780},
    {"nnshape", 6, false, 1036}, {"kshape", 6, false, 775},  {"vshape", 4, true, 133},
    {"xshape", 4, true, 262},   {"nnshape", 4, true, 388},  {"kshape", 4, true, 257},
};

}  // namespace

TEST_CASE("makespan at 128 on the paper's 4-device cases: <= the Python Tessel and within 1% of the bound",
          "[makespan][search]") {
  for (const PaperCase& paper : kPaperCases) {
    INFO(paper.name << (paper.infer ? " infer" : "") << " memory " << paper.memory);
    Placement placement = make_case(paper.name, 4, paper.infer);
    SearchOptions options;
    options.backend = "cadical";
    options.memory_limit.assign(4, paper.memory);
    options.boundary_seconds = 5;
    options.deadline = Deadline::after_seconds(30);
    SearchResult result = search_repetend(placement, options);
    REQUIRE(result.status == SearchStatus::Found);
    REQUIRE(result.schedule);
    CHECK(testing::verify_schedule(*result.schedule).valid);
    Schedule at128 = unroll(*result.schedule, 128);
    verify::Report report = testing::verify_schedule(at128);
    REQUIRE(report.valid);
    const long long bound = makespan_lower_bound(placement, 128);
    CHECK(report.makespan <= paper.python_makespan128);
    CHECK(report.makespan >= bound);
    CHECK(report.makespan - bound <= bound / 100);
  }
}
