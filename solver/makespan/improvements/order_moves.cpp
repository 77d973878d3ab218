// Tabu search on per-device orders (order_moves.hpp). The orders are kept as
// lists of instance ids (micro-batch x blocks + block); a run times them as
// soon as possible and records for every instance the predecessor that
// decided its start, from which the longest path is read back.
#include "solver/makespan/improvements/order_moves.hpp"

#include "classic/order_timing.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace tessel {
namespace {

// The search's effort, developer knobs (solver/knobs/tuning.hpp, tabu_*), read
// from the Tuning the search was given.
struct Effort {
  unsigned seed = 0;            // the random choices repeat from run to run
  int tenure_least = 0;         // steps a swap stays forbidden to undo, at least
  int tenure_spread = 1;        // plus a random 0 .. this less one
  int steps_without_gain = 0;   // then back to the best orders, perturbed
  int perturb_swaps = 0;        // random memory-safe swaps on a restart
  // Moves run exactly per step, the best by their estimate: running all of
  // them (hundreds on a long path) costs 20 times more per step and found no
  // shorter schedules in the same time on the interleaved zero-bubble rows.
  size_t exactly_run = 1;
  // An instance of a run is moved before the run's first only from this
  // many places after it: on 16 ranks a run on the longest path holds
  // hundreds of instances, and moving the far ones (estimated in
  // O(distance) each) took most of a step and found less (interleaved zero
  // bubble, N 32: 440 in 3 s within 16 places, 443 without a limit).
  int reach = 0;
};

Effort effort_of(const Tuning& tuning) {
  Effort effort;
  effort.seed = static_cast<unsigned>(tuning.tabu_seed);
  effort.tenure_least = static_cast<int>(tuning.tabu_tenure_least);
  effort.tenure_spread = std::max(1, static_cast<int>(tuning.tabu_tenure_spread));
  effort.steps_without_gain = static_cast<int>(tuning.tabu_steps_without_gain);
  effort.perturb_swaps = static_cast<int>(tuning.tabu_perturb_swaps);
  effort.exactly_run = static_cast<size_t>(std::max(1.0, tuning.tabu_exactly_run));
  effort.reach = static_cast<int>(tuning.tabu_reach);
  return effort;
}

struct Flat {
  int nblocks = 0;
  int total_micros = 0;
  std::vector<int> device;                               // per block
  std::vector<Time> span;                                // per block
  std::vector<Memory> memory;                            // per block
  std::vector<std::vector<std::pair<int, Time>>> preds;  // per block: (block, delay)
  std::vector<std::vector<int>> succs;                   // per block
  std::vector<Memory> limit;                             // per device; empty: none
  // Per instance id (micro x nblocks + block): its block and micro-batch,
  // looked up rather than divided out, since a run asks them of every
  // instance it times (with the neighbours kept by the Searcher, 1.5x the
  // steps per second on xshape, 8 devices, spans x1000: the division and the
  // chain of lookups to a neighbour were most of a run's time).
  std::vector<int> block_of;
  std::vector<int> micro_of;
};

struct Timing {
  bool runs = false;  // false: the orders deadlock
  Time makespan = 0;
  long long flow = 0;        // sum of all ends: slack ranks better
  std::vector<Time> start;   // per instance id
  std::vector<int> binding;  // per instance id: what decided its start, or -1
  std::vector<int> topological;  // instance ids in the order they were timed
};

using Orders = std::vector<std::vector<int>>;

Flat flatten(const Schedule& schedule, const std::vector<Memory>& memory_limit) {
  const Placement& placement = schedule.placement;
  Flat flat;
  flat.nblocks = static_cast<int>(placement.blocks.size());
  flat.total_micros = schedule.nmicros;
  flat.preds.resize(flat.nblocks);
  flat.succs.resize(flat.nblocks);
  for (const Block& block : placement.blocks) {
    flat.device.push_back(block.devices.front());
    flat.span.push_back(block.span);
    flat.memory.push_back(block.memory);
  }
  for (const Edge& edge : placement.edges) {
    flat.preds[edge.to].emplace_back(edge.from, edge.delay);
    flat.succs[edge.from].push_back(edge.to);
  }
  flat.limit = memory_limit;
  for (int micro = 0; micro < flat.total_micros; ++micro)
    for (int block = 0; block < flat.nblocks; ++block) {
      flat.block_of.push_back(block);
      flat.micro_of.push_back(micro);
    }
  return flat;
}

int id_of(const Flat& flat, int block, int micro) { return micro * flat.nblocks + block; }

Orders orders_of(const Flat& flat, const Schedule& schedule, int ndevs) {
  std::vector<const Instance*> sorted;
  for (const Instance& instance : schedule.instances) sorted.push_back(&instance);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Instance* a, const Instance* b) { return a->start < b->start; });
  Orders orders(ndevs);
  for (const Instance* instance : sorted)
    orders[flat.device[instance->block]].push_back(id_of(flat, instance->block, instance->micro));
  return orders;
}

