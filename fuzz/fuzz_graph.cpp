// Fuzz target: the tessel.graph/1 reader (model/graph_json), what `tessel
// partition GRAPH` reads first. An accepted graph is written back and read
// again.
#include "fuzz/fuzz_support.hpp"
#include "model/graph_json.hpp"
#include "model/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  try {
    Graph graph = graph_from_json(parse_json_text(fuzz::text_of(data, size), "fuzz"), {"fuzz", ""});
    graph_from_json(graph_to_json(graph), {"written", ""});
  } catch (const InputError&) {
  }
  return 0;
}
