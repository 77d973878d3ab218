// Interleaved 1F1B (Narayanan et al. 2021, "virtual pipeline stages"): every
// rank holds V model chunks, local chunk c of rank r being global stage
// c * ranks + r, in the two orders that run it today.
//
// Megatron-LM (megatron/core/pipeline_parallel/schedules.py,
// get_schedule_table and get_pp_rank_microbatches; the order itself as
// megatron/core/transformer/cuda_graphs.py convert_schedule_table_to_order
// prints it): micro-batches go in groups of G (config
// microbatch_group_size_per_vp_stage, default the number of ranks; the last
// group takes what is left); per group, chunk 0 of all of them, then chunk 1,
// ... Forwards follow this table; backwards follow it with the chunks
// reversed. Rank r runs w = 2 (ranks - r - 1) + (V - 1) G warmup forwards (at
// most all of them), then one forward / one backward alternately, then the
// last w backwards. Megatron refuses G outside [ranks, M] and a last group
// of 1..ranks-1 micro-batches (forward_backward_pipelining_with_interleaving);
// so do we. Releases before commit 4295be1a (Nov 2024) also ran everything
// as warmup when M == ranks; the current code does not, nor do we.
//
// PyTorch (torch/distributed/pipelining/schedules.py,
// ScheduleInterleaved1F1B with _get_warmup_ops and _get_1f1b_rank_ops):
// "flexible rounds": rounds = max(1, M // ranks), G = M / rounds (M must be a
// multiple of rounds), then the same table and warmup. It differs from
// Megatron when M is not a multiple of the ranks: at 6 and 10 micro-batches
// on 4 ranks PyTorch uses groups of 6 and 5, Megatron groups of 4 (4+2,
// which Megatron refuses, and 4+4+2).
//
// ScheduleLoopedBFS (same PyTorch file) is breadth-first: each rank runs all
// forwards of its first chunk, then of its second, ..., then the backwards
// chunk by chunk from the last, each chunk's micro-batches in reverse order.
//
// ScheduleInterleavedZeroBubble (same file; the ZB-1P schedule of Qi et al.
// 2024 on interleaved chunks): the table above with PyTorch's G, warmup
// (V - 1) G + (ranks - r - 1) (multiply_factor 1), each backward split into
// I and W: after warmup every forward is followed by an input backward, and
// from the rank-th one on by the oldest pending W; the cooldown runs the
// remaining I's, each followed by a W from the rank-th on; the pending W's
// come last. PyTorch's _add_bubbles_to_actions only pads idle steps; the
// order is unchanged, and tessel times it by running it as soon as possible.
#include <algorithm>
#include <stdexcept>

#include "classic/schemes.hpp"