bool within_memory(const Flat& flat, const std::vector<int>& order, int device) {
  if (flat.limit.empty()) return true;
  Memory level = 0;
  for (int id : order) {
    level += flat.memory[flat.block_of[id]];
    if (level > flat.limit[device]) return false;
  }
  return true;
}

// A move takes one instance from its place in its device's order to another.
struct Move {
  int id = -1;
  int from = 0;
  int to = 0;
};

struct Searcher {
  const Flat& flat;
  const Effort& effort;
  Orders orders;
  std::vector<int> position;    // per instance id: index in its device's order
  // Per instance id: the one before and after it on its device, or -1; kept
  // beside the orders because a run asks them of every instance it times.
  std::vector<int> previous, next;
  std::vector<int> tabu_until;  // per instance id: not moved again before this step
  std::vector<Time> tail;           // per instance id, for the current orders (prepare)
  std::vector<Memory> level_before;  // per instance id, likewise
  std::vector<int> segment;         // scratch of estimate()
  std::vector<Time> heads;          // likewise
  std::vector<int> by_start;        // instance ids by their start, for the current orders (prepare)
  std::vector<Time> latest_end;     // latest end of by_start[0..i]
  std::vector<long long> ends_sum;  // sum of the ends of by_start[0..i]
  std::vector<int> waiting, ready;  // scratch of run()
  std::mt19937 random;
  OrderMovesStats stats;

  Searcher(const Flat& flat_, const Effort& effort_, Orders orders_)
      : flat(flat_), effort(effort_), orders(std::move(orders_)), random(effort_.seed) {
    tabu_until.assign(flat.nblocks * flat.total_micros, 0);
    index();
  }
  int device_of(int id) const { return flat.device[flat.block_of[id]]; }
  void index() {
    const size_t count = static_cast<size_t>(flat.nblocks) * flat.total_micros;
    position.assign(count, 0);
    previous.assign(count, -1);
    next.assign(count, -1);
    for (size_t device = 0; device < orders.size(); ++device)
      link(static_cast<int>(device), 0, static_cast<int>(orders[device].size()) - 1);
  }
  void reindex(int device, int from, int to) { link(device, std::min(from, to) - 1, std::max(from, to) + 1); }
  // Positions and neighbours of the device's places low..high (clipped).
  void link(int device, int low, int high) {
    const std::vector<int>& order = orders[device];
    const int size = static_cast<int>(order.size());
    for (int i = std::max(0, low); i <= std::min(high, size - 1); ++i) {
      position[order[i]] = i;
      previous[order[i]] = i > 0 ? order[i - 1] : -1;
      next[order[i]] = i + 1 < size ? order[i + 1] : -1;
    }
  }
  void apply(const Move& move) {
    std::vector<int>& order = orders[device_of(move.id)];
    if (move.from < move.to)
      std::rotate(order.begin() + move.from, order.begin() + move.from + 1, order.begin() + move.to + 1);
    else
      std::rotate(order.begin() + move.to, order.begin() + move.from, order.begin() + move.from + 1);
    reindex(device_of(move.id), move.from, move.to);
  }
  void undo(const Move& move) { apply({move.id, move.to, move.from}); }
  bool fits(int id) const { return within_memory(flat, orders[device_of(id)], device_of(id)); }
  Timing evaluate() { return run(nullptr, 0); }

