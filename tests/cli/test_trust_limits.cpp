// Issue 47 ("Trust"), the limits: a time limit is a limit, memory is bounded
// or its exhaustion is a clean exit, and a signal acts, on the second fault
// campaign's inputs (tests/data/repro/r2/, README there). Every run ends
// with exit 0-3 and a message, never a crash, exit 4 or an abort; a schedule
// written by -o passes the verifier.
//
// Time is measured as the CPU time of the tessel child where the promise is
// about work done (a machine shared by parallel tests stretches wall time,
// not work); wall bounds are hang guards.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/support.hpp"

using tessel::testing::CommandResult;
using tessel::testing::read_text;
using tessel::testing::children_cpu_seconds;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;

namespace {

std::string data(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/r2/" + name;
}

// `tessel ARGS` with its CPU seconds.
CommandResult timed(const std::string& args, double& cpu_seconds) {
  const double before = children_cpu_seconds();
  CommandResult result = run_tessel(args);
  cpu_seconds = children_cpu_seconds() - before;
  return result;
}

// `tessel ARGS` under an address-space cap of `kib` KiB (ulimit -v).
CommandResult capped(long kib, const std::string& args) {
  TempDir dir;
  const std::string command = "bash -c 'ulimit -v " + std::to_string(kib) + "; exec " + TESSEL_BINARY + " " + args +
                              "' >" + dir.file("out") + " 2>" + dir.file("err") + " </dev/null";
  const int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(dir.file("out"));
  result.err = read_text(dir.file("err"));
  return result;
}

bool verifies(const std::string& file) {
  const CommandResult verified = run_tessel("verify " + file + " --json");
  return verified.exit_code == 0 && verified.out.find("\"valid\": true") != std::string::npos;
}

using tessel::testing::Signalled;
using tessel::testing::signal_after;

void no_bug_reported(const std::string& err) {
  CHECK(err.find("internal error") == std::string::npos);
  CHECK(err.find("terminate called") == std::string::npos);
}

}  // namespace

TEST_CASE("search: a --resolution whose real times pass 2^31 ticks answers with the repetend", "[cli][repro][resolution]") {
  // Spans from 1e-9 to 1e6: the rounded search is small, the real times are
  // not. Once: a window period read as -727379967 (32-bit), "2000001000
  // decided impossible", or std::bad_alloc (exit 4).
  struct Case {
    const char* file;
    const char* memory;
    const char* resolution;
  };
  for (const Case& c : {Case{"resolution_period_overflow.placement.json", "2", "1"},
                        Case{"resolution_period_2e9.placement.json", "8GiB", "1"},
                        Case{"resolution_badalloc.placement.json", "1.25", "1"},
                        Case{"resolution_badalloc.placement.json", "1.25", "1000"}}) {
    TempDir dir;
    const CommandResult result = run_tessel(std::string("search --placement ") + data(c.file) + " --memory " +
                                            c.memory + " --resolution " + c.resolution + " --time-limit 5 --quiet -o " +
                                            dir.file("s.json"));
    INFO(c.file << " --resolution " << c.resolution << ": " << result.err.substr(0, 600));
    CHECK(result.exit_code == 0);
    no_bug_reported(result.err);
    CHECK(result.err.find("beyond the search's range") != std::string::npos);
    CHECK(verifies(dir.file("s.json")));
  }
}

TEST_CASE("a 1,048,576-step delay is refused or searched without allocating gigabytes", "[cli][repro][memory]") {
  // 4 blocks, memory 1.5,1,1: the repetend strategy's unit-step encoding at
  // the memory-rate bound (10 million steps) took 7.4 GB past the limit, and
  // so did strategy full, whose start is a quick repetend search, for 20 s
  // before refusing. Now the cyclic orders decide such periods. Under a
  // 2 GB cap both must end cleanly and quickly.
  double seconds = 0;
  const double before = children_cpu_seconds();
  const CommandResult full = capped(2000000, "search --placement " + data("full_long_delay.placement.json") +
                                                 " --memory 1.5,1,1 --strategy full --nmicros 3 --time-limit 5 --quiet");
  seconds = children_cpu_seconds() - before;
  INFO(full.err.substr(0, 600));
  CHECK(full.exit_code == 2);
  CHECK(full.err.find("too many for strategy full") != std::string::npos);
  CHECK(seconds < 3);

  TempDir dir;
  const CommandResult repetend =
      capped(2000000, "search --placement " + data("full_long_delay.placement.json") +
                          " --memory 1.5,1,1 --time-limit 3 --quiet -o " + dir.file("s.json"));
  INFO(repetend.err.substr(0, 600));
  CHECK((repetend.exit_code == 0 || repetend.exit_code == 3));
  no_bug_reported(repetend.err);
  CHECK(repetend.err.find("out of memory") == std::string::npos);
  CHECK(verifies(dir.file("s.json")));
}

