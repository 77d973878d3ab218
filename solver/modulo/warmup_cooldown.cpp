// Warmup and cooldown around a modulo repetend (see the header for the idea).
#include "solver/modulo/warmup_cooldown.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/modulo/schedule_check.hpp"

namespace tessel {

Schedule truncated_modulo_schedule(const Placement& placement, const std::vector<long long>& memory_limit,
                                   const ModuloSolution& solution, int micros) {
  Schedule schedule = empty_schedule(placement, memory_limit, micros);
  for (int micro = 0; micro < micros; ++micro)
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      schedule.instances.push_back({static_cast<int>(b), micro, micro * solution.period + solution.starts[b]});
  if (micros >= solution.in_flight) {
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

// The truncated schedule's instances, addressed for the squeeze: every
// (block, micro) pair is present, so flat vectors replace maps (2 million
// instances on 1024 devices).
struct Orders {
  size_t nblocks = 0;
  std::vector<int> index_of;                  // block + micro * nblocks -> instance
  std::vector<std::vector<int>> per_device;   // instances in the order each device runs them
  std::vector<size_t> first_position;         // instance -> its first entry in `positions`
  std::vector<int> positions;                 // k-th place on the block's j-th device
  std::vector<int> by_time;                   // instances by start
  // (neighbour, delay) per block: a dependency waits for the delay too.
  std::vector<std::vector<std::pair<int, Time>>> preds, succs;

  int instance(int block, int micro) const { return index_of[block + micro * nblocks]; }
  int position(int index, size_t device_slot) const { return positions[first_position[index] + device_slot]; }
};

Orders orders_of(const Schedule& truncated) {
  const Placement& placement = truncated.placement;
  const std::vector<Instance>& instances = truncated.instances;
  Orders orders;
  orders.nblocks = placement.blocks.size();
  orders.index_of.assign(orders.nblocks * truncated.nmicros, -1);
  orders.first_position.resize(instances.size() + 1);
  for (size_t i = 0; i < instances.size(); ++i) {
    orders.index_of[instances[i].block + instances[i].micro * orders.nblocks] = static_cast<int>(i);
    orders.first_position[i + 1] = orders.first_position[i] + placement.blocks[instances[i].block].devices.size();
  }
  orders.by_time.resize(instances.size());
  for (size_t i = 0; i < instances.size(); ++i) orders.by_time[i] = static_cast<int>(i);
  std::stable_sort(orders.by_time.begin(), orders.by_time.end(),
                   [&](int a, int b) { return instances[a].start < instances[b].start; });
  orders.per_device.resize(placement.ndevs);
  orders.positions.resize(orders.first_position.back());
  for (int index : orders.by_time) {
    const std::vector<int>& devices = placement.blocks[instances[index].block].devices;
    for (size_t slot = 0; slot < devices.size(); ++slot) {
      orders.positions[orders.first_position[index] + slot] = static_cast<int>(orders.per_device[devices[slot]].size());
      orders.per_device[devices[slot]].push_back(index);
    }
  }
  orders.preds.resize(orders.nblocks);
  orders.succs.resize(orders.nblocks);
  for (const Edge& edge : placement.edges) {
    orders.preds[edge.to].push_back({edge.from, edge.delay});
    orders.succs[edge.from].push_back({edge.to, edge.delay});
  }
  return orders;
}

// How often the squeeze looks at its deadline (instances between looks):
// how promptly it stops, not how much it does, so not a knob.
constexpr size_t kInstancesPerDeadlineCheck = 4096;

// The cooldown as early as its dependencies and each device's order allow;
// false when the deadline passed first.
bool squeeze_cooldown(std::vector<Instance>& instances, const Squeeze& shape, const Orders& orders,
                      const Deadline& deadline) {
  const Placement& placement = shape.placement;
  size_t seen = 0;
  for (int index : orders.by_time) {
    if (++seen % kInstancesPerDeadlineCheck == 0 && deadline.expired()) return false;
    Instance& instance = instances[index];
    if (!shape.in_cooldown(instance.block, instance.micro)) continue;
    // Never into the window: the cooldown must stay what follows it.
    Time at = shape.window_end;
    for (const auto& [pred, delay] : orders.preds[instance.block]) {
      Time pred_start = shape.in_cooldown(pred, instance.micro) ? instances[orders.instance(pred, instance.micro)].start
                                                                : shape.modulo(pred, instance.micro);
      at = std::max<Time>(at, pred_start + placement.blocks[pred].span + delay);
    }
    const std::vector<int>& devices = placement.blocks[instance.block].devices;
    for (size_t slot = 0; slot < devices.size(); ++slot) {
      int k = orders.position(index, slot);
      if (k == 0) continue;
      const Instance& before = instances[orders.per_device[devices[slot]][k - 1]];
      at = std::max<Time>(at, before.start + placement.blocks[before.block].span);
    }
    instance.start = std::min<Time>(instance.start, at);
  }
  return true;
}

// The warmup as late as its successors and each device's order allow, never
// past its modulo time; false when the deadline passed first.
bool squeeze_warmup(std::vector<Instance>& instances, const Squeeze& shape, const Orders& orders,
                    const Deadline& deadline) {
  const Placement& placement = shape.placement;
  size_t seen = 0;
  for (auto it = orders.by_time.rbegin(); it != orders.by_time.rend(); ++it) {
    if (++seen % kInstancesPerDeadlineCheck == 0 && deadline.expired()) return false;
    Instance& instance = instances[*it];
    if (!shape.in_warmup(instance.block, instance.micro)) continue;
    const Time span = placement.blocks[instance.block].span;
    Time at = shape.modulo(instance.block, instance.micro);
    for (const auto& [succ, delay] : orders.succs[instance.block]) {
      Time succ_start = std::min<Time>(shape.modulo(succ, instance.micro),
                                       instances[orders.instance(succ, instance.micro)].start);
      at = std::min<Time>(at, succ_start - span - delay);
    }
    const std::vector<int>& devices = placement.blocks[instance.block].devices;
    for (size_t slot = 0; slot < devices.size(); ++slot) {
      const std::vector<int>& order = orders.per_device[devices[slot]];
      size_t k = orders.position(*it, slot);
      if (k + 1 >= order.size()) continue;
      at = std::min<Time>(at, instances[order[k + 1]].start - span);
    }
    instance.start = std::max<Time>(instance.start, at);
  }
  return true;
}

// The squeezed variant, or nothing when the deadline passed first.
std::optional<Schedule> squeeze(const Schedule& truncated, const Squeeze& shape, const Orders& orders,
                                bool do_cooldown, bool do_warmup, const Deadline& deadline) {
  Schedule result = truncated;
  std::vector<Instance>& instances = result.instances;
  if (do_cooldown && !squeeze_cooldown(instances, shape, orders, deadline)) return std::nullopt;
  if (do_warmup && !squeeze_warmup(instances, shape, orders, deadline)) return std::nullopt;
  // Start at step 0 again; the window moves with everything else.
  Time earliest = std::numeric_limits<Time>::max();
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
  Schedule truncated = truncated_modulo_schedule(placement, memory_limit, solution, solution.in_flight);
  WarmupCooldown best;
  best.truncated_steps = boundary_steps(truncated);
  if (frees_before_allocating(placement, solution) && !fits_for_any_length(truncated, deadline)) {
    best.valid = false;
    best.unchecked = deadline.expired();
    best.schedule = std::move(truncated);
    return best;
  }
  Squeeze shape{placement, solution, truncated.repetend->start, truncated.repetend->end};
  const std::pair<bool, bool> variants[] = {{true, true}, {true, false}, {false, true}};
  const Orders orders = orders_of(truncated);
  // The shortest squeezed variant that fits every length; the truncated
  // schedule is kept (not copied) until one does.
  std::optional<Schedule> squeezed;
  Time steps = best.truncated_steps;
  for (auto [cooldown, warmup] : variants) {
    if (deadline.expired()) break;
    std::optional<Schedule> candidate = squeeze(truncated, shape, orders, cooldown, warmup, deadline);
    if (!candidate || boundary_steps(*candidate) >= steps) continue;
    if (!fits_for_any_length(*candidate, deadline)) continue;
    steps = boundary_steps(*candidate);
    squeezed = std::move(candidate);
  }
  best.squeezed = squeezed.has_value();
  best.schedule = squeezed ? std::move(*squeezed) : std::move(truncated);
  return best;
}

std::string unusable_warmup_reason(const WarmupCooldown& built) {
  if (built.unchecked)
    return "the warmup of this repetend was not checked against the memory limit before the deadline (a block "
           "frees memory before its micro-batch allocates it on some device), so the answer at N is another "
           "candidate";
  return "no warmup of this repetend fits the memory limit (a block frees memory before its micro-batch "
         "allocates it on that device), so the answer at N is another candidate";
}

}  // namespace tessel
