// DeepSeek's DualPipe and DualPipeV (DeepSeek-V3 technical report, 2024;
// deepseek-ai/DualPipe, dualpipe/dualpipe.py and dualpipe/dualpipev.py,
// DualPipe.step / DualPipeV.step; PyTorch's ScheduleDualPipeV in
// torch/distributed/pipelining/schedules.py writes the same order as a table,
// test/distributed/pipelining/artifacts/dualpipev_4rank_10mb.csv).
//
// Both run eight steps per rank over two "phases", each rank holding two
// chunks. Counters per phase number the forwards and the backwards; a
// backward run "zero bubble" is an input backward I whose weight backward W
// is queued (WeightGradStore) and later popped oldest first by a W step; any
// other backward is full. An overlapped step (_forward_backward_chunk) waits
// for both of its inputs and runs a forward of one phase with a full backward
// of the other at once: one fused unit of span FB.
//   1: F0 x 2(n-h-1)        2: (F0 F1) x (h+1)        3: (I1 W F1) x (n-h-1)
//   4: (F0&B1, F1&B0) x (C - 2n + h + 1), its first F0&B1 run unfused as
//      F0 B1 on the middle rank(s)
//   5: (B1, F1&B0) x (n-h-1)
//   6: (B1 B0) x (h+1), switching to zero-bubble backwards in the middle:
//      before the B1 of round (h+1)//2 when h is odd, before its B0 when even
//   7: (W I0) x (n-h-1)     8: W x (h+1)
// DualPipeV: n = ranks, h = rank, C = micro-batches (>= 2 ranks); phase 0 is
// stage r and phase 1 stage 2n-1-r of a "v" stage map; the middle rank is the
// last one. DualPipe: n = ranks / 2, h = min(r, ranks-1-r), C = micro-batches
// / 2 per direction; the first half of the ranks calls the "down" direction
// phase 0, the second half the "up" one (phase ^= is_in_second_half); the
// middle ranks are ranks/2 - 1 and ranks/2. Stage s of the down direction
// is on rank s, of the up direction on rank ranks-1-s (stage_graph.hpp).
#include <deque>
#include <stdexcept>

#include "classic/schemes.hpp"

namespace tessel::classic {

namespace {

// The order of one rank under construction, with DualPipe's counters.
struct DualRank {
  int stage[2] = {0, 0};
  bool reverse[2] = {false, false};
  int forwards[2] = {0, 0};
  int backwards[2] = {0, 0};
  std::deque<Action> weights;  // queued W's, oldest first
  std::vector<Action> order;

  void forward(int phase, bool overlaps_next = false) {
    order.push_back({'F', stage[phase], forwards[phase]++, reverse[phase], overlaps_next});
  }
  void backward(int phase, bool zero_bubble = false) {
    int micro = backwards[phase]++;
    if (!zero_bubble) {
      order.push_back({'B', stage[phase], micro, reverse[phase]});
      return;
    }
    order.push_back({'I', stage[phase], micro, reverse[phase]});
    weights.push_back({'W', stage[phase], micro, reverse[phase]});
  }
  void weight() {
    if (weights.empty()) throw std::logic_error("DualPipe pops a W that was never queued");
    order.push_back(weights.front());
    weights.pop_front();
  }
  void overlapped(int forward_phase, int backward_phase) {
    forward(forward_phase, true);
    backward(backward_phase);
  }
};

// The eight steps; `rank` has its phases set. n, h, C as at the top.
std::vector<Action> dual_steps(DualRank& rank, int n, int h, int chunks, bool middle) {
  for (int i = 0; i < 2 * (n - h - 1); ++i) rank.forward(0);
  for (int i = 0; i < h + 1; ++i) {
    rank.forward(0);
    rank.forward(1);
  }
  for (int i = 0; i < n - h - 1; ++i) {
    rank.backward(1, true);
    rank.weight();
    rank.forward(1);
  }
  for (int i = 0; i < chunks - 2 * n + h + 1; ++i) {
    if (i == 0 && middle) {
      rank.forward(0);
      rank.backward(1);
    } else {
      rank.overlapped(0, 1);
    }
    rank.overlapped(1, 0);
  }
  for (int i = 0; i < n - h - 1; ++i) {
    rank.backward(1);
    rank.overlapped(1, 0);
  }
  bool zero_bubble = false;
  for (int i = 0; i < h + 1; ++i) {
    if (i == (h + 1) / 2 && h % 2 == 1) zero_bubble = true;
    rank.backward(1, zero_bubble);
    if (i == (h + 1) / 2 && h % 2 == 0) zero_bubble = true;
    rank.backward(0, zero_bubble);
  }
  for (int i = 0; i < n - h - 1; ++i) {
    rank.weight();
    rank.backward(0, true);
  }
  for (int i = 0; i < h + 1; ++i) rank.weight();
  if (!rank.weights.empty()) throw std::logic_error("DualPipe left queued W's");
  return rank.order;
}

}  // namespace

RankOrders dualpipev_orders(int ranks, int nmicros) {
  if (ranks < 1) throw std::invalid_argument("DualPipeV needs at least one rank");
  if (nmicros < 2 * ranks)
    throw std::invalid_argument("DualPipeV needs at least 2 x ranks = " + std::to_string(2 * ranks) +
                                " micro-batches (DualPipeV.step asserts num_chunks >= num_ranks * 2)");
  RankOrders orders;
  for (int r = 0; r < ranks; ++r) {
    DualRank rank;
    rank.stage[0] = r;
    rank.stage[1] = 2 * ranks - 1 - r;
    orders.push_back(dual_steps(rank, ranks, r, nmicros, r == ranks - 1));
  }
  return orders;
}

RankOrders dualpipe_orders(int ranks, int nmicros) {
  if (ranks < 2 || ranks % 2 != 0) throw std::invalid_argument("DualPipe needs an even number of ranks");
  if (nmicros % 2 != 0 || nmicros < 2 * ranks)
    throw std::invalid_argument("DualPipe needs an even number of micro-batches, at least 2 x ranks = " +
                                std::to_string(2 * ranks) + " (half in each direction; DualPipe.step asserts it)");
  int half = ranks / 2;
  RankOrders orders;
  for (int r = 0; r < ranks; ++r) {
    DualRank rank;
    bool second_half = r >= half;
    // Phase p is the down direction when p ^ second_half == 0.
    for (int phase = 0; phase < 2; ++phase) {
      bool up = (phase ^ static_cast<int>(second_half)) == 1;
      rank.reverse[phase] = up;
      rank.stage[phase] = up ? ranks - 1 - r : r;
    }
    int h = std::min(r, ranks - 1 - r);
    orders.push_back(dual_steps(rank, half, h, nmicros / 2, r == half - 1 || r == half));
  }
  return orders;
}

}  // namespace tessel::classic
