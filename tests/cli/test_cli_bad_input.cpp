// Bad input across every command, as a user would type it: malformed or
// missing files, unknown format names, unwritable -o paths, zero, negative,
// huge and non-finite numbers, unknown options, cases and conflicting
// options. Each row must end in exit 2 with a message naming what is wrong,
// never a crash, an internal error (exit 4), a hang or a false "infeasible".
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support.hpp"

using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

struct Row {
  std::string args;     // after `tessel`; {dir} is the fixture directory
  std::string message;  // must appear in stderr
};

// Files a user might hand over by mistake.
struct Fixtures {
  TempDir dir;
  Fixtures() {
    write_text(dir.file("broken.json"), "{\"format\": \"tessel.schedule/1\", \"placement\": ");
    write_text(dir.file("empty.json"), "");
    write_text(dir.file("future.json"), "{\"format\": \"tessel.schedule/9\"}");
    write_text(dir.file("graph_as_schedule.json"), "{\"format\": \"tessel.graph/1\", \"nodes\": [], \"edges\": []}");
    write_text(dir.file("bad.csv"), "0F0,0X1\n");
    write_text(dir.file("order.json"), "[[1, 2], \"x\"]");
  }
};

std::string expand(std::string text, const std::string& dir) {
  for (size_t at = text.find("{dir}"); at != std::string::npos; at = text.find("{dir}"))
    text.replace(at, 5, dir);
  return text;
}

void check_rows(const std::vector<Row>& rows) {
  Fixtures fixtures;
  for (const Row& row : rows) {
    auto result = run_tessel(expand(row.args, fixtures.dir.path.string()));
    INFO("tessel " << row.args << "\nstderr: " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(row.message) != std::string::npos);
    CHECK(result.err.find("internal error (a bug") == std::string::npos);  // what guarded() prints for exit 4
  }
}

const std::string kGraph = std::string(TESSEL_SOURCE_DIR) + "/cases/graphs/gpt2-small.json";

}  // namespace

TEST_CASE("bad input: files that are missing, malformed or of another format", "[cli][bad-input]") {
  check_rows({
      {"verify {dir}/broken.json", "not valid JSON"},
      {"verify {dir}/empty.json", "not valid JSON"},
      {"verify {dir}/future.json", "tessel.schedule/9"},
      {"verify {dir}/graph_as_schedule.json", "format"},
      {"verify {dir}/missing.json", "cannot open"},
      {"show {dir}/broken.json", "not valid JSON"},
      {"unroll {dir}/missing.json --nmicros 4", "cannot open"},
      {"search --placement {dir}/broken.json --memory 4", "not valid JSON"},
      {"search --placement {dir}/future.json --memory 4", "format"},
      {"export --to svg {dir}/broken.json", "not valid JSON"},
      {"import --from pytorch-csv {dir}/missing.csv", "cannot open"},
      {"import --from pytorch-csv {dir}/bad.csv", "unknown action '0X1'"},
      {"import --from megatron-order {dir}/order.json", "order.json"},
      {"import --from tessel-json {dir}/broken.json --case vshape --ndevs 4", "not valid JSON"},
      {"partition {dir}/missing.json --stages 2", "cannot open"},
      {"partition {dir}/future.json --stages 2", "format"},
  });
}

