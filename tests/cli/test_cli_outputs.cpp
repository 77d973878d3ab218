// Reproducers of the 2026-11-28 fault campaign (issue 47, tests/data/repro/r2/):
// outputs through links and device nodes (r2-07), write errors (r2-08),
// plan -o on a file (r2-18), decimals rounded through a double (r2-09), a
// generated schedule over its own limit (r2-22), 100 KB error messages
// (r2-23), byte units on unit-less placements and CSV cell places.
// Device nodes are made in a scratch folder (never the real /dev/full).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/support.hpp"

using tessel::testing::read_text;
using tessel::testing::TempDir;
namespace fs = std::filesystem;

namespace {

struct Run {
  int code = -1;
  std::string err;
};

// Runs `tessel ARGS` in bash inside `dir` ({T} is the binary); stdout goes
// where `redirect` says (a file by default).
Run run_in(const TempDir& dir, const std::string& args, const std::string& redirect = "> stdout.txt") {
  std::string command = "cd '" + dir.path.string() + "' && " + std::string(TESSEL_BINARY) + " " + args + " " +
                        redirect + " 2> stderr.txt < /dev/null";
  const std::string shell = "bash -c \"" + command + "\"";
  const int status = std::system(shell.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir.file("stderr.txt"))};
}

std::string data(const std::string& name) { return std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/r2/" + name; }

// Inputs of the other commands, made once per scratch folder.
void make_inputs(const TempDir& dir) {
  REQUIRE(run_in(dir, "generate 1f1b --stages 4 --nmicros 8 -o sched.json").code == 0);
  REQUIRE(run_in(dir, "export --to pytorch-csv sched.json -o table.csv").code == 0);
}

// Every command and option that writes a file: `{o}` is the path under test.
const std::vector<std::string>& writers() {
  static const std::vector<std::string> list = {
      "search --case vshape --ndevs 4 --memory 4 --time-limit 5 --quiet -o {o}",
      "search --case vshape --ndevs 4 --memory 4 --time-limit 5 --quiet --repetend-output {o}",
      "generate 1f1b --stages 4 --nmicros 8 -o {o}",
      "generate 1f1b --stages 4 --nmicros 8 -o g.json --placement-out {o}",
      "placement --case mshape --ndevs 4 -o {o}",
      "export --to svg sched.json -o {o}",
      "export --to chrome-trace sched.json -o {o}",
      "export --to pytorch-csv sched.json -o {o}",
      "import --from pytorch-csv table.csv -o {o}",
      "unroll sched.json --nmicros 16 -o {o}",
      "partition " + data("r2-18.graph.json") + " --stages 2 -o {o}",
      "partition " + data("r2-18.graph.json") + " --devices 2 -o p.json --placement-out {o}",
  };
  return list;
}

std::string with_output(std::string args, const std::string& path) { return args.replace(args.find("{o}"), 3, path); }

bool root() { return ::geteuid() == 0; }

}  // namespace

TEST_CASE("r2-07: every output writes through a symbolic link, which stays a link", "[cli][repro][r2][output]") {
  TempDir dir;
  make_inputs(dir);
  for (const std::string& writer : writers()) {
    fs::remove(dir.path / "target.out");
    fs::remove(dir.path / "link.out");
    fs::create_symlink("target.out", dir.path / "link.out");  // dangling: the target is made
    Run run = run_in(dir, with_output(writer, "link.out"));
    INFO(writer << "\n" << run.err);
    CHECK(run.code == 0);
    CHECK(fs::is_symlink(dir.path / "link.out"));
    CHECK(fs::file_size(dir.path / "target.out") > 0);
  }
  // The search's schedule arrived whole in the target.
  REQUIRE(run_in(dir, "search --case vshape --ndevs 4 --memory 4 --time-limit 5 --quiet -o link.out").code == 0);
  CHECK(run_in(dir, "verify target.out").code == 0);
}

