// Fuzz target: the tessel.partition/1 reader (partition/partition_json) against a
// fixed five-node graph (a diamond with a tail, as in tests/data/repro), the
// way `tessel partition GRAPH --check FILE` reads a partition. An accepted
// partition's costs are computed and written back, then read again.
#include "fuzz/fuzz_support.hpp"
#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "partition/partition_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  static const Graph graph = graph_from_json(nlohmann::json::parse(tessel::fuzz::kDiamondGraph), {"graph", ""});
  try {
    Partition partition =
        partition_from_json(parse_json_text(fuzz::text_of(data, size), "fuzz"), graph, {"fuzz", ""});
    partition_from_json(partition_to_json(graph, partition, PartitionClaim{}), graph, {"written", ""});
  } catch (const InputError&) {
  }
  return 0;
}
