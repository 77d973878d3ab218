// Reading a placement for the certificate encoder (see the header for why it
// is read here again and not by model/).
#include "certify/problem.hpp"

#include <map>

namespace tessel::certify {
namespace {

long long whole(const nlohmann::json& value, const std::string& where, long long least) {
  if (!value.is_number_integer())
    throw MalformedError(where + ": not a whole number (certificates cover integer spans, memory and delays)");
  const long long number = value.get<long long>();
  if (number < least) throw MalformedError(where + ": " + std::to_string(number) + " is below " + std::to_string(least));
  return number;
}

const nlohmann::json& field(const nlohmann::json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) throw MalformedError(where + ": missing '" + key + "'");
  return object.at(key);
}

Block block_from_json(const nlohmann::json& item, int ndevs, const std::string& where) {
  Block block;
  const nlohmann::json& id = field(item, "id", where);
  if (!id.is_string() || id.get<std::string>().empty()) throw MalformedError(where + ".id: not a non-empty string");
  block.id = id.get<std::string>();
  block.span = whole(field(item, "span", where), where + ".span", 1);
  if (item.contains("memory")) block.memory = whole(item.at("memory"), where + ".memory", -(1LL << 50));
  const nlohmann::json& devices = field(item, "devices", where);
  if (!devices.is_array() || devices.empty()) throw MalformedError(where + ".devices: not a non-empty list");
  for (const nlohmann::json& device : devices) {
    const long long d = whole(device, where + ".devices[]", 0);
    if (d >= ndevs) throw MalformedError(where + ".devices[]: device " + std::to_string(d) + " >= ndevs");
    block.devices.push_back(static_cast<int>(d));
  }
  return block;
}

std::vector<long long> static_from_json(const nlohmann::json& document, int ndevs, const std::string& where) {
  std::vector<long long> memory(ndevs, 0);
  if (!document.contains("static_memory")) return memory;
  const nlohmann::json& value = document.at("static_memory");
  if (!value.is_array()) return std::vector<long long>(ndevs, whole(value, where + ".static_memory", 0));
  if (static_cast<int>(value.size()) != ndevs) throw MalformedError(where + ".static_memory: not one per device");
  for (int d = 0; d < ndevs; ++d) memory[d] = whole(value[d], where + ".static_memory[" + std::to_string(d) + "]", 0);
  return memory;
}

}  // namespace

Placement placement_from_json(const nlohmann::json& document, const std::string& where) {
  const nlohmann::json& format = field(document, "format", where);
  if (format != "tessel.placement/1") throw MalformedError(where + ".format: not \"tessel.placement/1\"");
  Placement placement;
  placement.ndevs = static_cast<int>(whole(field(document, "ndevs", where), where + ".ndevs", 1));
  const nlohmann::json& blocks = field(document, "blocks", where);
  if (!blocks.is_array() || blocks.empty()) throw MalformedError(where + ".blocks: not a non-empty list");
  std::map<std::string, int> index;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::string at = where + ".blocks[" + std::to_string(b) + "]";
    placement.blocks.push_back(block_from_json(blocks[b], placement.ndevs, at));
    if (!index.emplace(placement.blocks.back().id, static_cast<int>(b)).second)
      throw MalformedError(at + ".id: '" + placement.blocks.back().id + "' twice");
  }
  const nlohmann::json& edges = field(document, "edges", where);
  if (!edges.is_array()) throw MalformedError(where + ".edges: not a list");
  for (size_t e = 0; e < edges.size(); ++e) {
    const std::string at = where + ".edges[" + std::to_string(e) + "]";
    const nlohmann::json& edge = edges[e];
    if (!edge.is_array() || edge.size() < 2 || edge.size() > 3) throw MalformedError(at + ": not [a, b] or [a, b, delay]");
    Edge parsed;
    for (int end = 0; end < 2; ++end) {
      if (!edge[end].is_string() || !index.count(edge[end].get<std::string>()))
        throw MalformedError(at + ": '" + edge[end].dump() + "' is no block");
      (end == 0 ? parsed.from : parsed.to) = index.at(edge[end].get<std::string>());
    }
    if (edge.size() == 3) parsed.delay = whole(edge[2], at + "[2]", 0);
    placement.edges.push_back(parsed);
  }
  placement.static_memory = static_from_json(document, placement.ndevs, where);
  return placement;
}

Placement window_of(const Placement& placement, int k) {
  Placement window = placement;
  window.blocks.clear();
  window.edges.clear();
  const int n = static_cast<int>(placement.blocks.size());
  for (int c = 0; c < k; ++c) {
    for (const Block& block : placement.blocks) {
      window.blocks.push_back(block);
      if (k > 1) window.blocks.back().id += "@" + std::to_string(c);
    }
    for (const Edge& edge : placement.edges) window.edges.push_back({edge.from + c * n, edge.to + c * n, edge.delay});
  }
  return window;
}

std::string claim_text(const Claim& claim) {
  std::string text = "no repetend of period " + std::to_string(claim.period) + " with window k = " +
                     std::to_string(claim.k) + " and at most " + std::to_string(claim.max_in_flight) +
                     " windows in flight";
  if (claim.latency_at_most) text += " and latency <= " + std::to_string(*claim.latency_at_most);
  return text;
}

}  // namespace tessel::certify