TEST_CASE("r2-07: a device node is written into, never replaced; a directory is refused", "[cli][repro][r2][output]") {
  TempDir dir;
  make_inputs(dir);
  fs::create_directory(dir.path / "folder");
  for (const std::string& writer : writers()) {
    Run run = run_in(dir, with_output(writer, "folder"));
    INFO(writer << "\n" << run.err);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("is a directory"));
  }
  // A named pipe gets the schedule once, at the end, not every improvement.
  REQUIRE(::mkfifo(dir.file("pipe").c_str(), 0666) == 0);
  const std::string fifo = "cd '" + dir.path.string() + "' && { timeout 60 cat pipe > got.json & " +
                           std::string(TESSEL_BINARY) + " search --case vshape --ndevs 4 --memory 4 --quiet -o pipe; " +
                           "code=\\$?; wait; exit \\$code; }";
  const int status = std::system(("bash -c \"" + fifo + "\"").c_str());
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(fs::is_fifo(dir.path / "pipe"));
  CHECK(run_in(dir, "verify got.json").code == 0);
  if (!root()) {
    WARN("not root: no device node to make");
    return;
  }
  REQUIRE(::mknod(dir.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
  for (const std::string& writer : writers()) {
    Run run = run_in(dir, with_output(writer, "null"));
    INFO(writer << "\n" << run.err);
    CHECK(run.code == 0);
    CHECK(fs::is_character_file(dir.path / "null"));
  }
}

TEST_CASE("r2-08: a write error on any output is exit 2 naming the file and the reason", "[cli][repro][r2][output]") {
  if (!root()) {
    WARN("not root: no full device to make");
    return;
  }
  TempDir dir;
  make_inputs(dir);
  REQUIRE(::mknod(dir.file("full").c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
  fs::create_symlink("full", dir.path / "to_full");
  for (const std::string& writer : writers()) {
    for (const std::string path : {"full", "to_full"}) {
      Run run = run_in(dir, with_output(writer, path));
      INFO(writer << " with " << path << "\n" << run.err);
      CHECK(run.code == 2);
      CHECK_THAT(run.err, Catch::Contains("cannot write " + std::string(path) + ": No space left on device"));
    }
  }
  CHECK(fs::is_character_file(dir.path / "full"));
  CHECK(fs::is_symlink(dir.path / "to_full"));
  // Standard output on a full device.
  for (const std::string printer : {"verify sched.json", "show sched.json", "generate 1f1b --stages 4 --nmicros 8",
                                     "export --to svg sched.json", "placement --case mshape --ndevs 4", "cases",
                                     "search --case mshape --ndevs 4 --memory 6 --quiet --json",
                                     "unroll sched.json --nmicros 16", "verify --help"}) {
    Run run = run_in(dir, printer, "> full");
    INFO(printer << "\n" << run.err);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("cannot write standard output: No space left on device"));
  }
}

TEST_CASE("r2-08: a failed write leaves the old file whole", "[cli][repro][r2][output]") {
  TempDir dir;
  REQUIRE(run_in(dir, "generate 1f1b --stages 2 --nmicros 2 -o good.json").code == 0);
  const std::string good = read_text(dir.file("good.json"));
  // bash's ulimit -f counts KiB; SIGXFSZ ignored, so the write returns EFBIG
  // part way through the larger schedule, as a full disk would.
  const std::string command = "cd '" + dir.path.string() + "' && (trap '' XFSZ; ulimit -f 8; exec " +
                              std::string(TESSEL_BINARY) + " generate 1f1b --stages 8 --nmicros 64 -o good.json) " +
                              "2> stderr.txt";
  const int status = std::system(("bash -c \"" + command + "\"").c_str());
  CHECK(WEXITSTATUS(status) == 2);
  CHECK_THAT(read_text(dir.file("stderr.txt")), Catch::Contains("cannot write good.json: File too large"));
  CHECK(read_text(dir.file("good.json")) == good);
  for (const auto& entry : fs::directory_iterator(dir.path))
    CHECK(entry.path().filename().string().find(".tessel-") == std::string::npos);
}

TEST_CASE("r2-18: plan -o naming a file, or a folder under one, is exit 2", "[cli][repro][r2][output]") {
  TempDir dir;
  tessel::testing::write_text(dir.file("afile"), "x");
  for (const std::string target : {"afile", "afile/out"}) {
    Run run = run_in(dir, "plan " + data("r2-18.graph.json") + " --devices 2 --memory 1GiB --time-limit 5 --quiet -o " +
                              target);
    INFO(run.err);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("afile is not a directory"));
    CHECK(run.err.find("internal error") == std::string::npos);
  }
  CHECK(read_text(dir.file("afile")) == "x");
  Run made = run_in(dir, "plan " + data("r2-18.graph.json") + " --devices 2 --memory 1GiB --time-limit 5 --quiet -o a/b");
  INFO(made.err);
  CHECK(made.code == 0);
  CHECK(run_in(dir, "verify a/b/schedule.json").code == 0);
}

TEST_CASE("r2-09: a number with more digits than tessel keeps is refused, not rounded", "[cli][repro][r2]") {
  TempDir dir;
  struct Case {
    std::string args;
    int code;
    std::string message;
  };
  const std::vector<Case> cases = {
      // 0.99999999999999999 was read as 1, so the early start passed.
      {"verify " + data("r2-09.schedule.json"), 2, "instances[2].start': number 0.99999999999999999"},
      // Nine decimals are exact: the start 1e-9 too early is a violation.
      {"verify " + data("r2-09-nine.schedule.json"), 1, ""},
      {"verify " + data("r2-09-nine.schedule.json") + " --memory 3.9999999999999999", 2, "is not an amount"},
      {"verify " + data("r2-09-limit.schedule.json"), 2, "memory_limit[0]': number 3.9999999999999999"},
      {"search --placement " + data("r2-09-tera.placement.json") + " --memory 1099511627775.999999999 --quiet -o t.json",
       2, "'1099511627775.999999999' is not an amount"},
      {"search --placement " + data("r2-09-tera.placement.json") + " --memory 1099511627776 --quiet -o t.json", 0, ""},
      {"search --placement " + data("r2-09-tera.placement.json") + " --memory 1099511627775.5 --quiet", 1, ""},
  };
  for (const Case& c : cases) {
    Run run = run_in(dir, c.args);
    INFO(c.args << "\n" << run.err);
    CHECK(run.code == c.code);
    if (!c.message.empty()) CHECK_THAT(run.err, Catch::Contains(c.message));
  }
  CHECK_FALSE(fs::exists(dir.path / "t.json.partial"));
}

TEST_CASE("r2-02, r2-22: generate refuses a memory limit below the scheme's peak", "[cli][repro][r2]") {
  TempDir dir;
  Run low = run_in(dir, "generate gpipe --stages 3 --nmicros 4 --memory-limit 1.5 -o g.json");
  INFO(low.err);
  CHECK(low.code == 1);
  // GPipe runs every forward first: the peak is the micro-batch count.
  CHECK_THAT(low.err, Catch::Contains("needs memory [4, 4, 4]") && Catch::Contains("nothing written"));
  CHECK_FALSE(fs::exists(dir.path / "g.json"));
  CHECK(run_in(dir, "generate gpipe --stages 3 --nmicros 4 --memory-limit 4,4,3.9 -o g.json").code == 1);
  REQUIRE(run_in(dir, "generate gpipe --stages 3 --nmicros 4 --memory-limit 4 -o g.json").code == 0);
  CHECK(run_in(dir, "verify g.json").code == 0);
}

TEST_CASE("r2-23: an error quotes a long token shortened", "[cli][repro][r2]") {
  TempDir dir;
  const std::string cell = std::string(100000, '(') + "0F0;0B0" + std::string(100000, ')') + "OVERLAP_F_B";
  tessel::testing::write_text(dir.file("long.csv"), cell + "\n");
  Run csv = run_in(dir, "import --from pytorch-csv long.csv -o o.json");
  INFO(csv.err.substr(0, 400));
  CHECK(csv.code == 2);
  CHECK(csv.err.size() < 1000);
  CHECK_THAT(csv.err, Catch::Contains("row 1, column 1 (rank 0, step 0)") && Catch::Contains("characters)"));
  // A long JSON string where a number belongs.
  tessel::testing::write_text(dir.file("long.json"), R"({"format": "tessel.placement/1", "ndevs": ")" +
                                                         std::string(200000, 'x') + "\"}");
  Run json = run_in(dir, "search --placement long.json --memory 4");
  CHECK(json.code == 2);
  CHECK(json.err.size() < 1000);
}

