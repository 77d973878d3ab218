// `tessel partition` on the operator counts of traced models (10^4-10^5
// nodes) and under signals (issue 47, campaign r2-03/05, r2-14, r2-19,
// r2-21; inputs in tests/data/repro/r2/ or made here): it once overflowed
// the stack on a 100,000-node chain, took 24 GB for pippy on 10,000 nodes,
// died on SIGTERM with nothing written, and wrote a placement its own
// reader refused. The wall bounds are hang guards for a loaded machine.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "model/graph_json.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// A chain (compute 1..7 in turn, as the campaign's generator), or with
// `diamonds` a chain of x -> a, x -> b, a -> x', b -> x' (not one
// topological order).
std::string write_graph(const testing::TempDir& dir, int nodes, bool diamonds) {
  Graph graph;
  graph.name = diamonds ? "diamonds" : "chain";
  for (int i = 0; i < nodes; ++i) graph.nodes.push_back({"n" + std::to_string(i), "op", 1 + i % 7, 10, 4});
  for (int i = 0; i + 1 < nodes; ++i) {
    if (!diamonds) graph.edges.push_back({i, i + 1});
    else if (i % 3 == 0) graph.edges.push_back({i, i + 1}), graph.edges.push_back({i, i + 2});
    else if (i % 3 == 1 && i + 2 < nodes) graph.edges.push_back({i, i + 2}), graph.edges.push_back({i + 1, i + 2});
  }
  const std::string path = dir.file(graph.name + std::to_string(nodes) + ".json");
  testing::write_text(path, graph_to_json(graph).dump());
  return path;
}

double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

// The exit code (-1 for a signal) and stderr of `tessel ARGS...` sent
// `signal` after `delay`.
std::pair<int, std::string> interrupted(const std::vector<std::string>& args, int signal, std::chrono::milliseconds delay,
                                        const std::string& err_file) {
  const testing::Signalled run = testing::signal_after(args, signal, delay, err_file);
  return {run.exit_code, run.err};
}

}  // namespace

TEST_CASE("partition of a 100,000-node chain answers in seconds, proven, and written (r2-03)", "[partition][cli]") {
  testing::TempDir dir;
  const std::string graph = write_graph(dir, 100000, false);
  const auto begin = std::chrono::steady_clock::now();
  auto run = testing::run_tessel("partition " + graph + " --stages 4 --time-limit 5 -o " + dir.file("p.json"));
  INFO(run.err << run.out);
  CHECK(run.exit_code == 0);  // SIGSEGV after 57 s before
  CHECK(seconds_since(begin) < 30);
  CHECK_THAT(run.out, Catch::Contains("status: optimal") && Catch::Contains("bottleneck 100000"));
  CHECK(testing::run_tessel("partition " + graph + " --check " + dir.file("p.json")).exit_code == 0);
}

TEST_CASE("partition of 100,000 branching nodes gives the contiguous cut, saying it is unproven", "[partition][cli]") {
  testing::TempDir dir;
  const std::string graph = write_graph(dir, 99999, true);
  const auto begin = std::chrono::steady_clock::now();
  auto run = testing::run_tessel("partition " + graph + " --stages 4 --time-limit 5 -o " + dir.file("p.json"));
  INFO(run.err << run.out);
  CHECK(run.exit_code == 0);
  CHECK(seconds_since(begin) < 30);
  CHECK_THAT(run.out, Catch::Contains("status: feasible") && Catch::Contains("beyond the exact search"));
  CHECK(testing::run_tessel("partition " + graph + " --check " + dir.file("p.json")).exit_code == 0);
}

TEST_CASE("pippy on a 10,000-node chain stays within 4 GB (r2-14)", "[partition][cli]") {
  testing::TempDir dir;
  const std::string graph = write_graph(dir, 10000, false);
  const std::string command = "ulimit -v 4000000; " + std::string(TESSEL_BINARY) + " partition " + graph +
                              " --stages 4 --objective pippy --time-limit 5 -o " + dir.file("p.json") + " >" +
                              dir.file("out") + " 2>" + dir.file("err");
  const auto begin = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  INFO(testing::read_text(dir.file("err")));
  REQUIRE(WIFEXITED(status));
  CHECK((WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3));  // exit 4 bad_alloc, or the OOM killer, before
  CHECK(seconds_since(begin) < 30);
  CHECK(testing::run_tessel("partition " + graph + " --check " + dir.file("p.json")).exit_code == 0);
}

TEST_CASE("partition: SIGINT and SIGTERM write the best partition and exit 3 (r2-19)", "[partition][cli][interrupt]") {
  testing::TempDir dir;
  const std::string graph = write_graph(dir, 30000, true);  // its exact search takes far longer than the delay
  for (int signal : {SIGTERM, SIGINT}) {
    const std::string out = dir.file("p" + std::to_string(signal) + ".json");
    auto [code, err] = interrupted({"partition", graph, "--stages", "4", "-o", out}, signal,
                                   std::chrono::milliseconds(1500), dir.file("err"));
    INFO(err);
    CHECK(code == 3);  // killed by the signal (143, 130) with nothing written before
    CHECK_THAT(err, Catch::Contains("interrupted"));
    CHECK(testing::run_tessel("partition " + graph + " --check " + out).exit_code == 0);
  }
}

TEST_CASE("partition --placement-out refuses a placement its reader would refuse (r2-21)", "[partition][cli]") {
  // 80 nodes of 2^42 parameter bytes on one rank: static memory 1.4e15 > 2^50.
  testing::TempDir dir;
  const std::string graph = std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/r2/r2-21.graph.json";
  auto run = testing::run_tessel("partition " + graph + " --devices 1 --placement-out " + dir.file("pl.json") +
                                 " -o " + dir.file("p.json"));
  CHECK(run.exit_code == 2);  // exit 0 and a file `search` refused, before
  CHECK_THAT(run.err, Catch::Contains("--placement-out") && Catch::Contains("static_memory") &&
                          Catch::Contains("too large") && Catch::Contains("--devices"));
  CHECK_FALSE(std::filesystem::exists(dir.file("pl.json")));
  CHECK_FALSE(std::filesystem::exists(dir.file("p.json")));
  // Spread over 4 ranks the same graph fits, and search reads the file.
  auto spread = testing::run_tessel("partition " + graph + " --devices 4 --placement-out " + dir.file("pl4.json"));
  INFO(spread.err);
  CHECK(spread.exit_code == 0);
  CHECK(testing::run_tessel("search --placement " + dir.file("pl4.json") + " --memory 1000TiB --quiet --time-limit 5")
            .exit_code != 2);
}