TEST_CASE("bad input: unknown names, options and commands", "[cli][bad-input]") {
  check_rows({
      {"nosuchcommand", "unknown command 'nosuchcommand'"},
      {"search --case nosuch --ndevs 4 --memory 4", "unknown case 'nosuch'"},
      {"placement --case nosuch --ndevs 4", "unknown case 'nosuch'"},
      {"search --case vshape --ndevs 4 --memory 4 --backend minisat", "'--backend'"},
      {"search --case vshape --ndevs 4 --memory 4 --strategy greedy", "'--strategy'"},
      {"search --case vshape --ndevs 4 --memory 4 --bogus", "unrecognised option '--bogus'"},
      {"search --case vshape --ndevs 4 --memroy 4", "did you mean --memory?"},
      {"verify --jsno x.json", "did you mean --json?"},
      {"serach --case vshape", "did you mean 'search'?"},
      {"verify " + std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/sched_vshape.json --memory -3", "'--memory'"},
      {"search --case vshape --ndevs 4 --memory -1", "'--memory'"},
      {"generate fifo --stages 4 --nmicros 4", "unknown scheme 'fifo'"},
      {"generate 1f1b --stages 4 --nmicros 4 --span X=1", "'--span'"},
      {"import --from onnx {dir}/bad.csv", "unknown format 'onnx'"},
      {"export --to png {dir}/broken.json", "unknown format 'png'"},
      {"partition " + kGraph + " --stages 2 --objective fastest", "'--objective'"},
      {"bench --cases nosuch", "unknown case 'nosuch'"},
  });
}

TEST_CASE("a wrong option is one line, not the whole help", "[cli][bad-input]") {
  auto result = run_tessel("search --case vshape --ndevs 4 --memroy 4");
  CHECK(result.exit_code == 2);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.err.find("tessel search --help") != std::string::npos);
}

TEST_CASE("tessel --version and tessel version print the version", "[cli]") {
  for (const std::string args : {"--version", "version"}) {
    auto result = run_tessel(args);
    CHECK(result.exit_code == 0);
    CHECK(result.out.rfind("tessel 0.", 0) == 0);
  }
}

TEST_CASE("bad input: zero, negative, huge and non-finite numbers", "[cli][bad-input]") {
  check_rows({
      {"search --case vshape --ndevs 0 --memory 4", "'--ndevs'"},
      {"search --case vshape --ndevs -3 --memory 4", "'--ndevs'"},
      {"search --case vshape --ndevs 99999999999 --memory 4", "'--ndevs'"},
      {"search --case kshape --ndevs 3 --memory 4", "even D"},
      {"search --case vshape --ndevs 4 --memory abc", "'--memory'"},
      {"search --case vshape --ndevs 4 --memory 4,4", "'--memory'"},
      {"search --case vshape --ndevs 4 --memory 4 --nmicros 0", "'--nmicros'"},
      {"search --case vshape --ndevs 4 --memory 4 --nmicros -2", "'--nmicros'"},
      {"search --case vshape --ndevs 4 --memory 4 --total-micros 0", "'--total-micros'"},
      {"search --case vshape --ndevs 4 --memory 4 --total-micros 99999999999", "'--total-micros'"},
      {"search --case vshape --ndevs 4 --memory 4 --time-limit -1", "'--time-limit'"},
      {"search --case vshape --ndevs 4 --memory 4 --time-limit nan", "'--time-limit'"},
      {"search --case vshape --ndevs 4 --memory 4 --time-limit inf", "'--time-limit'"},
      {"generate 1f1b --stages 0 --nmicros 4", "'--stages'"},
      {"generate 1f1b --stages 4 --nmicros -1", "'--nmicros'"},
      {"generate 1f1b --stages 4 --nmicros 999999999", "'--nmicros'"},
      {"generate 1f1b --stages 4 --nmicros 4 --span F=0,B=2", "'--span'"},
      {"generate interleaved-1f1b --stages 4 --nmicros 4 --chunks 0", "'--chunks'"},
      {"partition " + kGraph + " --stages 0", "'--stages'"},
      {"partition " + kGraph + " --stages 99999999999", "'--stages'"},
      {"partition " + kGraph + " --stages 2 --time-limit -1", "'--time-limit'"},
      {"partition " + kGraph + " --stages 2 --time-limit nan", "'--time-limit'"},
      {"partition " + kGraph + " --stages 2 --tolerance -1", "'--tolerance'"},
      {"bench --cases vshape --time-limit nan", "'--time-limit'"},
  });
}