TEST_CASE("strategy fast keeps its time limit and its memory", "[cli][repro][fast]") {
  // r2-04: the window shortening's memory bounds were checked against the
  // deadline once per device: 3.5 GB and 50 s at --time-limit 5.
  TempDir dir;
  double seconds = 0;
  const double before = children_cpu_seconds();
  const CommandResult result =
      capped(2000000, "search --placement " + data("fast_memory_growth.placement.json") +
                          " --memory 125 --strategy fast --time-limit 2 --threads 1 --quiet -o " + dir.file("s.json"));
  seconds = children_cpu_seconds() - before;
  INFO(result.err.substr(0, 600));
  CHECK((result.exit_code == 0 || result.exit_code == 3));
  no_bug_reported(result.err);
  CHECK(result.err.find("out of memory") == std::string::npos);
  CHECK(seconds < 4);
  CHECK(verifies(dir.file("s.json")));

  // r2-09: exit 0/3 near the limit, also at --resolution 1000. One thread,
  // so that the CPU bound holds on any core count (two threads may spend
  // 4 s of CPU within a 2 s limit).
  for (const char* extra : {"--memory 5", "--memory 1.25 --resolution 1000"}) {
    const CommandResult overrun = timed("search --placement " + data("fast_overrun.placement.json") + " " + extra +
                                            " --strategy fast --time-limit 2 --threads 1 --quiet -o " + dir.file("o.json"),
                                        seconds);
    INFO(extra << ": " << overrun.err.substr(0, 600));
    CHECK((overrun.exit_code == 0 || overrun.exit_code == 3));
    no_bug_reported(overrun.err);
    CHECK(seconds < 4);
    CHECK(verifies(dir.file("o.json")));
  }
}

TEST_CASE("the shift search's encoding stops at the deadline", "[cli][repro][time-limit]") {
  // r2-15: 7 blocks with 2^40-byte memory and delays; the encoding was built
  // on for 13-19 s of a 5 s limit. The campaign wrote the limits as
  // 3298534883327.999999999: 22 digits, more than an amount holds exactly
  // (exit 2 since the decimals are read from their text); the whole numbers a
  // double made of them, which the search took then, stand in.
  TempDir dir;
  double seconds = 0;
  const CommandResult result =
      timed("search --placement " + data("shift_encoding_deadline.placement.json") +
                " --memory 3298534883328,0,1099511627776 --time-limit 3 --quiet -o " +
                dir.file("s.json"),
            seconds);
  INFO(result.err.substr(0, 600));
  CHECK((result.exit_code == 0 || result.exit_code == 3));
  no_bug_reported(result.err);
  CHECK(seconds < 4.5);
  CHECK(verifies(dir.file("s.json")));
}

TEST_CASE("SIGINT during the z3 searches exits 3 with a valid file, never a crash", "[cli][repro][interrupt][z3]") {
  // Z3's own Ctrl-C handling, swapped in and out by checks on several
  // threads, left a stale handler installed: SIGINT in the shift search
  // ended in SIGSEGV (8 of 8 trials). The signal lands at different phases
  // as the load varies; every one must end in exit 3 (or 0, finished).
  for (int delay_ms : {800, 1600}) {
    TempDir dir;
    const Signalled run = signal_after({"search", "--placement", data("z3_shift_sigint.placement.json"), "--memory",
                                        "3", "--backend", "z3", "--quiet", "-o", dir.file("s.json")},
                                       SIGINT, std::chrono::milliseconds(delay_ms), dir.file("err"));
    INFO("SIGINT after " << delay_ms << " ms: exit " << run.exit_code << " after " << run.seconds_after_signal
                         << " s\n" << run.err.substr(0, 600));
    REQUIRE(run.exit_code != -1);
    CHECK((run.exit_code == 0 || run.exit_code == 3));
    no_bug_reported(run.err);
    CHECK(run.seconds_after_signal < 10);  // a hang guard; about 0.1 s unloaded
    CHECK(verifies(dir.file("s.json")));
  }
}

