// Reading and writing `tessel.placement/1` (docs/formats.md).
//
// Times (spans, delays) and memory amounts are read as exact decimals and
// stored as ticks at the most decimals any of them uses (model/quantity.hpp),
// so a file with spans 1.5 and 3.712 keeps both exactly.
#include "model/placement_json.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/dag.hpp"
#include "model/memory_offer_json.hpp"

namespace tessel {

namespace {

// A block as read, before its numbers are put on the common scale.
struct ReadBlock {
  Block block;
  Decimal span;
  Decimal memory;
  JsonPlace place;
  ReadOffers offers;  // "recompute", "offload"
};

ReadBlock block_from_json(const nlohmann::json& value, int ndevs, const JsonPlace& place) {
  if (!value.is_object()) place.fail("a block is an object with id, kind, span, memory, devices");
  require_known_keys(value, {"id", "kind", "span", "memory", "stage", "devices", "recompute", "offload"}, place);
  ReadBlock read{{}, {}, {}, place, read_offers(value, place)};
  Block& block = read.block;
  block.id = require_string(value, "id", place);
  if (block.id.empty()) place.field("id").fail("block id must not be empty");
  const std::string kind = require_string(value, "kind", place);
  std::optional<BlockKind> parsed = parse_kind(kind);
  if (!parsed) {
    std::string nearest = nearest_name(kind, {"forward", "backward", "backward_input", "backward_weight", "other"});
    place.field("kind").fail("'" + kind + "' is not a kind" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
                             "; kinds: forward, backward, backward_input, backward_weight, other");
  }
  block.kind = *parsed;
  read.span = require_decimal(value, "span", place);
  if (read.span.digits <= 0) place.field("span").fail("span must be > 0, got " + format_ticks(read.span.digits, read.span.decimals));
  read.memory = value.contains("memory") ? require_decimal(value, "memory", place) : Decimal{};
  if (value.contains("stage")) {
    long long stage = require_integer(value, "stage", place);
    if (stage < 0 || stage > 1000000) place.field("stage").fail("stage must be in [0, 1e6], got " + std::to_string(stage));
    block.stage = static_cast<int>(stage);
  }
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
  return read;
}

// static_memory: one number for every device, or a list with one per device.
std::vector<Decimal> read_static_memory(const nlohmann::json& document, int ndevs, const JsonPlace& place) {
  auto it = document.find("static_memory");
  if (it == document.end()) return {};
  const JsonPlace at = place.field("static_memory");
  if (!it->is_array()) return std::vector<Decimal>(ndevs, as_decimal(*it, at));
  if (static_cast<int>(it->size()) != ndevs)
    at.fail("a per-device list needs one entry per device (" + std::to_string(ndevs) + "), got " +
            std::to_string(it->size()));
  std::vector<Decimal> amounts;
  for (size_t d = 0; d < it->size(); ++d) amounts.push_back(as_decimal((*it)[d], at.index(d)));
  return amounts;
}

int most_decimals(const std::vector<Decimal>& values) {
  int decimals = 0;
  for (const Decimal& value : values) decimals = std::max(decimals, value.decimals);
  return decimals;
}

}  // namespace

Placement placement_from_json(const nlohmann::json& document, const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a placement object");
  require_known_keys(document, {"format", "name", "ndevs", "blocks", "edges", "static_memory"}, place);
  require_format(document, kPlacementFormat, place);
  Placement placement;
  placement.name = document.contains("name") ? require_string(document, "name", place) : "";
  long long ndevs = require_integer(document, "ndevs", place);
  if (ndevs < 1 || ndevs > 100000)
    place.field("ndevs").fail("ndevs must be in [1, 100000], got " + std::to_string(ndevs));
  placement.ndevs = static_cast<int>(ndevs);

  const nlohmann::json& blocks = require_array(document, "blocks", place);
  if (blocks.empty()) place.field("blocks").fail("a placement needs at least one block");
  if (blocks.size() > 1000000) place.field("blocks").fail("more than 1e6 blocks");
  std::vector<ReadBlock> read;
  std::set<std::string> ids;
  for (size_t i = 0; i < blocks.size(); ++i) {
    JsonPlace at = place.field("blocks").index(i);
    read.push_back(block_from_json(blocks[i], placement.ndevs, at));
    if (!ids.insert(read.back().block.id).second) at.field("id").fail("duplicate block id '" + read.back().block.id + "'");
  }
  if (!document.contains("edges")) place.field("edges").fail("missing (write \"edges\": [] for independent blocks)");

  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (size_t i = 0; i < read.size(); ++i) {
    index[read[i].block.id] = static_cast<int>(i);
    names.push_back(read[i].block.id);
  }
  std::vector<DagEdge> edges = read_dag_edges(document, index, names, "block", place, /*allow_delay=*/true);
  std::vector<Decimal> static_memory = read_static_memory(document, placement.ndevs, place);

  // One scale for every time and one for every memory amount.
  std::vector<Decimal> times, amounts = static_memory;
  for (const ReadBlock& r : read) {
    times.push_back(r.span);
    amounts.push_back(r.memory);
    collect_offer_numbers(r.offers, times, amounts);
  }
  for (const DagEdge& edge : edges) times.push_back(edge.delay);
  placement.time_decimals = most_decimals(times);
  placement.memory_decimals = most_decimals(amounts);
  for (ReadBlock& r : read) {
    r.block.span = decimal_ticks(r.span, placement.time_decimals, r.place.field("span"));
    r.block.memory = decimal_ticks(r.memory, placement.memory_decimals, r.place.field("memory"));
    placement.blocks.push_back(std::move(r.block));
  }
  for (size_t i = 0; i < edges.size(); ++i)
    placement.edges.push_back({edges[i].from, edges[i].to,
                               decimal_ticks(edges[i].delay, placement.time_decimals,
                                             place.field("edges").index(i).index(2))});
  for (size_t d = 0; d < static_memory.size(); ++d)
    placement.static_memory.push_back(
        decimal_ticks(static_memory[d], placement.memory_decimals, place.field("static_memory").index(d)));
  for (size_t i = 0; i < read.size(); ++i) apply_offers(read[i].offers, static_cast<int>(i), placement);
  return placement;
}

Placement read_placement_file(const std::string& path) {
  return placement_from_json(read_json_file(path), JsonPlace{path, ""});
}

nlohmann::json placement_to_json(const Placement& placement) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const Block& block : placement.blocks) {
    nlohmann::json value = {{"id", block.id},
                            {"kind", kind_name(block.kind)},
                            {"span", time_to_json(block.span, placement.time_decimals)},
                            {"memory", time_to_json(block.memory, placement.memory_decimals)}};
    if (block.stage) value["stage"] = *block.stage;
    value["devices"] = block.devices;
    offers_to_json(placement, block, value);
    blocks.push_back(std::move(value));
  }
  nlohmann::json edges = nlohmann::json::array();
  for (const Edge& edge : placement.edges) {
    nlohmann::json pair = {placement.blocks[edge.from].id, placement.blocks[edge.to].id};
    if (edge.delay != 0) pair.push_back(time_to_json(edge.delay, placement.time_decimals));
    edges.push_back(std::move(pair));
  }
  nlohmann::json document = {{"format", kPlacementFormat},
                             {"name", placement.name},
                             {"ndevs", placement.ndevs},
                             {"blocks", blocks},
                             {"edges", edges}};
  if (!placement.static_memory.empty()) {
    nlohmann::json amounts = nlohmann::json::array();
    for (Memory amount : placement.static_memory) amounts.push_back(time_to_json(amount, placement.memory_decimals));
    document["static_memory"] = amounts;
  }
  return document;
}

}  // namespace tessel