namespace tessel::classic {

namespace {

// The chunk of each virtual micro-batch (Megatron's schedule table).
std::vector<int> schedule_table(int chunks, int nmicros, int group) {
  std::vector<int> table;
  for (int first = 0; first < nmicros; first += group) {
    int last = first + group >= nmicros ? nmicros : first + group;
    for (int chunk = 0; chunk < chunks; ++chunk)
      for (int micro = first; micro < last; ++micro) table.push_back(chunk);
  }
  return table;
}

}  // namespace

void check_megatron_group(int ranks, int nmicros, int group) {
  if (group > nmicros || group < ranks)
    throw std::invalid_argument("Megatron needs the micro-batch group size in [ranks, micro-batches] = [" +
                                std::to_string(ranks) + ", " + std::to_string(nmicros) + "], got " +
                                std::to_string(group) + " (try --flavour pytorch)");
  int last = nmicros % group;
  if (last > 0 && last < ranks)
    throw std::invalid_argument("Megatron refuses a last micro-batch group of " + std::to_string(last) +
                                " (between 1 and ranks - 1 = " + std::to_string(ranks - 1) +
                                "): micro-batches % group must be 0 or >= ranks (try --flavour pytorch or --group)");
}

int pytorch_round_size(int ranks, int nmicros) {
  int rounds = std::max(1, nmicros / ranks);
  if (nmicros % rounds != 0)
    throw std::invalid_argument("PyTorch's interleaved schedules need the micro-batches (" + std::to_string(nmicros) +
                                ") to be a multiple of the rounds max(1, micro-batches // ranks) = " +
                                std::to_string(rounds));
  return nmicros / rounds;
}

std::vector<int> megatron_rank_order(int ranks, int rank, int chunks, int nmicros, int group) {
  if (group < 1) throw std::invalid_argument("the microbatch group size must be >= 1");
  std::vector<int> table = schedule_table(chunks, nmicros, group);
  int total = static_cast<int>(table.size());
  int warmup = std::min(2 * (ranks - rank - 1) + (chunks - 1) * group, total);
  auto forward = [&](int i) { return table[i] + 1; };
  auto backward = [&](int i) { return -(chunks - table[i]); };
  std::vector<int> order;
  for (int i = 0; i < warmup; ++i) order.push_back(forward(i));
  for (int i = warmup; i < total; ++i) {
    order.push_back(forward(i));
    order.push_back(backward(i - warmup));
  }
  for (int i = total - warmup; i < total; ++i) order.push_back(backward(i));
  return order;
}

RankOrders megatron_actions(const std::vector<std::vector<int>>& orders, int ranks, bool split) {
  RankOrders actions(orders.size());
  for (int rank = 0; rank < static_cast<int>(orders.size()); ++rank) {
    std::vector<int> forwards, backwards;  // per chunk: micro-batches seen so far
    for (int code : orders[rank]) {
      if (code == 0) throw std::invalid_argument("Megatron order entry 0");
      int chunk = std::abs(code) - 1;
      if (static_cast<int>(forwards.size()) <= chunk) {
        forwards.resize(chunk + 1, 0);
        backwards.resize(chunk + 1, 0);
      }
      int stage = chunk * ranks + rank;
      if (code > 0) {
        actions[rank].push_back({'F', stage, forwards[chunk]++});
        continue;
      }
      int micro = backwards[chunk]++;
      actions[rank].push_back({split ? 'I' : 'B', stage, micro});
      if (split) actions[rank].push_back({'W', stage, micro});
    }
  }
  return actions;
}

RankOrders looped_bfs_orders(int ranks, int chunks, int nmicros, bool split) {
  RankOrders orders(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    for (int chunk = 0; chunk < chunks; ++chunk)
      for (int micro = 0; micro < nmicros; ++micro) orders[rank].push_back({'F', chunk * ranks + rank, micro});
    for (int chunk = chunks - 1; chunk >= 0; --chunk)
      for (int micro = nmicros - 1; micro >= 0; --micro) {
        orders[rank].push_back({split ? 'I' : 'B', chunk * ranks + rank, micro});
        if (split) orders[rank].push_back({'W', chunk * ranks + rank, micro});
      }
  }
  return orders;
}

std::vector<Action> interleaved_zb_rank_order(int ranks, int rank, int chunks, int nmicros) {
  int group = pytorch_round_size(ranks, nmicros);
  int total = chunks * nmicros;
  int warmup = std::min((chunks - 1) * group + (ranks - 1 - rank), total);
  auto forward_stage = [&](int op) { return ((op / group) % chunks) * ranks + rank; };
  auto backward_stage = [&](int op) { return (chunks - 1 - ((op - warmup) / group) % chunks) * ranks + rank; };
  std::vector<int> next_forward(chunks * ranks, 0), next_input(chunks * ranks, 0), next_weight(chunks * ranks, 0);
  std::vector<int> backward_ops;  // the ops whose I has run, in order
  size_t weights_done = 0;
  std::vector<Action> order;
  auto add_weight = [&]() {
    int stage = backward_stage(backward_ops[weights_done++]);
    order.push_back({'W', stage, next_weight[stage]++});
  };
  for (int op = 0; op < total + warmup; ++op) {
    if (op < total) {
      int stage = forward_stage(op);
      order.push_back({'F', stage, next_forward[stage]++});
      if (op < warmup) continue;
    }
    int stage = backward_stage(op);
    order.push_back({'I', stage, next_input[stage]++});
    backward_ops.push_back(op);
    if (op - warmup >= rank) add_weight();
  }
  while (weights_done < backward_ops.size()) add_weight();
  return order;
}

}  // namespace tessel::classic
