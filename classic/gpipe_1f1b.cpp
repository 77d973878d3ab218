// GPipe and 1F1B: one stage per rank, the two textbook orders.
//
// GPipe (Huang et al. 2019) runs all forwards, then all backwards: simple,
// but every micro-batch's activations are alive at once. 1F1B (PipeDream-
// Flush, Narayanan et al. 2021) runs `ranks - rank - 1` warmup forwards, then
// alternates one forward and one backward, then drains the rest: the same
// bubble as GPipe, (p-1)/(m+p-1), at a peak of only `p - rank` activations.
// With a split backward, each W directly follows its I.
#include "classic/schemes.hpp"

#include <algorithm>

namespace tessel::classic {

namespace {

void add_backward(std::vector<Action>& order, int stage, int micro, bool split) {
  order.push_back({split ? 'I' : 'B', stage, micro});
  if (split) order.push_back({'W', stage, micro});
}

}  // namespace

RankOrders gpipe_orders(int ranks, int nmicros, bool split) {
  RankOrders orders(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    for (int micro = 0; micro < nmicros; ++micro) orders[rank].push_back({'F', rank, micro});
    for (int micro = 0; micro < nmicros; ++micro) add_backward(orders[rank], rank, micro, split);
  }
  return orders;
}

RankOrders one_f_one_b_orders(int ranks, int nmicros, bool split) {
  RankOrders orders(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    std::vector<Action>& order = orders[rank];
    int warmup = std::min(ranks - rank - 1, nmicros);
    for (int micro = 0; micro < warmup; ++micro) order.push_back({'F', rank, micro});
    for (int step = 0; step + warmup < nmicros; ++step) {
      order.push_back({'F', rank, warmup + step});
      add_backward(order, rank, step, split);
    }
    for (int micro = std::max(nmicros - warmup, 0); micro < nmicros; ++micro)
      add_backward(order, rank, micro, split);
  }
  return orders;
}

}  // namespace tessel::classic
