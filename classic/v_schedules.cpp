// The controllable-memory V schedules V-Half and V-Min (Qi et al., "Pipeline
// Parallelism with Controllable Memory", 2024), built exactly as the
// zero-bubble repository builds them: sail-sg/zero-bubble-pipeline-
// parallelism, megatron/core/pipeline_parallel/zerobubble/scheduler/
// zbv_greedy.py, class PipelineGraph (stable_pattern_v_half/_v_min, put_w,
// mem_of_stage, reorder, eager_execution_time, schedule_from_pattern,
// create_schedule). Rewritten here from that description:
//
// Every rank r holds two chunks of a "v" stage map (chunk 0 = stage r, chunk
// 1 = stage 2p-1-r). Time is a grid of unit slots. Six kinds of work per rank
// and micro-batch: F (chunk 0 forward), f (chunk 1 forward), B (chunk 1 input
// backward), b (chunk 0 input backward), and the weight backwards. The
// pattern gives each rank the slot of its first F, f, B, b; micro-batch j
// repeats them every 6 slots. Then:
//  1. put_w: walk the slots; every B/b adds a pending W; an empty slot takes
//     the oldest pending W (split_w: the chunk-1 W first); what remains goes
//     after the last slot.
//  2. reorder (twice: with the W's placed, then without them, W's implicit
//     and consuming empty slots for the memory count): visit the work in
//     (slot, rank, kind, micro) order; from the visit of rank 0's first b
//     until rank 0's last F, keep everything in place; otherwise move each
//     item to the earliest free slot after its dependencies (previous
//     micro-batch of the same kind, the neighbouring rank's same kind, the
//     previous kind on the rank; a W after the micro-th B/b of its rank) that
//     keeps the rank's peak memory (F, f +1; W -1; B, b 0) within the
//     pattern's; then squeeze: start every item as soon as possible in its
//     rank's order with unit costs (eager_execution_time).
//  3. put_w with split W's on the result, and order each rank's work by slot.
// The order depends only on the pattern, never on the costs; tessel runs it
// as soon as possible with the real spans, which is what
// eager_execution_time does with them (no communication cost here).
// Activation memory (chunk units, half a stage): V-Half (p+2)//2 stages,
// V-Min (p+4)//3 stages of 1F1B's p, checked in the tests.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "classic/schemes.hpp"

