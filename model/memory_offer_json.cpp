// The "recompute" and "offload" objects of a placement block: strict reading
// (every error names the file, the field and the problem) and writing.
#include "model/memory_offer_json.hpp"

#include <deque>

#include "model/placement.hpp"

namespace tessel {

namespace {

Decimal positive_time(const nlohmann::json& object, const std::string& key, const JsonPlace& place) {
  Decimal value = require_decimal(object, key, place);
  if (value.digits <= 0) place.field(key).fail(key + " must be > 0, got " + format_ticks(value.digits, value.decimals));
  return value;
}

std::string before_name(const nlohmann::json& object, const JsonPlace& place) {
  std::string name = require_string(object, "before", place);
  if (name.empty()) place.field("before").fail("names the block that needs the activation again; got \"\"");
  return name;
}

// Whether `to` depends on `from`, directly or not.
bool depends_on(const Placement& placement, int from, int to) {
  std::vector<std::vector<int>> next = successors(placement);
  std::vector<char> seen(placement.blocks.size(), 0);
  std::deque<int> queue{from};
  while (!queue.empty()) {
    const int block = queue.front();
    queue.pop_front();
    for (int after : next[block]) {
      if (after == to) return true;
      if (!seen[after]) seen[after] = 1, queue.push_back(after);
    }
  }
  return false;
}

int resolve_before(const std::string& name, int index, const Placement& placement, const JsonPlace& place) {
  std::vector<std::string> ids;
  for (const Block& block : placement.blocks) ids.push_back(block.id);
  const int before = find_block(placement, name);
  if (before < 0) {
    const std::string nearest = nearest_name(name, ids);
    place.fail("unknown block '" + name.substr(0, 100) + "'" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)"));
  }
  if (before == index || !depends_on(placement, index, before))
    place.fail("block '" + name + "' does not depend on '" + placement.blocks[index].id +
               "': the activation is needed again only by a later block of the same micro-batch");
  return before;
}

}  // namespace

ReadOffers read_offers(const nlohmann::json& block, const JsonPlace& place) {
  ReadOffers read;
  read.place = place;
  if (auto it = block.find("recompute"); it != block.end()) {
    const JsonPlace at = place.field("recompute");
    if (!it->is_object()) at.fail("expected {\"span\": S, \"before\": block id, \"checkpoint_memory\": c}");
    require_known_keys(*it, {"span", "before", "checkpoint_memory"}, at);
    read.recompute = true;
    read.recompute_span = positive_time(*it, "span", at);
    read.recompute_before = before_name(*it, at);
    if (it->contains("checkpoint_memory")) {
      read.checkpoint_memory = require_decimal(*it, "checkpoint_memory", at);
      if (read.checkpoint_memory.digits < 0) at.field("checkpoint_memory").fail("must be >= 0");
    }
  }
  if (auto it = block.find("offload"); it != block.end()) {
    const JsonPlace at = place.field("offload");
    if (!it->is_object()) at.fail("expected {\"out\": T1, \"in\": T2, \"before\": block id}");
    require_known_keys(*it, {"out", "in", "before"}, at);
    read.offload = true;
    read.offload_out = positive_time(*it, "out", at);
    read.offload_in = positive_time(*it, "in", at);
    read.offload_before = before_name(*it, at);
  }
  return read;
}

void collect_offer_numbers(const ReadOffers& read, std::vector<Decimal>& times, std::vector<Decimal>& amounts) {
  if (read.recompute) {
    times.push_back(read.recompute_span);
    amounts.push_back(read.checkpoint_memory);
  }
  if (read.offload) {
    times.push_back(read.offload_out);
    times.push_back(read.offload_in);
  }
}

void apply_offers(const ReadOffers& read, int index, Placement& placement) {
  if (!read.recompute && !read.offload) return;
  Block& block = placement.blocks[index];
  if (block.kind != BlockKind::Forward)
    read.place.field(read.recompute ? "recompute" : "offload")
        .fail("only a forward block may offer it; this block's kind is " + std::string(kind_name(block.kind)));
  if (read.recompute) {
    const JsonPlace at = read.place.field("recompute");
    RecomputeOffer offer;
    offer.span = decimal_ticks(read.recompute_span, placement.time_decimals, at.field("span"));
    offer.checkpoint_memory =
        decimal_ticks(read.checkpoint_memory, placement.memory_decimals, at.field("checkpoint_memory"));
    if (offer.checkpoint_memory > std::max<Memory>(block.memory, 0))
      at.field("checkpoint_memory").fail("is more than the block's memory: nothing would be saved");
    offer.before = resolve_before(read.recompute_before, index, placement, at.field("before"));
    placement.blocks[index].recompute = offer;
  }
  if (read.offload) {
    const JsonPlace at = read.place.field("offload");
    OffloadOffer offer;
    offer.out = decimal_ticks(read.offload_out, placement.time_decimals, at.field("out"));
    offer.in = decimal_ticks(read.offload_in, placement.time_decimals, at.field("in"));
    offer.before = resolve_before(read.offload_before, index, placement, at.field("before"));
    placement.blocks[index].offload = offer;
  }
}

void offers_to_json(const Placement& placement, const Block& block, nlohmann::json& value) {
  const int time_decimals = placement.time_decimals;
  if (block.recompute) {
    value["recompute"] = {{"span", time_to_json(block.recompute->span, time_decimals)},
                          {"before", placement.blocks[block.recompute->before].id}};
    if (block.recompute->checkpoint_memory != 0)
      value["recompute"]["checkpoint_memory"] = time_to_json(block.recompute->checkpoint_memory, placement.memory_decimals);
  }
  if (block.offload)
    value["offload"] = {{"out", time_to_json(block.offload->out, time_decimals)},
                        {"in", time_to_json(block.offload->in, time_decimals)},
                        {"before", placement.blocks[block.offload->before].id}};
}

}  // namespace tessel
