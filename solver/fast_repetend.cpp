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
#include "solver/fast_repetend.hpp"

#include <algorithm>
#include <functional>

#include "solver/modulo_check.hpp"

namespace tessel {
namespace {

// What every construction needs to know about the placement, computed once.
struct Shape {
  const Placement& placement;
  std::vector<int> order;                 // blocks by (earliest start, index): a dependency order
  std::vector<std::vector<int>> preds;
  std::vector<int> front;                 // tensor-parallel blocks for the window's front, in order
  std::vector<int> back;                  // ... and for its back, last block first
  std::vector<std::vector<int>> singles;  // per device, its one-device blocks in dependency order
};

Shape make_shape(const Placement& placement) {
  Shape shape{placement, {}, predecessors(placement), {}, {}, std::vector<std::vector<int>>(placement.ndevs)};
  const std::vector<Time> earliest = earliest_starts(placement);
  const int critical = critical_path(placement);
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

// Busy phases of every device on the circle of length P.
struct Circle {
  int period;
  std::vector<std::vector<char>> busy;

  Circle(int ndevs, int period_) : period(period_), busy(ndevs, std::vector<char>(period_, 0)) {}
  bool free(const std::vector<int>& devices, int phase, int span) const {
    for (int device : devices)
      for (int step = 0; step < span; ++step)
        if (busy[device][(phase + step) % period]) return false;
    return true;
  }
  void take(const std::vector<int>& devices, int phase, int span) {
    for (int device : devices)
      for (int step = 0; step < span; ++step) busy[device][(phase + step) % period] = 1;
  }
};

// Tensor-parallel blocks at the two ends of the window, without wrapping.
// False when one finds no phase free on all its devices.
bool reserve_ends(const Shape& shape, Circle& circle, std::vector<int>& phase) {
  const int period = circle.period;
  for (int b : shape.front) {
    const Block& block = shape.placement.blocks[b];
    int at = 0;
    while (at + block.span <= period && !circle.free(block.devices, at, block.span)) ++at;
    if (at + block.span > period) return false;
    circle.take(block.devices, at, block.span);
    phase[b] = at;
  }
  for (int b : shape.back) {
    const Block& block = shape.placement.blocks[b];
    int at = period - block.span;
    while (at >= 0 && !circle.free(block.devices, at, block.span)) --at;
    if (at < 0) return false;
    circle.take(block.devices, at, block.span);
    phase[b] = at;
  }
  return true;
}

ModuloSolution normalised(const Placement& placement, int period, std::vector<int> starts) {
  const int earliest = starts.empty() ? 0 : *std::min_element(starts.begin(), starts.end());
  int latency = 0;
  for (size_t b = 0; b < starts.size(); ++b) {
    starts[b] -= earliest;
    latency = std::max<Time>(latency, starts[b] + placement.blocks[b].span);
  }
  return {period, starts, latency, (latency + period - 1) / period};
}

int ready_time(const Shape& shape, const std::vector<int>& starts, int b) {
  int ready = 0;
  for (int pred : shape.preds[b]) ready = std::max<Time>(ready, starts[pred] + shape.placement.blocks[pred].span);
  return ready;
}

// The smallest start >= ready with this phase.
int next_with_phase(int ready, int phase, int period) {
  if (ready <= phase) return phase;
  return phase + (ready - phase + period - 1) / period * period;
}

ModuloSolution with_offsets(const Shape& shape, int period, const std::vector<int>& phase) {
  std::vector<int> starts(shape.placement.blocks.size(), 0);
  for (int b : shape.order) starts[b] = next_with_phase(ready_time(shape, starts, b), phase[b], period);
  return normalised(shape.placement, period, starts);
}

std::optional<ModuloSolution> compact(const Shape& shape, int period, bool flip) {
  const Placement& placement = shape.placement;
  Circle circle(placement.ndevs, period);
  std::vector<int> phase(placement.blocks.size(), -1);
  if (!reserve_ends(shape, circle, phase)) return std::nullopt;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<int> blocks = shape.singles[device];
    if (flip && device % 2 == 1) std::reverse(blocks.begin(), blocks.end());
    int cursor = 0;
    for (int b : blocks) {
      const Block& block = placement.blocks[b];
      auto first_free = [&](int from) {
        for (int at = from; at + block.span <= period; ++at)
          if (circle.free(block.devices, at, block.span)) return at;
        return -1;
      };
      int at = first_free(cursor);
      if (at < 0) at = first_free(0);
      if (at < 0) return std::nullopt;
      circle.take(block.devices, at, block.span);
      phase[b] = at;
      cursor = at + block.span;
    }
  }
  return with_offsets(shape, period, phase);
}

std::optional<ModuloSolution> modulo_list(const Shape& shape, int period, bool reserve) {
  const Placement& placement = shape.placement;
  Circle circle(placement.ndevs, period);
  std::vector<int> phase(placement.blocks.size(), -1);
  if (reserve && !reserve_ends(shape, circle, phase)) return std::nullopt;
  std::vector<int> starts(placement.blocks.size(), 0);
  for (int b : shape.order) {
    const Block& block = placement.blocks[b];
    const int ready = ready_time(shape, starts, b);
    if (phase[b] >= 0) {
      starts[b] = next_with_phase(ready, phase[b], period);
      continue;
    }
    int at = ready;
    while (at < ready + period && !circle.free(block.devices, at % period, block.span)) ++at;
    if (at == ready + period) return std::nullopt;
    circle.take(block.devices, at % period, block.span);
    starts[b] = at;
  }
  return normalised(placement, period, starts);
}

struct Constructed {
  ModuloSolution solution;
  std::string construction;
};

// Periods L .. last_period - 1; the first one with an accepted candidate.
std::optional<Constructed> construct_below(const Placement& placement, const std::vector<long long>& memory_limit,
                                           const std::vector<int>& alone, int max_in_flight, int last_period,
                                           int& candidates) {
  const Shape shape = make_shape(placement);
  for (int period = period_lower_bound(placement); period < last_period; ++period) {
    std::optional<Constructed> best;
    auto consider = [&](const std::optional<ModuloSolution>& candidate, const char* name) {
      ++candidates;
      if (!candidate) return;
      if (modulo_violation(placement, memory_limit, *candidate, max_in_flight)) return;
      if (!best || candidate->latency < best->solution.latency) best = Constructed{*candidate, name};
    };
    consider(compact(shape, period, true), "compact");
    consider(compact(shape, period, false), "compact-unflipped");
    consider(modulo_list(shape, period, true), "list-ends");
    consider(modulo_list(shape, period, false), "list");
    if (!alone.empty()) consider(normalised(placement, period, alone), "alone-overlapped");
    if (best) return best;
  }
  return std::nullopt;
}

}  // namespace

ModuloSolution one_at_a_time(const Placement& placement, const std::vector<int>& alone) {
  ModuloSolution solution = normalised(placement, 1, alone);
  solution.period = std::max<Time>(solution.latency, period_lower_bound(placement));
  solution.in_flight = 1;
  return solution;
}

FastRepetend fast_repetend(const Placement& placement, const std::vector<long long>& memory_limit,
                           const std::vector<int>& alone, int max_in_flight) {
  const ModuloSolution last_resort = one_at_a_time(placement, alone);
  FastRepetend result{last_resort, "one-at-a-time", 0};
  std::optional<Constructed> found =
      construct_below(placement, memory_limit, alone, max_in_flight, last_resort.period, result.candidates);
  if (found) {
    result.solution = found->solution;
    result.construction = found->construction;
  }
  return result;
}

ModuloSolution fast_or_fallback(const Placement& placement, const std::vector<long long>& memory_limit,
                                int max_in_flight, const ModuloSolution& fallback) {
  int candidates = 0;
  std::optional<Constructed> found =
      construct_below(placement, memory_limit, fallback.starts, max_in_flight, fallback.period, candidates);
  return found ? found->solution : fallback;
}

}  // namespace tessel
