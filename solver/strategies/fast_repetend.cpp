// Strategy `fast` (see the header): phases first, offsets second, checked.
//
// The constructions, tried at every period P from L upward:
// - "compact" (the Tessel-fast packing): tensor-parallel blocks (on several
//   devices) get their phases first, those of the first half of a micro-batch
//   packed from the window's front and those of the second half from its
//   back, so that each sits at the same phase on all its devices and leaves
//   one contiguous middle on every device. Each device's own blocks then fill
//   the middle in dependency order, reversed on odd devices: a device whose
//   forward block comes late in the window hands it to the next device, whose
//   forward block comes early, so a micro-batch crosses two devices per window
//   instead of one and fewer micro-batches are in flight (less memory).
// - "compact-unflipped": the same without reversing.
// - "list-ends" and "list": modulo list scheduling — blocks in dependency
//   order, each at the first step after its predecessors whose phase is free
//   on all its devices; "list-ends" first reserves the ends for the
//   tensor-parallel blocks as "compact" does. It follows the dependencies, so
//   it gives short latencies (little memory) once P leaves some slack.
// - "alone-overlapped": one micro-batch's own schedule run every P steps.
// Offsets: in dependency order, each block takes the smallest start with its
// phase after its predecessors end.
#include "solver/strategies/fast_repetend.hpp"

#include <algorithm>
#include <functional>

#include "solver/modulo/modulo_check.hpp"

namespace tessel {
namespace {

// What every construction needs to know about the placement, computed once.
struct Shape {
  const Placement& placement;
  std::vector<int> order;                 // blocks by (earliest start, index): a dependency order
  std::vector<std::vector<std::pair<int, Time>>> preds;  // per block: (predecessor, delay)
  std::vector<int> front;                 // tensor-parallel blocks for the window's front, in order
  std::vector<int> back;                  // ... and for its back, last block first
  std::vector<std::vector<int>> singles;  // per device, its one-device blocks in dependency order
};

Shape make_shape(const Placement& placement) {
  Shape shape{placement, {}, std::vector<std::vector<std::pair<int, Time>>>(placement.blocks.size()), {}, {},
              std::vector<std::vector<int>>(placement.ndevs)};
  for (const Edge& edge : placement.edges) shape.preds[edge.to].push_back({edge.from, edge.delay});
  const std::vector<Time> earliest = earliest_starts(placement);
  // One micro-batch's critical path, read off its earliest starts.
  Time longest = 0;
  for (size_t b = 0; b < placement.blocks.size(); ++b) longest = std::max(longest, earliest[b] + placement.blocks[b].span);
  const int critical = static_cast<int>(longest);
  for (size_t b = 0; b < placement.blocks.size(); ++b) shape.order.push_back(static_cast<int>(b));
  std::stable_sort(shape.order.begin(), shape.order.end(),
                   [&](int a, int b) { return earliest[a] < earliest[b]; });
  for (int b : shape.order) {
    const Block& block = placement.blocks[b];
    if (block.devices.size() == 1) {
      shape.singles[block.devices.front()].push_back(b);
      continue;
    }
    // The half of a micro-batch it belongs to: where its middle falls.
    if (2 * earliest[b] + block.span <= critical) shape.front.push_back(b);
    else shape.back.push_back(b);
  }
  std::reverse(shape.back.begin(), shape.back.end());
  return shape;
}

// Busy intervals of every device on the circle of length P, kept as sorted
// [begin, end) pieces of [0, P) (a wrapping interval is two pieces), so that
// the cost of a question grows with the number of blocks, never with P.
struct Circle {
  long long period;
  std::vector<std::vector<std::pair<long long, long long>>> busy;

  Circle(int ndevs, long long period_) : period(period_), busy(ndevs) {}

