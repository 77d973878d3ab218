// The classic hand-made pipeline schedules, as per-rank orders over a stage
// graph: GPipe, 1F1B, Megatron's interleaved 1F1B and the zero-bubble family
// (ZB-H1, ZB-H2, ZB-V). `generate_scheme` turns one into a timed schedule.
#pragma once

#include <string>
#include <vector>

#include "classic/stage_graph.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

struct SchemeRequest {
  std::string scheme;  // gpipe|1f1b|interleaved-1f1b|zb-h1|zb-h2|zb-v
  int ranks = 0;       // pipeline ranks (devices)
  int nmicros = 0;
  int chunks = 2;      // interleaved-1f1b: model chunks per rank
  bool split = false;  // backward split into B and W (always for zb-*)
  StageCosts costs;
};

const std::vector<std::string>& scheme_names();

// Throws std::invalid_argument for an unknown scheme or sizes below 1.
Schedule generate_scheme(const SchemeRequest& request);

// The pieces, one file per family.
RankOrders gpipe_orders(int ranks, int nmicros, bool split);
RankOrders one_f_one_b_orders(int ranks, int nmicros, bool split);

// Megatron-LM's order for one rank: +k forward / -k backward of local chunk
// k-1 (formats.md), with microbatch group size `group` (Megatron's default:
// the number of ranks).
std::vector<int> megatron_rank_order(int ranks, int rank, int chunks, int nmicros, int group);
// Megatron's signed chunk codes -> actions: local chunk c on rank r is stage
// c * ranks + r; the micro-batch counts per chunk and direction; a split
// backward puts each W right after its B.
RankOrders megatron_actions(const std::vector<std::vector<int>>& orders, int ranks, bool split);

// Zero-bubble orders by list scheduling (zero_bubble.cpp).
RankOrders zb_h1_orders(const StageGraph& graph, int nmicros);
RankOrders zb_h2_orders(const StageGraph& graph, int nmicros);
RankOrders zb_v_orders(const StageGraph& graph, int nmicros);

}  // namespace tessel::classic