  // The moves that may shorten the longest path. Along it, a run of one
  // device's instances back to back is what a device succession costs; only
  // changing the order inside or around such a run can shorten it: its
  // first or last instance swapped with its neighbour (the job-shop moves),
  // or an instance of the run moved before the run's first (its work taken
  // out of the run) or to the earliest place where its inputs are ready
  // (into an idle gap before the run).
  std::vector<Move> critical_moves(const Timing& timing) const {
    int last = 0;
    for (size_t id = 0; id < timing.start.size(); ++id)
      if (timing.start[id] + flat.span[flat.block_of[id]] == timing.makespan) last = static_cast<int>(id);
    std::vector<int> path;  // from the end back to the start
    for (int id = last; id >= 0; id = timing.binding[id]) path.push_back(id);
    std::reverse(path.begin(), path.end());
    std::vector<Move> moves;
    for (size_t begin = 0, end = 0; begin < path.size(); begin = end) {
      end = begin + 1;
      while (end < path.size() && device_of(path[end]) == device_of(path[begin]) &&
             timing.binding[path[end]] == path[end - 1])
        ++end;
      if (end - begin < 2) continue;
      const int first = position[path[begin]], final = position[path[end - 1]];
      moves.push_back({path[begin], first, first + 1});
      moves.push_back({path[end - 1], final, final - 1});
      for (size_t k = begin + 2; k < end; ++k) {
        const int id = path[k];
        if (position[id] - first > effort.reach) break;
        moves.push_back({id, position[id], first});
        const int slot = earliest_slot(timing, id);
        if (slot < first) moves.push_back({id, position[id], slot});
      }
    }
    return moves;
  }
  // The first place in the device's order whose instance starts no earlier
  // than `id`'s inputs are ready.
  int earliest_slot(const Timing& timing, int id) const {
    const int block = flat.block_of[id], micro = flat.micro_of[id];
    Time ready = 0;
    for (const auto& [from, delay] : flat.preds[block])
      ready = std::max(ready, timing.start[id_of(flat, from, micro)] + flat.span[from] + delay);
    const std::vector<int>& order = orders[device_of(id)];
    const auto at = std::partition_point(order.begin(), order.begin() + position[id],
                                         [&](int other) { return timing.start[other] < ready; });
    return static_cast<int>(at - order.begin());
  }
  // Per step: every instance's tail (from its start to the end of the
  // longest path through it) and the memory level before it.
  // Instance ids by start, ties by id: a counting sort while the makespan
  // is within a few times the instances (starts are below it), a
  // comparison sort beyond, where the counts would take 4 bytes per tick
  // (5 GB for a makespan of 1.3 billion ticks, a long delay).
  void sort_by_start(const Timing& timing) {
    const size_t count = timing.start.size();
    by_start.resize(count);
    if (static_cast<double>(timing.makespan) > 8.0 * static_cast<double>(count) + 4096) {
      for (size_t id = 0; id < count; ++id) by_start[id] = static_cast<int>(id);
      std::stable_sort(by_start.begin(), by_start.end(),
                       [&](int a, int b) { return timing.start[a] < timing.start[b]; });
      return;
    }
    std::vector<int>& first = waiting;
    first.assign(timing.makespan + 2, 0);
    for (Time start : timing.start) ++first[start + 1];
    for (size_t t = 1; t < first.size(); ++t) first[t] += first[t - 1];
    for (size_t id = 0; id < count; ++id) by_start[first[timing.start[id]]++] = static_cast<int>(id);
  }

