// Warmup and cooldown around a modulo repetend (see the header for the idea).
#include "solver/warmup_cooldown.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <stdexcept>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/schedule_check.hpp"

namespace tessel {

Schedule truncated_modulo_schedule(const Placement& placement, const std::vector<long long>& memory_limit,
                                   const ModuloSolution& solution, int nmicros) {
  Schedule schedule = empty_schedule(placement, memory_limit, nmicros);
  for (int micro = 0; micro < nmicros; ++micro)
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      schedule.instances.push_back({static_cast<int>(b), micro, micro * solution.period + solution.starts[b]});
  if (nmicros >= solution.in_flight) {
    int window = (solution.in_flight - 1) * solution.period;
    schedule.repetend = Repetend{window, window + solution.period, solution.period, 1};
  }
  sort_instances(schedule);
  return schedule;
}

//------------------------------------------------------------------------------
// The squeeze. Instances are addressed by (block, micro); `modulo` is where the
// truncated schedule puts them. Cooldown first (as early as possible), then
// the warmup (as late as possible, never past its modulo time, so that in a
// longer unrolled schedule the warmup still finishes before what follows).

namespace {

struct Squeeze {
  const Placement& placement;
  const ModuloSolution& solution;
  Time window_start;
  Time window_end;

  Time modulo(int block, int micro) const { return Time{micro} * solution.period + solution.starts[block]; }
  bool in_warmup(int block, int micro) const { return modulo(block, micro) < window_start; }
  bool in_cooldown(int block, int micro) const { return modulo(block, micro) >= window_end; }
};

// Per device, the instances in the order the truncated schedule runs them.
std::vector<std::vector<int>> device_orders(const Schedule& schedule) {
  std::vector<int> order(schedule.instances.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return schedule.instances[a].start < schedule.instances[b].start; });
  std::vector<std::vector<int>> per_device(schedule.placement.ndevs);
  for (int index : order)
    for (int device : schedule.placement.blocks[schedule.instances[index].block].devices)
      per_device[device].push_back(index);
  return per_device;
}

Schedule squeeze(const Schedule& truncated, const Squeeze& shape, bool do_cooldown, bool do_warmup) {
  Schedule result = truncated;
  std::vector<Instance>& instances = result.instances;
  const Placement& placement = shape.placement;
  std::map<std::pair<int, int>, int> index_of;
  for (size_t i = 0; i < instances.size(); ++i) index_of[{instances[i].block, instances[i].micro}] = static_cast<int>(i);
  std::vector<std::vector<int>> per_device = device_orders(truncated);
  // (neighbour, delay) per block: a dependency waits for the delay too.
  std::vector<std::vector<std::pair<int, Time>>> preds(placement.blocks.size()), succs(placement.blocks.size());
  for (const Edge& edge : placement.edges) {
    preds[edge.to].push_back({edge.from, edge.delay});
    succs[edge.from].push_back({edge.to, edge.delay});
  }
  // Position of every instance in its devices' orders.
  std::vector<std::map<int, int>> position(placement.ndevs);
  for (int device = 0; device < placement.ndevs; ++device)
    for (size_t k = 0; k < per_device[device].size(); ++k) position[device][per_device[device][k]] = static_cast<int>(k);

  std::vector<int> by_time(instances.size());
  for (size_t i = 0; i < by_time.size(); ++i) by_time[i] = static_cast<int>(i);
  std::sort(by_time.begin(), by_time.end(), [&](int a, int b) { return instances[a].start < instances[b].start; });

  if (do_cooldown) {
    for (int index : by_time) {
      Instance& instance = instances[index];
      if (!shape.in_cooldown(instance.block, instance.micro)) continue;
      // Never into the window: the cooldown must stay what follows it.
      int at = shape.window_end;
      for (const auto& [pred, delay] : preds[instance.block]) {
        auto found = index_of.find({pred, instance.micro});
        if (found == index_of.end()) continue;
        Time pred_start = shape.in_cooldown(pred, instance.micro) ? instances[found->second].start
                                                                   : shape.modulo(pred, instance.micro);
        at = std::max<Time>(at, pred_start + placement.blocks[pred].span + delay);
      }
      for (int device : placement.blocks[instance.block].devices) {
        int k = position[device][index];
        if (k == 0) continue;
        const Instance& before = instances[per_device[device][k - 1]];
        at = std::max<Time>(at, before.start + placement.blocks[before.block].span);
      }
      instance.start = std::min<Time>(instance.start, at);
    }
  }
  if (do_warmup) {
    for (auto it = by_time.rbegin(); it != by_time.rend(); ++it) {
      Instance& instance = instances[*it];
      if (!shape.in_warmup(instance.block, instance.micro)) continue;
      const int span = placement.blocks[instance.block].span;
      int at = shape.modulo(instance.block, instance.micro);
      for (const auto& [succ, delay] : succs[instance.block]) {
        auto found = index_of.find({succ, instance.micro});
        Time succ_start = shape.modulo(succ, instance.micro);
        if (found != index_of.end()) succ_start = std::min<Time>(succ_start, instances[found->second].start);
        at = std::min<Time>(at, succ_start - span - delay);
      }
      for (int device : placement.blocks[instance.block].devices) {
        int k = position[device][*it];
        if (k + 1 >= static_cast<int>(per_device[device].size())) continue;
        at = std::min<Time>(at, instances[per_device[device][k + 1]].start - span);
      }
      instance.start = std::max<Time>(instance.start, at);
    }
  }
  // Start at step 0 again; the window moves with everything else.
  int earliest = INT_MAX;
  for (const Instance& instance : instances) earliest = std::min<Time>(earliest, instance.start);
  for (Instance& instance : instances) instance.start -= earliest;
  result.repetend->start -= earliest;
  result.repetend->end -= earliest;
  sort_instances(result);
  return result;
}

}  // namespace

