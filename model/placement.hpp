// The placement (SPEC section 1): the blocks of ONE micro-batch, the devices
// each runs on, and the edges saying what each block waits for. Everything a
// schedule search or a schedule generator needs to know about the model.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tessel {

struct Block {
  std::string id;
  std::string kind = "forward";  // forward|backward|backward_input|backward_weight|other text
  int span = 1;                  // steps of execution, >= 1
  long long memory = 0;          // change of device memory at the start step
  std::vector<int> devices;      // sorted, non-empty; several = tensor-parallel
};

struct Edge {
  int from = 0;  // block index
  int to = 0;    // block index
};

struct Placement {
  std::string name;
  int ndevs = 0;
  std::vector<Block> blocks;
  std::vector<Edge> edges;
};

// Index of the block with this id, or -1.
int find_block(const Placement& placement, const std::string& id);

// Sum of spans of the blocks on each device: the busy steps per micro-batch.
std::vector<int> device_load(const Placement& placement);

// L = max_d load(d): no repetend can have a shorter period per micro-batch.
int period_lower_bound(const Placement& placement);

// Sum of memory deltas per device over one micro-batch; all zero means the
// memory of a micro-batch is freed again, the condition for a steady state.
std::vector<long long> memory_balance(const Placement& placement);

std::vector<std::vector<int>> predecessors(const Placement& placement);
std::vector<std::vector<int>> successors(const Placement& placement);

// A dependency cycle as block indices (first == last omitted), if any.
std::optional<std::vector<int>> find_cycle(const Placement& placement);

// Blocks in an order where every edge goes forward. Requires a DAG.
std::vector<int> topological_order(const Placement& placement);

// Earliest start of every block of one micro-batch run alone (ASAP).
std::vector<int> earliest_starts(const Placement& placement);

// Length of the longest dependency chain, spans included.
int critical_path(const Placement& placement);

}  // namespace tessel
