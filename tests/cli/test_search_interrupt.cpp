// Anytime search: Ctrl-C (SIGINT) or SIGTERM in the middle of a long search
// stops it promptly, writes the best valid schedule so far with -o, says
// "interrupted" and exits 3 - never "no schedule exists". The instance is
// one whose period proof takes far longer than the signal's delay
// (xshape on 16 devices under memory 8: about a minute to prove).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/support.hpp"

using namespace tessel;

namespace {

using Interrupted = testing::Signalled;

Interrupted interrupt_after(const std::vector<std::string>& args, int signal, std::chrono::milliseconds delay,
                            const std::string& err_file) {
  return testing::signal_after(args, signal, delay, err_file);
}

}  // namespace

TEST_CASE("search: SIGINT and SIGTERM leave the best valid schedule and exit 3", "[search][interrupt]") {
  for (int signal : {SIGINT, SIGTERM}) {
    testing::TempDir dir;
    Interrupted run = interrupt_after({"search", "--case", "xshape", "--ndevs", "16", "--memory", "8", "-o",
                                       dir.file("s.json")},
                                      signal, std::chrono::milliseconds(1500), dir.file("err"));
    INFO(run.err);
    CHECK(run.exit_code == 3);
    CHECK_THAT(run.err, Catch::Contains("interrupted"));
    CHECK_THAT(run.err, !Catch::Contains("no schedule"));
    // Promptly: the solver's terminator polls the flag (a generous margin
    // for a loaded machine; the point is "not the minute the proof takes").
    CHECK(run.seconds_after_signal < 15);
    REQUIRE(std::filesystem::exists(dir.file("s.json")));
    auto verified = testing::run_tessel("verify " + dir.file("s.json"));
    CHECK(verified.exit_code == 0);
  }
}

TEST_CASE("search --tune: the table is listed, and a knob is set by name", "[search][tuning]") {
  auto help = testing::run_tessel("search --tune help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("boundary_seconds") && Catch::Contains("window_seconds"));
  auto off = testing::run_tessel("search --case mshape --ndevs 4 --memory 6 --tune boundary_seconds=0 --json");
  REQUIRE(off.exit_code == 0);
  // Without the solver's shortening the squeezed ends stay longer than 780.
  CHECK(nlohmann::json::parse(off.out)["makespan_at_total"].get<int>() >= 780);
}