namespace tessel::classic {

namespace {

using Slots = std::vector<long long>;      // slot of each micro-batch of one kind
using RankSlots = std::vector<Slots>;      // per kind (4, 5 or 6 kinds)
using AllSlots = std::vector<RankSlots>;   // per rank

constexpr long long kNone = std::numeric_limits<long long>::max();

std::vector<std::vector<long long>> v_pattern(int stages, bool minimal) {
  std::vector<std::vector<long long>> pattern;
  if (minimal) {
    long long gap = stages % 3 == 0 ? 2 : 0;
    for (long long i = 0; i < stages; ++i)
      pattern.push_back({i, 2LL * stages - i - 1, 2LL * stages + gap + i, 4LL * stages + gap - i - 1});
    return pattern;
  }
  long long gap = stages % 2 == 0 ? 3 : 0;
  for (long long i = 0; i < stages; ++i)
    pattern.push_back({2 * i, 3LL * stages - i - 2, 3LL * stages + gap + 2 * i - 1, 6LL * stages + gap - i - 2});
  return pattern;
}

long long last_slot(const RankSlots& rank) {
  long long bound = std::numeric_limits<long long>::min();
  for (const Slots& kind : rank) bound = std::max(bound, kind.back());
  return bound;
}

// The (slot, kind) of the next unvisited item among `kinds` kinds, or kNone.
std::pair<long long, int> next_item(const RankSlots& rank, const std::vector<size_t>& at, int kinds) {
  std::pair<long long, int> best{kNone, 0};
  for (int kind = 0; kind < kinds; ++kind) {
    long long slot = at[kind] < rank[kind].size() ? rank[kind][at[kind]] : kNone;
    if (slot < best.first) best = {slot, kind};
  }
  return best;
}

// put_w: adds one W kind (or two, chunk 1's first, when split) filling empty slots.
void put_weights(RankSlots& rank, bool split) {
  long long bound = last_slot(rank);
  rank.resize(split ? 6 : 5);
  int pending[2] = {0, 0};
  std::vector<size_t> at(rank.size(), 0);
  long long slot = 0;
  for (slot = 0; slot <= bound; ++slot) {
    auto [time, kind] = next_item(rank, at, 4);
    if (time == kNone) throw std::logic_error("put_w ran out of work");
    if (time == slot) {
      ++at[kind];
      if (kind >= 2) ++pending[split ? kind - 2 : 0];
      continue;
    }
    for (int w = 0; w < 2; ++w)
      if (pending[w]) {
        rank[4 + w].push_back(slot);
        --pending[w];
        break;
      }
  }
  slot = bound;
  for (int w = 0; w < 2; ++w)
    while (pending[w] > 0) {
      rank[4 + w].push_back(++slot);
      --pending[w];
    }
}

// mem_of_stage: the rank's peak memory; without W kinds, an empty slot frees
// one pending unit.
long long peak_of(const RankSlots& rank) {
  static const long long memory[] = {1, 1, 0, 0, -1};
  bool has_weights = rank.size() > 4;
  long long bound = last_slot(rank);
  std::vector<size_t> at(rank.size(), 0);
  long long current = 0, peak = 0, pending = 0;
  for (long long slot = 0; slot <= bound; ++slot) {
    auto [time, kind] = next_item(rank, at, static_cast<int>(rank.size()));
    if (time == kNone) throw std::logic_error("mem_of_stage ran out of work");
    if (time == slot) {
      ++at[kind];
      current += memory[kind];
      if (kind == 2 || kind == 3) ++pending;
    } else if (!has_weights && pending) {
      current += memory[4];
      --pending;
    }
    peak = std::max(peak, current);
  }
  return peak;
}

struct Visit {
  long long slot;
  int rank, kind;
  size_t micro;
};

// The next item in (slot, rank, kind, micro) order over all ranks.
Visit next_visit(const AllSlots& all, const std::vector<std::vector<size_t>>& at, int kinds) {
  Visit best{kNone, 0, 0, 0};
  for (int rank = 0; rank < static_cast<int>(all.size()); ++rank)
    for (int kind = 0; kind < kinds; ++kind) {
      size_t micro = at[rank][kind];
      long long slot = micro < all[rank][kind].size() ? all[rank][kind][micro] : kNone;
      if (std::tie(slot, rank, kind, micro) < std::tie(best.slot, best.rank, best.kind, best.micro))
        best = {slot, rank, kind, micro};
    }
  if (best.slot == kNone) throw std::logic_error("no work left to visit");
  return best;
}

struct Eager {
  std::vector<RankSlots> starts;                   // per rank, kind, micro
  std::vector<std::vector<std::pair<int, int>>> order;  // per rank: (kind, micro) in run order
};

// eager_execution_time: every item as soon as possible in slot order, with
// the given cost per kind.
Eager run_eagerly(const AllSlots& all, const std::vector<long long>& cost) {
  int kinds = static_cast<int>(cost.size());
  int ranks = static_cast<int>(all.size());
  std::vector<std::vector<size_t>> at(ranks, std::vector<size_t>(kinds, 0));
  std::vector<RankSlots> end(ranks, RankSlots(kinds));
  Eager result;
  result.order.resize(ranks);
  size_t total = 0;
  for (const Slots& kind : all[0]) total += kind.size();
  total *= ranks;
  for (size_t i = 0; i < total; ++i) {
    Visit v = next_visit(all, at, kinds);
    ++at[v.rank][v.kind];
    long long ready = 0;
    if ((v.kind == 0 || v.kind == 2) && v.rank > 0) ready = std::max(ready, end[v.rank - 1][v.kind].at(v.micro));
    if ((v.kind == 1 || v.kind == 3) && v.rank + 1 < ranks) ready = std::max(ready, end[v.rank + 1][v.kind].at(v.micro));
    if (v.kind > 0 && v.kind < 4) ready = std::max(ready, end[v.rank][v.kind - 1].at(v.micro));
    if (v.micro > 0) ready = std::max(ready, end[v.rank][v.kind].at(v.micro - 1));
    if (!result.order[v.rank].empty()) {
      auto [kind, micro] = result.order[v.rank].back();
      ready = std::max(ready, end[v.rank][kind][micro]);
    }
    if (end[v.rank][v.kind].size() != v.micro) throw std::logic_error("eager run out of order");
    end[v.rank][v.kind].push_back(ready + cost[v.kind]);
    result.order[v.rank].push_back({v.kind, static_cast<int>(v.micro)});
  }
  result.starts = end;
  for (int rank = 0; rank < ranks; ++rank)
    for (int kind = 0; kind < kinds; ++kind)
      for (long long& time : result.starts[rank][kind]) time -= cost[kind];
  return result;
}

// The earliest slot an item may move to (the `deps` of reorder).
long long earliest_slot(const AllSlots& all, const Visit& v) {
  int ranks = static_cast<int>(all.size());
  const RankSlots& own = all[v.rank];
  long long ready = -1;
  if ((v.kind == 0 || v.kind == 2) && v.rank > 0) ready = std::max(ready, all[v.rank - 1][v.kind][v.micro]);
  if ((v.kind == 1 || v.kind == 3) && v.rank + 1 < ranks) ready = std::max(ready, all[v.rank + 1][v.kind][v.micro]);
  if (v.kind > 0 && v.kind < 4) ready = std::max(ready, own[v.kind - 1][v.micro]);
  if (v.kind == 4) {
    Slots backwards = own[2];
    backwards.insert(backwards.end(), own[3].begin(), own[3].end());
    std::sort(backwards.begin(), backwards.end());
    ready = std::max(ready, backwards.at(v.micro));
  }
  if (v.micro > 0) ready = std::max(ready, own[v.kind][v.micro - 1]);
  return ready + 1;
}

std::vector<RankSlots> reorder(AllSlots all, bool with_weights) {
  int kinds = 4;
  if (with_weights) {
    for (RankSlots& rank : all) put_weights(rank, false);
    kinds = 5;
  }
  long long limit = 0;
  for (const RankSlots& rank : all) limit = std::max(limit, peak_of(rank));
  int ranks = static_cast<int>(all.size());
  std::vector<std::vector<size_t>> at(ranks, std::vector<size_t>(kinds, 0));
  std::vector<std::vector<bool>> occupied;
  for (const RankSlots& rank : all) occupied.emplace_back(last_slot(rank) + 1, false);
  size_t total = 0;
  for (int kind = 0; kind < kinds; ++kind) total += all[0][kind].size();
  total *= ranks;
  int phase = 0;
  size_t micros = all[0][0].size();
  for (size_t i = 0; i < total; ++i) {
    Visit v = next_visit(all, at, kinds);
    ++at[v.rank][v.kind];
    long long& slot = all[v.rank][v.kind][v.micro];
    if (v.kind == 3 && v.rank == 0 && phase == 0) phase = 1;
    bool keep = phase == 1 || (phase == 0 && !with_weights);
    if (phase == 1 && v.kind == 0 && v.micro == micros - 1) phase = 2;
    if (!keep) {
      long long from = earliest_slot(all, v), original = slot;
      if (from > original) throw std::logic_error("reorder: an item before its dependencies");
      bool moved = false;
      for (long long candidate = from; candidate < original && !moved; ++candidate) {
        if (occupied[v.rank][candidate]) continue;
        slot = candidate;
        moved = peak_of(all[v.rank]) <= limit;
      }
      if (!moved) slot = original;
    }
    occupied[v.rank][slot] = true;
  }
  if (!with_weights)
    for (RankSlots& rank : all) put_weights(rank, false);
  return run_eagerly(all, {1, 1, 1, 1, 1}).starts;
}

}  // namespace

RankOrders v_schedule_orders(int ranks, int nmicros, bool minimal) {
  if (ranks < 1 || nmicros < 1) throw std::invalid_argument("v schedules need ranks and micro-batches >= 1");
  AllSlots all;
  for (const std::vector<long long>& first : v_pattern(ranks, minimal)) {
    RankSlots rank;
    for (long long start : first) {
      Slots kind;
      for (int micro = 0; micro < nmicros; ++micro) kind.push_back(start + 6LL * micro);
      rank.push_back(kind);
    }
    all.push_back(rank);
  }
  AllSlots squeezed = reorder(all, true);
  for (RankSlots& rank : squeezed) rank.resize(4);
  squeezed = reorder(squeezed, false);
  for (RankSlots& rank : squeezed) {
    rank.resize(4);
    put_weights(rank, true);
  }
  Eager final_run = run_eagerly(squeezed, {1, 1, 1, 1, 1, 1});
  RankOrders orders(ranks);
  int stages = 2 * ranks;
  for (int rank = 0; rank < ranks; ++rank)
    for (auto [kind, micro] : final_run.order[rank]) {
      // Kinds F, f, B, b, W, w: chunk 0, 1, 1, 0, 1, 0.
      bool chunk1 = kind == 1 || kind == 2 || kind == 4;
      int stage = chunk1 ? stages - 1 - rank : rank;
      char letter = kind < 2 ? 'F' : kind < 4 ? 'I' : 'W';
      orders[rank].push_back({letter, stage, micro});
    }
  return orders;
}

}  // namespace tessel::classic
