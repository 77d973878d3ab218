// What every fuzz target shares: the input as text, and the rule that a
// reader may refuse an input only with the error a user sees as exit 2
// (InputError) or exit 1 (a deadlocked order). Any other exception escapes,
// and libFuzzer reports it as a crash, like a sanitizer report or a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The fixed graph partitions are read against (fuzz_partition, and the
// verifier's partition check in fuzz_verify): a diamond with a tail, as in
// tests/data/repro.
inline const char* kDiamondGraph = R"({"format": "tessel.graph/1", "name": "diamond", "nodes": [
  {"id": "a", "op": "linear", "compute": 10, "param_bytes": 100, "output_bytes": 8},
  {"id": "b", "op": "linear", "compute": 20, "param_bytes": 200, "output_bytes": 8},
  {"id": "c", "op": "relu", "compute": 5, "param_bytes": 0, "output_bytes": 16},
  {"id": "d", "op": "add", "compute": 7, "param_bytes": 50, "output_bytes": 4},
  {"id": "e", "op": "linear", "compute": 30, "param_bytes": 300, "output_bytes": 4}],
  "edges": [["a", "b"], ["a", "c"], ["b", "d"], ["c", "d"], ["d", "e"]]})";

}  // namespace tessel::fuzz