TEST_CASE("bad input: conflicting options and unwritable outputs", "[cli][bad-input]") {
  check_rows({
      {"search --case vshape --ndevs 4 --placement {dir}/broken.json --memory 4", "exactly one of"},
      {"search --case vshape --ndevs 4 --memory 4 --strategy full", "'--nmicros'"},
      {"search --case vshape --ndevs 4 --memory 4 -o /nonexistent/x.json", "/nonexistent/x.json"},
      {"search --case vshape --ndevs 4 --memory 4 --tune window_seconds=-1", "window_seconds takes a number in [0, 3600]"},
      {"search --case vshape --ndevs 4 --memory 4 --tune periods_per_solver=0", "periods_per_solver takes an integer"},
      {"search --case vshape --ndevs 4 --memory 4 --tune periods_per_solver=65", "periods_per_solver takes an integer"},
      {"search --case vshape --ndevs 4 --memory 4 --tune period_method=3", "period_method takes an integer in [0, 2]"},
      {"search --case vshape --ndevs 4 --memory 4 --tune repetend_variants=65", "repetend_variants takes an integer"},
      {"search --case vshape --ndevs 4 --memory 4 --tune order_questions=3", "order_questions takes an integer in [0, 2]"},
      {"search --case vshape --ndevs 4 --memory 4 --tune order_question=1", "did you mean 'order_questions'?"},
      {"search --case vshape --ndevs 4 --memory 4 --tune boundary_secs=1", "did you mean 'boundary_seconds'?"},
      {"search --case vshape --ndevs 4 --memory 4 --tune boundary_seconds", "not name=value"},
      {"search --case vshape --ndevs 4 --memory 4 --time-limit 0", "'--time-limit'"},
      {"search --case vshape --ndevs 4 --memory -1", "negative"},
      {"search --case vshape --ndevs 4 --memory 4 --threads -2", "'--threads'"},
      {"search --case vshape --ndevs 4 --memory 4 --micros-per-window -1", "'--micros-per-window'"},
      {"placement --case vshape --ndevs 4 -o /nonexistent/x.json", "/nonexistent/x.json"},
      {"generate 1f1b --stages 4 --nmicros 4 -o /nonexistent/x.json", "/nonexistent/x.json"},
      {"partition " + kGraph + " --stages 2 -o /nonexistent/x.json", "/nonexistent/x.json"},
      {"partition " + kGraph + " --stages 2 --placement-out /nonexistent/x.json", "/nonexistent/x.json"},
  });
}

// The output path is checked before the search starts: a user must not wait
// for a long search only to lose its result at the end.
TEST_CASE("bad input: an unwritable -o is refused before searching", "[cli][bad-input]") {
  auto run = run_tessel("search --case nnshape --ndevs 8 --memory 8 -o /nonexistent/dir/x.json");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("does not exist") != std::string::npos);
  CHECK(run.err.find("repetend:") == std::string::npos);  // no period was asked
  auto directory = run_tessel("search --case vshape --ndevs 4 --memory 4 -o /tmp");
  CHECK(directory.exit_code == 2);
  CHECK(directory.err.find("is a directory") != std::string::npos);
}

