// The placement (docs/formats.md, "tessel.placement/1"): the blocks of ONE micro-batch, the devices
// each runs on, and the edges saying what each block waits for. Everything a
// schedule search or a schedule generator needs to know about the model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/quantity.hpp"

namespace tessel {

// What a block computes. It never changes what is valid; it names the
// runtime action (with `stage`) and colours the drawings.
enum class BlockKind { Forward, Backward, BackwardInput, BackwardWeight, Other };

// "forward", "backward", "backward_input", "backward_weight", "other".
const char* kind_name(BlockKind kind);
// The inverse of kind_name; nullopt for any other text.
std::optional<BlockKind> parse_kind(const std::string& text);
// The runtime's letter: F, B, I, W, or O for other.
char kind_letter(BlockKind kind);

// What a forward block offers instead of keeping its activation until a
// later block `before` of the same micro-batch (docs/formats.md, "Memory
// traded for time"): run again for `span` (keeping `checkpoint_memory`), or
// copy it out and back in on the device's copy channel.
struct RecomputeOffer {
  Time span = 1;
  int before = -1;              // block index
  Memory checkpoint_memory = 0;  // what stays between the forward's end and the recompute
};
struct OffloadOffer {
  Time out = 1;  // copy-out time
  Time in = 1;   // copy-in time
  int before = -1;
};

struct Block {
  std::string id;
  BlockKind kind = BlockKind::Forward;
  Time span = 1;              // ticks of execution, >= 1
  Memory memory = 0;          // change of device memory at the start
  std::optional<int> stage;   // the pipeline stage a runtime runs it as
  std::vector<int> devices;   // sorted, non-empty; several = tensor-parallel
  std::optional<RecomputeOffer> recompute;  // forward blocks only
  std::optional<OffloadOffer> offload;      // forward blocks only
};

struct Edge {
  int from = 0;    // block index
  int to = 0;      // block index
  Time delay = 0;  // communication time: `to` starts >= delay after `from` ends
};

struct Placement {
  std::string name;
  int ndevs = 0;
  std::vector<Block> blocks;
  std::vector<Edge> edges;
  // Memory held for the whole run on each device (parameters, gradients,
  // optimizer state), counted against the limit; empty = none.
  std::vector<Memory> static_memory;
  // Spans and delays are ticks of 10^-time_decimals; memory amounts ticks of
  // 10^-memory_decimals (model/quantity.hpp).
  int time_decimals = 0;
  int memory_decimals = 0;
};

// Static memory of device d (0 when none is given).
Memory static_memory_of(const Placement& placement, int device);

// Re-expresses every time of the placement at `decimals` (>= the current
// ones): spans and delays multiply by the difference's power of ten.
// Returns false, changing nothing, when a value would pass kMaxTicks.
bool rescale_time(Placement& placement, int decimals);
bool rescale_memory(Placement& placement, int decimals);

// Index of the block with this id, or -1.
int find_block(const Placement& placement, const std::string& id);

// Whether any block offers recomputation or offload: then a schedule may
// drop activations, and no bound that assumes every one kept holds.
bool offers_memory_choice(const Placement& placement);

// Sum of spans of the blocks on each device: the busy time per micro-batch.
std::vector<Time> device_load(const Placement& placement);

// L = max_d load(d): no repetend can have a shorter period per micro-batch.
Time period_lower_bound(const Placement& placement);

// Sum of memory deltas per device over one micro-batch; all zero means the
// memory of a micro-batch is freed again, the condition for a steady state.
std::vector<Memory> memory_balance(const Placement& placement);

std::vector<std::vector<int>> predecessors(const Placement& placement);
std::vector<std::vector<int>> successors(const Placement& placement);

// A dependency cycle as block indices (first == last omitted), if any.
std::optional<std::vector<int>> find_cycle(const Placement& placement);

// Blocks in an order where every edge goes forward. Requires a DAG.
std::vector<int> topological_order(const Placement& placement);

// Earliest start of every block of one micro-batch run alone (ASAP), delays
// included.
std::vector<Time> earliest_starts(const Placement& placement);

// Length of the longest dependency chain, spans and delays included.
Time critical_path(const Placement& placement);

// From each block's start to the end of its micro-batch run alone (the
// longest chain from it, its own span, spans and delays included): the
// mirror of earliest_starts.
std::vector<Time> chain_tails(const Placement& placement);

// The longest chain from the start of block `from` to the start of every
// block (spans and delays on it): 0 for `from` itself, -1 where no chain
// leads. Requires a DAG.
std::vector<Time> start_distances_from(const Placement& placement, int from);

// Whether `block` runs on `device` (one of its devices).
bool on_device(const Block& block, int device);

// descendants[a][b] != 0: b depends on a, directly or not (a != b). Requires a DAG.
std::vector<std::vector<char>> descendants(const Placement& placement);

}  // namespace tessel
