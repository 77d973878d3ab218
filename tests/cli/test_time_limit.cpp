// --time-limit is a promise about wall-clock time: a large problem that the
// solver cannot finish must come back with exit 3 soon after the limit, not
// after the solver has spent seconds tearing itself down (the Z3 context of
// the gpt2-large partition took 3-5 s to free, doubling a 5 s limit).
//
// What is measured is the CPU time of the tessel process, not the wall clock:
// a machine shared by parallel tests stretches wall time but not the work
// done, and the failures guarded against here (teardown, building past the
// deadline) are work.
#include <catch2/catch.hpp>

#include <string>

#include "tests/support.hpp"

using tessel::testing::children_cpu_seconds;
using tessel::testing::run_tessel;

namespace {

// CPU seconds of the finished tessel child.
double timed_run(const std::string& args, tessel::testing::CommandResult& result) {
  const double before = children_cpu_seconds();
  result = run_tessel(args);
  return children_cpu_seconds() - before;
}

std::string graph(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/cases/graphs/" + name + ".json";
}

}  // namespace

TEST_CASE("z3 partition of a large graph stops promptly at a 1 s limit", "[time-limit][z3]") {
  tessel::testing::CommandResult result;
  double seconds = timed_run("partition " + graph("gpt2-large") + " --stages 8 --backend z3 --time-limit 1", result);
  INFO(result.err);
  REQUIRE(result.exit_code == 3);
  CHECK(result.out.find("not proven optimal") != std::string::npos);
  // One second of solving plus reading the graph and the DP baseline; the
  // old teardown alone added about three.
  CHECK(seconds < 3.5);
}

TEST_CASE("z3 repetend search of a hard case stops promptly at a 1 s limit", "[time-limit][z3]") {
  tessel::testing::CommandResult result;
  // nnshape on 8 devices under memory 8 was hard before the compact modulo
  // encoding; Z3 now decides its period within the second. 16 devices are not.
  double seconds = timed_run("search --case nnshape --ndevs 16 --memory 16 --backend z3 --time-limit 1", result);
  INFO(result.err);
  REQUIRE(result.exit_code == 3);
  CHECK(seconds < 3.5);
}

TEST_CASE("full strategy stops at the time limit", "[time-limit][search]") {
  // Under the encoding budget but not proven in 1 s (xshape, memory 2, 16
  // micro-batches). mshape at memory 4 was this test's case until the full
  // strategy started from the list schedules: one of them meets its bound.
  for (const char* backend : {"z3", "cadical"}) {
    tessel::testing::CommandResult result;
    double seconds = timed_run(std::string("search --case xshape --ndevs 4 --memory 2 --strategy full --nmicros 16 "
                                           "--time-limit 1 --backend ") + backend,
                               result);
    INFO(backend << ": " << result.err);
    REQUIRE(result.exit_code == 3);
    CHECK(result.err.find("time limit") != std::string::npos);
    CHECK(seconds < 4.0);
  }
}

TEST_CASE("full strategy refuses an encoding too large to build, promptly", "[time-limit][search]") {
  // 300 micro-batches: millions of memory terms (before the cap, Z3 took
  // 4 GB and CaDiCaL ran out of memory); exit 2 naming what to use instead.
  // nnshape under memory 4 has no schedule at its bound to start from.
  for (const char* backend : {"z3", "cadical"}) {
    tessel::testing::CommandResult result;
    double seconds = timed_run(std::string("search --case nnshape --ndevs 4 --memory 4 --strategy full --nmicros 300 "
                                           "--time-limit 1 --backend ") + backend,
                               result);
    INFO(backend << ": " << result.err);
    REQUIRE(result.exit_code == 2);
    CHECK(result.err.find("--nmicros") != std::string::npos);
    CHECK(result.err.find("--strategy repetend") != std::string::npos);
    CHECK(seconds < 4.0);
  }
  // vshape's start schedule (its repetend unrolled) meets the makespan
  // bound: proven optimal with no encoding to build.
  tessel::testing::CommandResult result;
  timed_run("search --case vshape --ndevs 4 --memory 4 --strategy full --nmicros 300 --time-limit 1", result);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("proven optimal") != std::string::npos);
}

// Issue 47 item 4: the answer of a large input (the 1024-device vshape: a
// repetend schedule of 2 million instances) is verified and written within
// about a second of the limit, its verification reserved by the budget
// (solver/solve/budget.hpp) and its teardown off the critical path. Measured
// 4.2-4.3 s of CPU at a 3 s limit (reading, the period search's share,
// verifying and writing 2 million instances); 15 s before the reserve.
TEST_CASE("a 1024-device search answers within the limit plus about a second", "[time-limit][search][budget]") {
  for (const std::string strategy : {"repetend", "fast"}) {
    INFO(strategy);
    tessel::testing::CommandResult result;
    const double seconds =
        timed_run("search --case vshape --ndevs 1024 --memory 1024 --time-limit 3 --json --quiet --strategy " +
                      strategy,
                  result);
    INFO(result.err);
    REQUIRE((result.exit_code == 0 || result.exit_code == 3));
    CHECK(seconds < 5.0);
    // The budget's log: the strategy was granted less than the limit, the
    // verification of an answer of this size reserved.
    CHECK(result.out.find("\"limited_by\": \"tenth_of_limit\"") != std::string::npos);
  }
}