TEST_CASE("issue 47: a byte limit on a placement without bytes, and CSV cells named as written", "[cli][repro][r2]") {
  TempDir dir;
  Run bytes = run_in(dir, "search --case mshape --ndevs 4 --memory 6GB --quiet");
  CHECK(bytes.code == 2);
  CHECK_THAT(bytes.err, Catch::Contains("'6GB' is in bytes, but the placement has no byte unit"));
  CHECK(run_in(dir, "generate 1f1b --stages 4 --nmicros 8 --memory-limit 4GiB").code == 2);
  // A cell of an OVERLAP_F_B pair: the place (rows and columns from 1) and the cell as written.
  tessel::testing::write_text(dir.file("bad.csv"), "0F0,0F1\n,1F0,(1F0;1X3)OVERLAP_F_B\n");
  Run csv = run_in(dir, "import --from pytorch-csv bad.csv");
  CHECK(csv.code == 2);
  CHECK_THAT(csv.err, Catch::Contains("row 2, column 3 (rank 1, step 2) \"(1F0;1X3)OVERLAP_F_B\"") &&
                          Catch::Contains("unknown action '1X3'"));
  tessel::testing::write_text(dir.file("empty.csv"), "0F0,()OVERLAP_F_B\n");
  Run empty = run_in(dir, "import --from pytorch-csv empty.csv");
  CHECK(empty.code == 2);
  CHECK_THAT(empty.err, Catch::Contains("row 1, column 2 (rank 0, step 1)"));
}
