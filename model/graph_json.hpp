// The `tessel.graph/1` file format: reading with full validation, writing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/graph.hpp"
#include "model/json_file.hpp"

namespace tessel {

inline constexpr const char* kGraphFormat = "tessel.graph/1";

// Validates format and version, node fields (unique non-empty ids, integer
// costs >= 0 and small enough that sums cannot overflow), edges naming known
// nodes, and acyclicity (the cycle is printed); throws InputError naming the
// place of the first problem.
Graph graph_from_json(const nlohmann::json& document, const JsonPlace& place);
Graph read_graph_file(const std::string& path);

nlohmann::json graph_to_json(const Graph& graph);

}  // namespace tessel
