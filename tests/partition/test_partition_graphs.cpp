// The partitioner on the shipped model graphs (cases/graphs/): proven optima
// at 8 stages on the largest GPT-2-like graph, the time limit answering with
// the best partition marked unproven (exit 3), the DP and pippy partitions
// never better on the bottleneck, and every partition through the check.
#include <catch2/catch.hpp>

#include "model/graph_json.hpp"
#include "tests/support.hpp"
#include "verify/partition_check.hpp"

using namespace tessel;

namespace {

std::string graph_path(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/cases/graphs/" + name + ".json";
}

nlohmann::json partition_json(const std::string& args) {
  auto result = testing::run_tessel("partition " + args + " --json");
  INFO(result.err);
  REQUIRE(result.out.size() > 0);
  nlohmann::json answer = nlohmann::json::parse(result.out);
  answer["exit_code"] = result.exit_code;
  return answer;
}

}  // namespace

TEST_CASE("gpt2-large into 8 stages: proven optimal within seconds, never worse than dp", "[partition][graphs]") {
  testing::TempDir dir;
  const std::string graph = graph_path("gpt2-large");
  nlohmann::json exact = partition_json(graph + " --stages 8 --time-limit 60 -o " + dir.file("p.json"));
  REQUIRE(exact["exit_code"] == 0);
  CHECK(exact["status"] == "optimal");
  CHECK(exact["proven_bound"] == exact["bottleneck"]);
  CHECK(exact["proven_communication_bound"] == exact["communication_bytes"]);
  CHECK(exact["bottleneck"].get<long long>() <= exact["dp_bottleneck"].get<long long>());
  CHECK(exact["bottleneck"].get<double>() >= exact["ideal_bottleneck"].get<double>());
  CHECK(exact["solve_seconds"].get<double>() < 30);
  CHECK(verify::check_partition(read_json_file(graph), read_json_file(dir.file("p.json"))).valid);
}

TEST_CASE("pippy's partition of gpt2-large sends less but has a slower bottleneck", "[partition][graphs]") {
  testing::TempDir dir;
  const std::string graph = graph_path("gpt2-large");
  nlohmann::json exact = partition_json(graph + " --stages 2 -o " + dir.file("p.json"));
  nlohmann::json pippy = partition_json(graph + " --stages 2 --objective pippy -o " + dir.file("q.json"));
  REQUIRE(exact["exit_code"] == 0);
  REQUIRE(pippy["exit_code"] == 0);
  CHECK(pippy["status"] == "optimal");
  CHECK(pippy["proven_bound"] == pippy["communication_bytes"]);
  CHECK(pippy["bottleneck"].get<long long>() >= exact["bottleneck"].get<long long>());
  CHECK(pippy["communication_bytes"].get<long long>() <= exact["communication_bytes"].get<long long>());
  nlohmann::json partition = read_json_file(dir.file("q.json"));
  verify::PartitionReport report = verify::check_partition(read_json_file(graph), partition);
  REQUIRE(report.valid);
  // Every stage's parameter bytes within 1 +- 0.1 of the mean, recomputed by the check.
  double mean = (report.stage_param_bytes[0] + report.stage_param_bytes[1]) / 2.0;
  for (long long bytes : report.stage_param_bytes) {
    CHECK(bytes >= 0.9 * mean);
    CHECK(bytes <= 1.1 * mean);
  }
}

TEST_CASE("the time limit gives exit 3 and the best partition, marked unproven", "[partition][graphs]") {
  testing::TempDir dir;
  const std::string graph = graph_path("gpt2-large");
  nlohmann::json answer = partition_json(graph + " --stages 8 --time-limit 0.000001 -o " + dir.file("p.json"));
  CHECK(answer["exit_code"] == 3);
  CHECK(answer["status"] == "timeout");
  CHECK(answer["proven_bound"].get<long long>() < answer["bottleneck"].get<long long>());
  CHECK(answer["gap"].get<double>() > 0);
  nlohmann::json written = read_json_file(dir.file("p.json"));
  CHECK(written["status"] == "timeout");
  CHECK(written["proven_optimal"] == false);
  CHECK(verify::check_partition(read_json_file(graph), written).valid);
}

TEST_CASE("pippy on a tied-embedding GPT-2 at 8 stages is infeasible, with the reason", "[partition][graphs]") {
  nlohmann::json answer = partition_json(graph_path("gpt2-small") + " --stages 8 --objective pippy");
  CHECK(answer["exit_code"] == 1);
  CHECK(answer["status"] == "infeasible");
  CHECK_THAT(answer["reason"].get<std::string>(), Catch::Contains("'wte'"));
}