bool fits_for_any_length(const Schedule& schedule, const Deadline& deadline) {
  const int base = schedule.nmicros;
  try {
    for (int n = base; n <= 2 * base + 1; ++n)
      if (deadline.expired() || !schedule_fits(unroll(schedule, n))) return false;
  } catch (const InputError&) {
    return false;  // the squeeze broke the window's shape
  }
  return true;
}

namespace {

Time boundary_steps(const Schedule& schedule) {
  return makespan(schedule) - (schedule.repetend->end - schedule.repetend->start);
}

}  // namespace

namespace {

// Whether one micro-batch's memory on some device, in the modulo order of
// its blocks there, ever drops below 0: only then can the truncated modulo
// schedule rise above the steady state's levels (see WarmupCooldown::valid).
bool frees_before_allocating(const Placement& placement, const ModuloSolution& solution) {
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<int> on;
    for (int block = 0; block < static_cast<int>(placement.blocks.size()); ++block)
      if (on_device(placement.blocks[block], device)) on.push_back(block);
    std::sort(on.begin(), on.end(), [&](int a, int b) { return solution.starts[a] < solution.starts[b]; });
    Memory level = 0;
    for (int block : on)
      if ((level += placement.blocks[block].memory) < 0) return true;
  }
  return false;
}

}  // namespace

WarmupCooldown build_warmup_cooldown(const Placement& placement, const std::vector<long long>& memory_limit,
                                     const ModuloSolution& solution, const Deadline& deadline) {
  const Schedule truncated = truncated_modulo_schedule(placement, memory_limit, solution, solution.in_flight);
  WarmupCooldown best{truncated, true, false, boundary_steps(truncated)};
  if (frees_before_allocating(placement, solution) && !fits_for_any_length(truncated)) {
    best.valid = false;
    return best;
  }
  Squeeze shape{placement, solution, truncated.repetend->start, truncated.repetend->end};
  const std::pair<bool, bool> variants[] = {{true, true}, {true, false}, {false, true}};
  for (auto [cooldown, warmup] : variants) {
    if (deadline.expired()) break;
    Schedule candidate = squeeze(truncated, shape, cooldown, warmup);
    if (boundary_steps(candidate) >= boundary_steps(best.schedule)) continue;
    if (!fits_for_any_length(candidate, deadline)) continue;
    best.schedule = std::move(candidate);
    best.squeezed = true;
  }
  return best;
}

}  // namespace tessel