  void prepare(const Timing& timing) {
    tail.assign(timing.start.size(), 0);
    for (auto it = timing.topological.rbegin(); it != timing.topological.rend(); ++it) {
      const int id = *it, block = flat.block_of[id], micro = flat.micro_of[id];
      Time after = 0;
      if (next[id] >= 0) after = tail[next[id]];
      for (int to : flat.succs[block]) after = std::max(after, delay_of(block, to) + tail[id_of(flat, to, micro)]);
      tail[id] = flat.span[block] + after;
    }
    level_before.assign(timing.start.size(), 0);
    for (const std::vector<int>& order : orders) {
      Memory level = 0;
      for (int id : order) level_before[id] = level, level += flat.memory[flat.block_of[id]];
    }
    sort_by_start(timing);
    latest_end.assign(by_start.size(), 0);
    ends_sum.assign(by_start.size(), 0);
    for (size_t i = 0; i < by_start.size(); ++i) {
      const Time end = timing.start[by_start[i]] + flat.span[flat.block_of[by_start[i]]];
      latest_end[i] = std::max(i > 0 ? latest_end[i - 1] : 0, end);
      ends_sum[i] = (i > 0 ? ends_sum[i - 1] : 0) + end;
    }
  }
  // The orders run as soon as possible, in a topological order found as
  // they run (Kahn's algorithm: an instance is ready once its dependencies
  // and its device predecessor have run; an order that deadlocks leaves
  // some never ready). With `base`, the timing before a move (given to
  // prepare()), only the instances that started at or after `changed`, the
  // first start the move reorders, are run again: every other keeps its
  // start (all it waits for started earlier still, and the move changes
  // nothing there).
  Timing run(const Timing* base, Time changed) {
    ++stats.evaluations;
    const size_t count = static_cast<size_t>(flat.nblocks) * flat.total_micros;
    auto again = [&](int id) { return !base || base->start[id] >= changed; };
    Timing timing;
    size_t kept = 0;
    if (base) {
      kept = static_cast<size_t>(std::partition_point(by_start.begin(), by_start.end(),
                                                      [&](int id) { return base->start[id] < changed; }) -
                                 by_start.begin());
      timing.start = base->start;
      timing.binding = base->binding;
      timing.topological.assign(by_start.begin(), by_start.begin() + kept);
      timing.makespan = kept > 0 ? latest_end[kept - 1] : 0;
      timing.flow = kept > 0 ? ends_sum[kept - 1] : 0;
    } else {
      timing.start.assign(count, 0);
      timing.binding.assign(count, -1);
    }
    timing.topological.reserve(count);
    waiting.resize(count);
    ready.clear();
    for (size_t i = kept; i < count; ++i) {
      const int id = base ? by_start[i] : static_cast<int>(i), block = flat.block_of[id], micro = flat.micro_of[id];
      const int before = previous[id];
      int wait = before >= 0 && again(before) ? 1 : 0;
      for (const auto& [from, delay] : flat.preds[block]) wait += again(id_of(flat, from, micro)) ? 1 : 0;
      waiting[id] = wait;
      if (wait == 0) ready.push_back(id);
    }
    size_t done = kept;
    auto release = [&](int id) {
      if (id >= 0 && again(id) && --waiting[id] == 0) ready.push_back(id);
    };
    while (!ready.empty()) {
      const int id = ready.back(), block = flat.block_of[id], micro = flat.micro_of[id];
      ready.pop_back();
      ++done;
      timing.topological.push_back(id);
      const int before = previous[id];
      Time start = 0;
      timing.binding[id] = -1;
      if (before >= 0) start = timing.start[before] + flat.span[flat.block_of[before]], timing.binding[id] = before;
      for (const auto& [from, delay] : flat.preds[block]) {
        const int from_id = id_of(flat, from, micro);
        const Time after = timing.start[from_id] + flat.span[from] + delay;
        if (after > start) start = after, timing.binding[id] = from_id;
      }
      timing.start[id] = start;
      timing.makespan = std::max(timing.makespan, start + flat.span[block]);
      timing.flow += start + flat.span[block];
      release(next[id]);
      for (int to : flat.succs[block]) release(id_of(flat, to, micro));
    }
    timing.runs = done == count;
    return timing;
  }
  // The longest path through the instances a move reorders, their heads
  // and tails recomputed along the new order from the unchanged ones around
  // them (the job-shop estimate: exact unless the move also changes a path
  // through another device); -1 when the new order passes the memory limit.
  Time estimate(const Move& move, const Timing& timing) {
    const int device = device_of(move.id);
    const std::vector<int>& order = orders[device];
    const int low = std::min(move.from, move.to), high = std::max(move.from, move.to);
    segment.clear();
    for (int i = low; i <= high; ++i)
      if (i != move.from) segment.push_back(order[i]);
    segment.insert(segment.begin() + (move.to - low), move.id);
    if (!flat.limit.empty()) {
      Memory level = level_before[order[low]];
      for (int id : segment)
        if ((level += flat.memory[flat.block_of[id]]) > flat.limit[device]) return -1;
    }
    heads.clear();
    Time free = low > 0 ? timing.start[order[low - 1]] + flat.span[flat.block_of[order[low - 1]]] : 0;
    for (int id : segment) {
      const int block = flat.block_of[id], micro = flat.micro_of[id];
      Time head = free;
      for (const auto& [from, delay] : flat.preds[block])
        head = std::max(head, timing.start[id_of(flat, from, micro)] + flat.span[from] + delay);
      heads.push_back(head);
      free = head + flat.span[block];
    }
    Time after = high + 1 < static_cast<int>(order.size()) ? tail[order[high + 1]] : 0, longest = 0;
    for (int k = static_cast<int>(segment.size()) - 1; k >= 0; --k) {
      const int id = segment[k], block = flat.block_of[id], micro = flat.micro_of[id];
      for (int to : flat.succs[block]) after = std::max(after, delay_of(block, to) + tail[id_of(flat, to, micro)]);
      after += flat.span[block];
      longest = std::max(longest, heads[k] + after);
    }
    return longest;
  }
  Time delay_of(int from, int to) const {
    for (const auto& [block, delay] : flat.preds[to])
      if (block == from) return delay;
    return 0;
  }
  bool tabu(const Move& move) const { return tabu_until[move.id] > stats.steps; }
  void perturb() {
    for (int done = 0, tries = 0; done < effort.perturb_swaps && tries < 50 * effort.perturb_swaps; ++tries) {
      const int device = static_cast<int>(random() % orders.size());
      if (orders[device].size() < 2) continue;
      const int i = static_cast<int>(random() % (orders[device].size() - 1));
      const Move move{orders[device][i], i, i + 1};
      apply(move);
      if (fits(move.id) && evaluate().runs) {
        ++done;
        continue;
      }
      undo(move);
    }
  }
};

