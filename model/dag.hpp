// Directed acyclic graphs given as named vertices and edges: what the
// placement (blocks) and the operator graph (nodes) have in common. One cycle
// finder and one reader of `"edges": [["a", "b"], ...]` serve both, so the
// two file formats reject bad edges and cycles with the same words.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_file.hpp"

namespace tessel {

// A dependency cycle as vertex indices (first == last omitted), if any.
std::optional<std::vector<int>> find_cycle(const std::vector<std::vector<int>>& successors);

// One edge as read: vertex indices and, for placements, the delay.
struct DagEdge {
  int from = 0;
  int to = 0;
  Decimal delay;  // 0 unless the file gave [a, b, delay]
};

// Reads the optional "edges" list of `document`: pairs of names in `index`,
// or triples [a, b, delay] with delay >= 0 when `allow_delay`. `noun`
// ("block", "node") words the errors; a self-edge, an unknown name or a
// cycle (printed as "a -> b -> a") fails with the field's place.
std::vector<DagEdge> read_dag_edges(const nlohmann::json& document, const std::map<std::string, int>& index,
                                    const std::vector<std::string>& names, const std::string& noun,
                                    const JsonPlace& place, bool allow_delay = false);

}  // namespace tessel
