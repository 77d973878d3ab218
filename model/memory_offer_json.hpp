// Reading and writing what a forward block offers instead of keeping its
// activation (docs/formats.md, "Memory traded for time"): the "recompute" and
// "offload" objects of a block in `tessel.placement/1`. Kept apart from
// placement_json.cpp because the offers name another block (`before`) and so
// can only be checked once every block is read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_file.hpp"
#include "model/placement.hpp"

namespace tessel {

// The offers of one block as read, before the names are resolved and the
// numbers put on the placement's scales.
struct ReadOffers {
  JsonPlace place;  // the block's
  bool recompute = false;
  Decimal recompute_span, checkpoint_memory;
  std::string recompute_before;
  bool offload = false;
  Decimal offload_out, offload_in;
  std::string offload_before;
};

// Reads the block's optional "recompute" and "offload" objects (known keys
// only, times > 0, checkpoint memory >= 0).
ReadOffers read_offers(const nlohmann::json& block, const JsonPlace& place);

// The times and memory amounts of the offers, so that the placement's scales
// cover them.
void collect_offer_numbers(const ReadOffers& read, std::vector<Decimal>& times, std::vector<Decimal>& amounts);

// Resolves `before`, checks the rules that need the whole placement (a
// forward block; `before` another block that depends on it; checkpoint memory
// at most the block's memory) and stores the offers on the placement's block
// `index`, whose numbers are already scaled.
void apply_offers(const ReadOffers& read, int index, Placement& placement);

// Adds "recompute"/"offload" to a block's JSON when it offers them.
void offers_to_json(const Placement& placement, const Block& block, nlohmann::json& value);

}  // namespace tessel