bool better(const Timing& a, const Timing& b) {
  return a.makespan < b.makespan || (a.makespan == b.makespan && a.flow < b.flow);
}

struct Step {
  Move move;
  Timing timing;
};

// The best move from `current` that fits the memory limits, does not
// deadlock and is not tabu (unless it beats `shortest`, the best makespan
// so far), by its exact run among the best by estimate; even a longer one.
std::optional<Step> best_step(Searcher& searcher, const Timing& current, Time shortest) {
  const std::vector<Move> moves = searcher.critical_moves(current);
  searcher.prepare(current);
  std::vector<std::pair<Time, size_t>> ranked;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (moves[i].from == moves[i].to) continue;
    const Time estimate = searcher.estimate(moves[i], current);
    if (estimate < 0 || (searcher.tabu(moves[i]) && estimate >= shortest)) continue;
    ranked.emplace_back(estimate, i);
  }
  std::sort(ranked.begin(), ranked.end());
  if (ranked.size() > searcher.effort.exactly_run) ranked.resize(searcher.effort.exactly_run);
  std::optional<Step> chosen;
  for (const auto& [estimate, i] : ranked) {
    const Move& move = moves[i];
    const Time changed = current.start[searcher.orders[searcher.device_of(move.id)][std::min(move.from, move.to)]];
    searcher.apply(move);
    Timing timing = searcher.run(&current, changed);
    searcher.undo(move);
    const bool allowed = !searcher.tabu(moves[i]) || timing.makespan < shortest;
    if (timing.runs && allowed && (!chosen || better(timing, chosen->timing))) chosen = Step{moves[i], std::move(timing)};
  }
  return chosen;
}