  // [phase, phase + span) with phase in [0, P) as at most two pieces of [0, P).
  std::vector<std::pair<long long, long long>> pieces(long long phase, long long span) const {
    if (phase + span <= period) return {{phase, phase + span}};
    return {{phase, period}, {0, phase + span - period}};
  }
  bool free(const std::vector<int>& devices, long long phase, long long span) const {
    if (span > period) return false;
    for (const auto& [begin, end] : pieces(phase % period, span))
      for (int device : devices)
        for (const auto& [b, e] : busy[device])
          if (b < end && begin < e) return false;
    return true;
  }
  void take(const std::vector<int>& devices, long long phase, long long span) {
    for (const auto& piece : pieces(phase % period, span))
      for (int device : devices) {
        auto& list = busy[device];
        list.insert(std::upper_bound(list.begin(), list.end(), piece), piece);
      }
  }
  // Phases where a free stretch can begin: 0 and every busy piece's end, on
  // the given devices (the first free phase at or after any point is one of
  // them or that point itself).
  std::vector<long long> openings(const std::vector<int>& devices) const {
    std::vector<long long> result{0};
    for (int device : devices)
      for (const auto& piece : busy[device]) result.push_back(piece.second % period);
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
  }
  // Phases where a free stretch of `span` can end: P and every piece's begin.
  std::vector<long long> closings(const std::vector<int>& devices) const {
    std::vector<long long> result{period};
    for (int device : devices)
      for (const auto& piece : busy[device]) result.push_back(piece.first);
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
  }
  // The first phase in [from, P - span] (no wrapping) where the interval is
  // free on all the devices, or -1.
  long long first_free_within(const std::vector<int>& devices, long long from, long long span) const {
    std::vector<long long> candidates{from};
    for (long long at : openings(devices))
      if (at > from) candidates.push_back(at);
    std::sort(candidates.begin(), candidates.end());
    for (long long at : candidates) {
      if (at + span > period) break;
      if (free(devices, at, span)) return at;
    }
    return -1;
  }
  // The last phase in [0, P - span] (no wrapping) where it is free, or -1.
  long long last_free_within(const std::vector<int>& devices, long long span) const {
    std::vector<long long> candidates;
    for (long long end : closings(devices))
      if (end - span >= 0) candidates.push_back(end - span);
    std::sort(candidates.rbegin(), candidates.rend());
    for (long long at : candidates)
      if (at + span <= period && free(devices, at, span)) return at;
    return -1;
  }
  // The first time t >= ready (t mod P may wrap) where it is free, or -1.
  long long first_free_after(const std::vector<int>& devices, long long ready, long long span) const {
    const long long base = ready % period;
    std::vector<long long> offsets{0};  // from ready
    for (long long at : openings(devices)) offsets.push_back((at - base + period) % period);
    std::sort(offsets.begin(), offsets.end());
    for (long long offset : offsets)
      if (free(devices, (base + offset) % period, span)) return ready + offset;
    return -1;
  }
};

// Tensor-parallel blocks at the two ends of the window, without wrapping.
// False when one finds no phase free on all its devices.
bool reserve_ends(const Shape& shape, Circle& circle, std::vector<int>& phase) {
  for (int b : shape.front) {
    const Block& block = shape.placement.blocks[b];
    const long long at = circle.first_free_within(block.devices, 0, block.span);
    if (at < 0) return false;
    circle.take(block.devices, at, block.span);
    phase[b] = static_cast<int>(at);
  }
  for (int b : shape.back) {
    const Block& block = shape.placement.blocks[b];
    const long long at = circle.last_free_within(block.devices, block.span);
    if (at < 0) return false;
    circle.take(block.devices, at, block.span);
    phase[b] = static_cast<int>(at);
  }
  return true;
}

int ready_time(const Shape& shape, const std::vector<int>& starts, int b) {
  Time ready = 0;
  for (const auto& [pred, delay] : shape.preds[b])
    ready = std::max<Time>(ready, starts[pred] + shape.placement.blocks[pred].span + delay);
  return static_cast<int>(ready);
}

// The smallest start >= ready with this phase.
int next_with_phase(int ready, int phase, int period) {
  if (ready <= phase) return phase;
  return phase + (ready - phase + period - 1) / period * period;
}

ModuloSolution with_offsets(const Shape& shape, int period, const std::vector<int>& phase) {
  std::vector<int> starts(shape.placement.blocks.size(), 0);
  for (int b : shape.order) starts[b] = next_with_phase(ready_time(shape, starts, b), phase[b], period);
  return modulo_solution(shape.placement, period, starts);
}

// The constructions below read the deadline once per block: on thousands of
// blocks one construction takes most of a second, and a time limit must hold.
std::optional<ModuloSolution> compact(const Shape& shape, int period, bool flip, const Deadline& deadline) {
  const Placement& placement = shape.placement;
  Circle circle(placement.ndevs, period);
  std::vector<int> phase(placement.blocks.size(), -1);
  if (!reserve_ends(shape, circle, phase)) return std::nullopt;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<int> blocks = shape.singles[device];
    if (flip && device % 2 == 1) std::reverse(blocks.begin(), blocks.end());
    int cursor = 0;
    for (int b : blocks) {
      if (deadline.expired()) return std::nullopt;
      const Block& block = placement.blocks[b];
      long long at = circle.first_free_within(block.devices, cursor, block.span);
      if (at < 0) at = circle.first_free_within(block.devices, 0, block.span);
      if (at < 0) return std::nullopt;
      circle.take(block.devices, at, block.span);
      phase[b] = static_cast<int>(at);
      cursor = static_cast<int>(at + block.span);
    }
  }
  return with_offsets(shape, period, phase);
}

std::optional<ModuloSolution> modulo_list(const Shape& shape, int period, bool reserve, const Deadline& deadline) {
  const Placement& placement = shape.placement;
  Circle circle(placement.ndevs, period);
  std::vector<int> phase(placement.blocks.size(), -1);
  if (reserve && !reserve_ends(shape, circle, phase)) return std::nullopt;
  std::vector<int> starts(placement.blocks.size(), 0);
  for (int b : shape.order) {
    if (deadline.expired()) return std::nullopt;
    const Block& block = placement.blocks[b];
    const int ready = ready_time(shape, starts, b);
    if (phase[b] >= 0) {
      starts[b] = next_with_phase(ready, phase[b], period);
      continue;
    }
    const long long at = circle.first_free_after(block.devices, ready, block.span);
    if (at < 0) return std::nullopt;
    circle.take(block.devices, at % period, block.span);
    starts[b] = static_cast<int>(at);
  }
  return modulo_solution(placement, period, starts);
}

struct Constructed {
  ModuloSolution solution;
  std::string construction;
};

// The periods below `last_period` walked: up to `one_by_one` of them
// (the developer knob fast_periods_one_by_one, 256) are tried one by one;
// wider ranges (time values in ticks of a measured profile: thousands of
// periods between L and the fallback) are walked on a grid of that many
// points and the first accepted one is bisected down to its grid neighbour,
// so that the cost never grows with the time values. Acceptance is not
// monotone in P, so on a grid the answer may miss a shorter period the step
// jumped over; it proves nothing either way.
struct PeriodWalk {
  int last_period = 0;
  long long one_by_one = 256;
  Deadline deadline;
};

// The best candidate at one period, if any is accepted before the deadline.
std::optional<Constructed> construct_at(const Shape& shape, const std::vector<long long>& memory_limit,
                                        const std::vector<int>& alone, int max_in_flight, int period,
                                        const Deadline& deadline, int& candidates) {
  const Placement& placement = shape.placement;
  std::optional<Constructed> best;
  auto consider = [&](std::optional<ModuloSolution>&& candidate, const char* name) {
    ++candidates;
    if (!candidate || deadline.expired()) return;
    if (modulo_violation(placement, memory_limit, *candidate, max_in_flight)) return;
    if (!best || candidate->latency < best->solution.latency) best = Constructed{std::move(*candidate), name};
  };
  consider(compact(shape, period, true, deadline), "compact");
  consider(compact(shape, period, false, deadline), "compact-unflipped");
  consider(modulo_list(shape, period, true, deadline), "list-ends");
  consider(modulo_list(shape, period, false, deadline), "list");
  if (!alone.empty()) consider(modulo_solution(placement, period, alone), "alone-overlapped");
  return best;
}

// Periods L .. last_period - 1; the first one with an accepted candidate,
// or at the deadline the best accepted so far.
std::optional<Constructed> construct_below(const Placement& placement, const std::vector<long long>& memory_limit,
                                           const std::vector<int>& alone, int max_in_flight, const PeriodWalk& walk,
                                           int& candidates) {
  const Shape shape = make_shape(placement);
  const long long lower = period_lower_bound(placement);
  const int last_period = walk.last_period;
  const Deadline& deadline = walk.deadline;
  const long long points = std::max<long long>(1, walk.one_by_one);
  const long long step = std::max<long long>(1, (last_period - lower + points - 1) / points);
  for (long long period = lower; period < last_period && !deadline.expired(); period += step) {
    std::optional<Constructed> best =
        construct_at(shape, memory_limit, alone, max_in_flight, static_cast<int>(period), deadline, candidates);
    if (!best) continue;
    long long rejected = std::max(lower - 1, period - step);
    while (period - rejected > 1 && !deadline.expired()) {
      const long long middle = rejected + (period - rejected) / 2;
      if (auto shorter = construct_at(shape, memory_limit, alone, max_in_flight, static_cast<int>(middle), deadline,
                                      candidates)) {
        best = std::move(shorter);
        period = middle;
      } else {
        rejected = middle;
      }
    }
    return best;
  }
  return std::nullopt;
}

}  // namespace

