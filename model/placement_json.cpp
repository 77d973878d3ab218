// Reading and writing `tessel.placement/1`.
#include "model/placement_json.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/dag.hpp"

namespace tessel {

namespace {

Block block_from_json(const nlohmann::json& value, int ndevs, const JsonPlace& place) {
  Block block;
  block.id = require_string(value, "id", place);
  if (block.id.empty()) place.field("id").fail("block id must not be empty");
  block.kind = value.contains("kind") ? require_string(value, "kind", place) : "forward";
  long long span = require_integer(value, "span", place);
  if (span < 1) place.field("span").fail("span must be >= 1, got " + std::to_string(span));
  if (span > 1000000) place.field("span").fail("span is unreasonably large: " + std::to_string(span));
  block.span = static_cast<int>(span);
  block.memory = value.contains("memory") ? require_integer(value, "memory", place) : 0;
  const nlohmann::json& devices = require_array(value, "devices", place);
  if (devices.empty()) place.field("devices").fail("a block needs at least one device");
  for (size_t i = 0; i < devices.size(); ++i) {
    long long device = as_integer(devices[i], place.field("devices").index(i));
    if (device < 0 || device >= ndevs)
      place.field("devices").index(i).fail("device " + std::to_string(device) +
                                           " is outside [0, " + std::to_string(ndevs) + ")");
    block.devices.push_back(static_cast<int>(device));
  }
  std::sort(block.devices.begin(), block.devices.end());
  if (std::adjacent_find(block.devices.begin(), block.devices.end()) != block.devices.end())
    place.field("devices").fail("a device is listed twice");
  return block;
}

}  // namespace

Placement placement_from_json(const nlohmann::json& document, const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a placement object");
  require_format(document, kPlacementFormat, place);
  Placement placement;
  placement.name = document.contains("name") ? require_string(document, "name", place) : "";
  long long ndevs = require_integer(document, "ndevs", place);
  if (ndevs < 1 || ndevs > 100000)
    place.field("ndevs").fail("ndevs must be in [1, 100000], got " + std::to_string(ndevs));
  placement.ndevs = static_cast<int>(ndevs);

  const nlohmann::json& blocks = require_array(document, "blocks", place);
  if (blocks.empty()) place.field("blocks").fail("a placement needs at least one block");
  std::set<std::string> ids;
  for (size_t i = 0; i < blocks.size(); ++i) {
    JsonPlace at = place.field("blocks").index(i);
    Block block = block_from_json(blocks[i], placement.ndevs, at);
    if (!ids.insert(block.id).second) at.field("id").fail("duplicate block id '" + block.id + "'");
    placement.blocks.push_back(std::move(block));
  }

  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (size_t i = 0; i < placement.blocks.size(); ++i) {
    index[placement.blocks[i].id] = static_cast<int>(i);
    names.push_back(placement.blocks[i].id);
  }
  for (auto [from, to] : read_dag_edges(document, index, names, "block", place))
    placement.edges.push_back({from, to});
  return placement;
}

Placement read_placement_file(const std::string& path) {
  return placement_from_json(read_json_file(path), JsonPlace{path, ""});
}

nlohmann::json placement_to_json(const Placement& placement) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const Block& block : placement.blocks)
    blocks.push_back({{"id", block.id},
                      {"kind", block.kind},
                      {"span", block.span},
                      {"memory", block.memory},
                      {"devices", block.devices}});
  nlohmann::json edges = nlohmann::json::array();
  for (const Edge& edge : placement.edges)
    edges.push_back({placement.blocks[edge.from].id, placement.blocks[edge.to].id});
  return {{"format", kPlacementFormat},
          {"name", placement.name},
          {"ndevs", placement.ndevs},
          {"blocks", blocks},
          {"edges", edges}};
}

}  // namespace tessel