// The schedule of the orders, timed by the shared routine
// (classic/order_timing.hpp), not by the search's own incremental
// evaluation: what the phase offers honours every rule by construction (the
// two agree, ASAP starts of given orders being unique; `start` compacted
// when they could not run).
Schedule schedule_of(const Schedule& start, const Flat& flat, const Orders& orders) {
  classic::DeviceOrders lists(orders.size());
  for (size_t device = 0; device < orders.size(); ++device)
    for (int id : orders[device]) lists[device].push_back({flat.block_of[id], flat.micro_of[id], false, 0});
  const classic::OrderTiming timing = classic::time_orders(start.placement, lists);
  if (!timing.possible()) return compacted(start);
  Schedule result = start;
  result.repetend.reset();
  result.instances = timing.instances;
  sort_instances(result);
  return result;
}

// The progress rule of a stalling grant (tuning's order_stall_steps): on a
// deadline that carries the portfolio's stall, the search gives up once
// more steps passed since its last gain than the knob or than the steps it
// took to reach that gain, whichever is more: patience that grows with what
// the search has shown it can find, counted in steps, so that a loaded
// machine ends it at the same step as an idle one. Without a stall (the
// side thread, a budget set by hand, the tests' direct calls) it never
// gives up.
void give_up_when_idle(const Deadline& deadline, double least, int steps, int last_gain) {
  if (!deadline.stall || least <= 0) return;
  if (steps - last_gain > std::max(least, static_cast<double>(last_gain))) deadline.stall->give_up();
}

}  // namespace

bool order_moves_apply(const Schedule& schedule) {
  if (!schedule.fused.empty() || schedule.nmicros <= 0) return false;
  for (const Block& block : schedule.placement.blocks)
    if (block.devices.size() != 1) return false;
  return schedule.instances.size() == schedule.placement.blocks.size() * static_cast<size_t>(schedule.nmicros);
}

Schedule improve_by_order_moves(const Schedule& start, const std::vector<Memory>& memory_limit,
                                const Deadline& deadline, Time bound, OrderMovesStats* stats_out,
                                const OnShorter& on_shorter, const Tuning& tuning) {
  if (!order_moves_apply(start)) return start;
  const Flat flat = flatten(start, memory_limit);
  const Effort effort = effort_of(tuning);
  Searcher searcher(flat, effort, orders_of(flat, start, start.placement.ndevs));
  Timing current = searcher.evaluate();
  if (!current.runs) return start;  // not a valid schedule's orders
  Orders best_orders = searcher.orders;
  Timing best = current;
  int since_gain = 0;
  int last_gain = 0;  // the step of the last shorter makespan
  while (best.makespan > bound && !deadline.expired()) {
    std::optional<Step> step = best_step(searcher, current, best.makespan);
    if (!step || ++since_gain > effort.steps_without_gain) {
      searcher.orders = best_orders;
      searcher.index();
      searcher.perturb();
      current = searcher.evaluate();
      ++searcher.stats.restarts;
      since_gain = 0;
      continue;
    }
    searcher.apply(step->move);
    ++searcher.stats.steps;
    searcher.tabu_until[step->move.id] =
        searcher.stats.steps + effort.tenure_least + static_cast<int>(searcher.random() % effort.tenure_spread);
    current = std::move(step->timing);
    if (current.makespan >= best.makespan) {
      give_up_when_idle(deadline, tuning.order_stall_steps, searcher.stats.steps, last_gain);
      continue;
    }
    last_gain = searcher.stats.steps;
    best = current;
    best_orders = searcher.orders;
    since_gain = 0;
    ++searcher.stats.improvements;
    if (on_shorter) on_shorter(schedule_of(start, flat, best_orders));
  }
  if (stats_out) *stats_out = searcher.stats;
  return schedule_of(start, flat, best_orders);
}

}  // namespace tessel
