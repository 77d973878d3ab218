// The hand-made pipeline schedules people run, as per-rank orders over a
// stage graph: GPipe, 1F1B, interleaved 1F1B (Megatron's and PyTorch's),
// looped BFS, interleaved zero bubble, the zero-bubble family (ZB-H1, ZB-H2,
// ZB-V, the memory-limited heuristic), the controllable-memory V-Half and
// V-Min, DualPipe and DualPipeV. `generate_scheme` turns one into a timed
// schedule. Each family's file names the reference it follows.
#pragma once

#include <string>
#include <vector>

#include "classic/stage_graph.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

// Whose interleaved 1F1B: Megatron-LM's group size, or PyTorch's rounds.
enum class Flavour { megatron, pytorch };

struct SchemeRequest {
  std::string scheme;  // one of scheme_names()
  int ranks = 0;       // pipeline ranks (devices)
  int nmicros = 0;     // micro-batches (dualpipe: both directions together)
  int chunks = 0;      // model chunks per rank; 0 = the scheme's own (2 for the chunked ones)
  Flavour flavour = Flavour::megatron;  // interleaved-1f1b
  int group = 0;       // interleaved-1f1b (megatron): micro-batch group size; 0 = ranks
  long long max_pending = 0;  // zb-auto: activations a rank may hold; 0 = ranks
  bool split = false;  // backward split into I and W (always for the zero-bubble ones)
  StageCosts costs;
};

const std::vector<std::string>& scheme_names();

// The chunks per rank a scheme uses when the request says 0, and whether it
// accepts another count.
int default_chunks(const std::string& scheme);
bool chunks_adjustable(const std::string& scheme);
// Whether a scheme always splits the backward into I and W.
bool always_split(const std::string& scheme);

// Throws std::invalid_argument for an unknown scheme, sizes below 1, or
// sizes the reference implementation refuses (the message says why).
Schedule generate_scheme(const SchemeRequest& request);

// The pieces, one file per family.
RankOrders gpipe_orders(int ranks, int nmicros, bool split);
RankOrders one_f_one_b_orders(int ranks, int nmicros, bool split);

// Megatron-LM's order for one rank: +k forward / -k backward of local chunk
// k-1 (docs/formats.md, "megatron-order"), with microbatch group size `group` (Megatron's default:
// the number of ranks).
std::vector<int> megatron_rank_order(int ranks, int rank, int chunks, int nmicros, int group);
// Megatron's checks of the group size (std::invalid_argument).
void check_megatron_group(int ranks, int nmicros, int group);
// PyTorch's flexible rounds: the group size micro-batches / max(1,
// micro-batches // ranks) (std::invalid_argument when it does not divide).
int pytorch_round_size(int ranks, int nmicros);
// Megatron's signed chunk codes -> actions: local chunk c on rank r is stage
// c * ranks + r; the micro-batch counts per chunk and direction; a split
// backward puts each W right after its I.
RankOrders megatron_actions(const std::vector<std::vector<int>>& orders, int ranks, bool split);
// PyTorch's ScheduleLoopedBFS and ScheduleInterleavedZeroBubble (interleaved.cpp).
RankOrders looped_bfs_orders(int ranks, int chunks, int nmicros, bool split);
std::vector<Action> interleaved_zb_rank_order(int ranks, int rank, int chunks, int nmicros);

// Zero-bubble orders by list scheduling (zero_bubble.cpp).
RankOrders zb_h1_orders(const StageGraph& graph, int nmicros);
RankOrders zb_h2_orders(const StageGraph& graph, int nmicros);
RankOrders zb_v_orders(const StageGraph& graph, int nmicros);
// The zero-bubble repository's heuristic under a memory limit (zb_auto.cpp).
RankOrders zb_auto_orders(const StageGraph& graph, int nmicros, long long memory_limit);
// V-Half (minimal = false) and V-Min (v_schedules.cpp).
RankOrders v_schedule_orders(int ranks, int nmicros, bool minimal);
// DualPipeV (v stage map) and bidirectional DualPipe (dualpipe.cpp).
RankOrders dualpipev_orders(int ranks, int nmicros);
RankOrders dualpipe_orders(int ranks, int nmicros);

}  // namespace tessel::classic
