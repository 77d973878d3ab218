// Megatron-LM's interleaved pipeline order as a file: a JSON list with one
// list per rank of signed chunk codes (+k forward of local chunk k-1, -k its
// backward; docs/formats.md, "megatron-order"). The layer-wise order of Megatron's MoE overlap
// (megatron/core/transformer/cuda_graphs.py,
// get_overlap_moe_expert_parallel_comm_order) has the same shape with one
// code per LAYER of the rank (1..K over its chunks), and, when weight
// gradients are captured, -(k + 0.5) for the weight gradient of layer k.
// Only reading and checking the shape is here; classic/ turns it into a
// schedule.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessel {

// One entry: 'F' (+k), 'B' (-k) or 'W' (-(k + 0.5)) of chunk (or layer) k >= 1.
struct MegatronStep {
  char kind = 'F';
  int chunk = 1;
  bool operator==(const MegatronStep&) const = default;
};

using MegatronOrders = std::vector<std::vector<MegatronStep>>;

// Throws InputError naming `file` and the entry ("[2][5]") that is not a
// non-zero integer or a negative half-integer.
MegatronOrders megatron_order_from_json(const nlohmann::json& document, const std::string& file);

// The steps of Megatron's integer codes (+k, -k).
std::vector<MegatronStep> megatron_steps(const std::vector<int>& codes);

// The largest k in the order: the number of chunks (or layers) when not given.
int megatron_chunks(const MegatronOrders& orders);

// Forwards of chunk 1 on rank 0: the number of micro-batches when not given.
int megatron_micro_count(const MegatronOrders& orders);

// Whether some entry is a weight gradient (a layer-wise order).
bool megatron_has_weights(const MegatronOrders& orders);

}  // namespace tessel