ModuloSolution one_at_a_time(const Placement& placement, const std::vector<int>& alone) {
  ModuloSolution solution = modulo_solution(placement, 1, alone);
  solution.period = std::max<Time>(solution.latency, period_lower_bound(placement));
  solution.in_flight = 1;
  return solution;
}

FastRepetend fast_repetend(const Placement& placement, const std::vector<long long>& memory_limit,
                           const std::vector<int>& alone, int max_in_flight, const Deadline& deadline,
                           long long periods_one_by_one) {
  const ModuloSolution last_resort = one_at_a_time(placement, alone);
  FastRepetend result{last_resort, "one-at-a-time", 0};
  std::optional<Constructed> found =
      construct_below(placement, memory_limit, alone, max_in_flight,
                      {static_cast<int>(last_resort.period), periods_one_by_one, deadline}, result.candidates);
  if (found) {
    result.solution = std::move(found->solution);
    result.construction = found->construction;
  }
  return result;
}

ModuloSolution fast_or_fallback(const Placement& placement, const std::vector<long long>& memory_limit,
                                int max_in_flight, ModuloSolution fallback, const Deadline& deadline,
                                long long periods_one_by_one) {
  int candidates = 0;
  std::optional<Constructed> found =
      construct_below(placement, memory_limit, fallback.starts, max_in_flight,
                      {static_cast<int>(fallback.period), periods_one_by_one, deadline}, candidates);
  if (found) return std::move(found->solution);
  return fallback;
}

}  // namespace tessel