// A misspelt key never changes what a file means: every reader (model/ and
// the verifier's own) refuses it and names the key it most resembles.
TEST_CASE("bad input: a misspelt key in any format names the nearest key", "[cli][bad-input]") {
  TempDir dir;
  const std::string repro = std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro";
  write_text(dir.file("graph.json"),
             R"({"format": "tessel.graph/1", "name": "g", "nodes": [{"id": "a", "compute": 1, "param_bytes": 0,
                 "output_bytes": 1}, {"id": "b", "compute": 1, "param_bytes": 0, "output_bytes": 1}],
                 "edge": [["a", "b"]]})");
  write_text(dir.file("node.json"),
             R"({"format": "tessel.graph/1", "name": "g", "nodes": [{"id": "a", "compute": 1, "param_bytes": 0,
                 "output_byte": 1}], "edges": []})");
  write_text(dir.file("partition.json"),
             R"({"format": "tessel.partition/1", "stages": 2, "asignment": {"a": 0}})");
  write_text(dir.file("schedule.json"),
             R"({"format": "tessel.schedule/1", "nmicros": 1, "instances": [],
                 "placement": {"format": "tessel.placement/1", "ndevs": 1, "edges": [],
                 "blocks": [{"id": "f", "kind": "forward", "span": 1, "memroy": 1, "devices": [0]}]}})");
  write_text(dir.file("instance.json"),
             R"({"format": "tessel.schedule/1", "nmicros": 1, "placement": {"format": "tessel.placement/1",
                 "ndevs": 1, "edges": [], "blocks": [{"id": "f", "kind": "forward", "span": 1, "devices": [0]}]},
                 "instances": [{"block": "f", "micro": 0, "start": 0, "strat": 1}]})");
  const std::vector<Row> rows = {
      {"partition {dir}/graph.json --stages 2", "did you mean 'edges'?"},
      {"partition {dir}/node.json --stages 1", "did you mean 'output_bytes'?"},
      {"partition " + repro + "/graph_diamond.json --check {dir}/partition.json", "did you mean 'assignment'?"},
      {"verify {dir}/schedule.json", "did you mean 'memory'?"},
      {"verify {dir}/instance.json", "did you mean 'start'?"},
      {"show {dir}/schedule.json", "did you mean 'memory'?"},
  };
  for (const Row& row : rows) {
    auto result = run_tessel(expand(row.args, dir.path.string()));
    INFO("tessel " << row.args << "\nstderr: " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(row.message) != std::string::npos);
  }
}

TEST_CASE("bad input: a negative memory limit in bench is refused", "[cli][bad-input]") {
  check_rows({{"bench --cases vshape --ndevs 2 --memory -1 --time-limit 1", "'-1' is not an integer >= 0"}});
}

// A partition of another graph breaks on every node; the text lists the
// first problems and counts the rest instead of printing hundreds of lines.
TEST_CASE("partition --check caps its listing with a count", "[cli]") {
  TempDir dir;
  nlohmann::json assignment = nlohmann::json::object();
  for (int i = 0; i < 60; ++i) assignment["other" + std::to_string(i)] = 0;
  write_text(dir.file("other.json"),
             nlohmann::json{{"format", "tessel.partition/1"}, {"stages", 1}, {"assignment", assignment}}.dump());
  const std::string graph = std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/graph_diamond.json";
  auto result = run_tessel("partition " + graph + " --check " + dir.file("other.json"));
  INFO(result.out);
  CHECK(result.exit_code == 1);
  CHECK(result.out.find("invalid (65 problems)") != std::string::npos);
  CHECK(result.out.find("... and 45 more") != std::string::npos);
  CHECK(std::count(result.out.begin(), result.out.end(), '\n') <= 22);
  auto json = run_tessel("partition " + graph + " --check " + dir.file("other.json") + " --json");
  CHECK(nlohmann::json::parse(json.out)["problems"].size() == 65);
}

// Strategy full schedules exactly --nmicros micro-batches and finds no
// repetend: a different --total-micros or a --repetend-output was ignored
// (exit 0, no file), now each is refused naming its flag.
TEST_CASE("bad input: strategy full refuses what it would ignore", "[cli][bad-input]") {
  check_rows({
      {"search --case vshape --ndevs 3 --memory 2 --strategy full --nmicros 3 --total-micros 5", "'--total-micros'"},
      {"search --case vshape --ndevs 3 --memory 2 --strategy full --nmicros 3 --repetend-output {dir}/r.json",
       "'--repetend-output'"},
  });
}

// --help anywhere on the line asks for help, even after an option that
// takes a value ('verify --trace --help' read --help as the directory).
TEST_CASE("help: --help after an option that takes a value still prints the help", "[cli]") {
  const auto result = run_tessel("verify --trace --help");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("usage: tessel verify --trace DIR"));
}