TEST_CASE("a huge --time-limit is no limit, and SIGTERM still acts at once", "[cli][repro][interrupt]") {
  // r2-01: finetune on 1024 devices under memory 4 with a limit of 2^63 s
  // grew past 17 GB; SIGTERM took 274 s (the answer at N was built, with
  // its bounds and verification, after the signal). The signal now answers
  // with the verified repetend schedule.
  TempDir dir;
  const Signalled run = signal_after({"search", "--case", "finetune", "--ndevs", "1024", "--memory", "4",
                                      "--time-limit", "9223372036854775807", "--quiet", "-o", dir.file("s.json")},
                                     SIGTERM, std::chrono::milliseconds(4000), dir.file("err"));
  INFO("exit " << run.exit_code << " after " << run.seconds_after_signal << " s\n" << run.err.substr(0, 600));
  REQUIRE(run.exit_code == 3);
  no_bug_reported(run.err);
  CHECK(run.err.find("interrupted") != std::string::npos);
  CHECK(run.seconds_after_signal < 8);  // 1.9 s measured under a load of 8 on 2 cores
  CHECK(verifies(dir.file("s.json")));
}

TEST_CASE("a search without a time limit stops before memory runs out, with its best schedule", "[cli][repro][memory]") {
  // r2-01 without a limit: finetune on 1024 devices under memory 4 built the
  // period question at the memory-rate bound (768) until a 4 GB cap
  // failed an allocation: exit 3 and nothing written, although the fallback
  // of period 769 was in hand after 4 s. The memory watch stops the search
  // at three quarters of the cap (tools/memory_watch.hpp): exit 3, the
  // fallback written and verified (17.9 s wall, 2.8 GB peak, load 9).
  TempDir dir;
  const CommandResult result =
      capped(4194304, "search --case finetune --ndevs 1024 --memory 4 --quiet -o " + dir.file("s.json"));
  INFO("exit " << result.exit_code << "\n" << result.err.substr(0, 800));
  REQUIRE(result.exit_code == 3);
  no_bug_reported(result.err);
  CHECK(result.err.find("three quarters of what this process may use") != std::string::npos);
  CHECK(result.err.find("out of memory") == std::string::npos);
  CHECK(verifies(dir.file("s.json")));
}

TEST_CASE("running out of memory is exit 3 with a message in every command", "[cli][repro][memory]") {
  // r2-06: under ulimit -v, verify, show, export, unroll and import ended
  // in SIGABRT (a std::bad_alloc thrown while unwinding the JSON document's
  // destructor); search reported exit 4 "internal error".
  TempDir dir;
  const std::string schedule = dir.file("big.json");
  REQUIRE(run_tessel("generate 1f1b --stages 5 --nmicros 10000 -o " + schedule).exit_code == 0);
  REQUIRE(run_tessel("export --to pytorch-csv " + schedule + " -o " + dir.file("big.csv")).exit_code == 0);
  for (const std::string& args :
       {"verify " + schedule, "show " + schedule, "export --to svg " + schedule + " -o " + dir.file("x.svg"),
        "unroll " + schedule + " --nmicros 20000 -o " + dir.file("u.json"),
        "import --from pytorch-csv " + dir.file("big.csv") + " -o " + dir.file("i.json")}) {
    const CommandResult result = capped(60000, args);
    INFO(args << ": exit " << result.exit_code << "\n" << result.err.substr(0, 600));
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("out of memory") != std::string::npos);
    no_bug_reported(result.err);
  }
  const CommandResult search = capped(500000, "search --case vshape --ndevs 1024 --memory 1024 --time-limit 10 --quiet");
  INFO(search.err.substr(0, 600));
  CHECK(search.exit_code == 3);
  // Either the allocation fails first, or, on a loaded machine, the memory
  // watch (tools/memory_watch.hpp) polls in time and stops the search at
  // three quarters of the cap: both are exit 3 with the reason said.
  CHECK((search.err.find("out of memory") != std::string::npos ||
         search.err.find("three quarters of what this process may use") != std::string::npos));
  no_bug_reported(search.err);
}

TEST_CASE("search: --threads outside 0 .. 256 is bad input", "[cli][repro][threads]") {
  // r2-05: 100000 threads ended in "terminate called without an active
  // exception" (a thread that failed to start, others running).
  for (const char* threads : {"100000", "257", "-1"}) {
    const CommandResult result =
        run_tessel(std::string("search --case vshape --ndevs 4 --memory 4 --time-limit 5 --quiet --threads ") + threads);
    INFO(threads << ": " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--threads") != std::string::npos);
  }
  const CommandResult result = run_tessel("search --case vshape --ndevs 4 --memory 4 --time-limit 5 --quiet --threads 256");
  INFO(result.err);
  CHECK(result.exit_code == 0);
}
