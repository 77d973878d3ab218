// Unrolling a repetend schedule (see unroll.hpp for the exact definition).
//
// The work is split in two: `split_schedule` cuts the schedule into warmup,
// one unit, the copies of the unit already present and the cooldown,
// checking the shape that makes repetition meaningful; `unroll_unit` then
// lays out as many copies as the requested micro-batch count needs.
#include "model/unroll.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "model/input_error.hpp"
#include "model/quantity.hpp"

namespace tessel {

namespace {

// Keeps an unroll within memory (an instance is 12 bytes, and files are larger).
// About 200 MB of JSON: larger outputs exhausted memory while being written.
constexpr long long kMostInstances = 5000000;

struct SplitSchedule {
  std::vector<Instance> warmup;
  std::vector<Instance> window;
  std::vector<Instance> cooldown;  // everything after the copies present
  int copies = 1;                  // the window plus its repetitions present
};

[[noreturn]] void bad_repetend(const std::string& reason) { throw InputError("", "repetend", reason); }

// The window in the placement's units, as the file states it ([12.5, 25),
// not the ticks [1250, 2500)).
std::string window_text(const Repetend& unit, int decimals) {
  return "window [" + format_ticks(unit.start, decimals) + ", " + format_ticks(unit.end, decimals) + ")";
}

// Checks that the window holds every block k times, once in each residue
// class of micro-batches modulo k, and that each class runs in order: the
// warmup before the window's micro-batch of that class, the rest after it.
// The k micro-batches need not be consecutive: in a window of k copies each
// copy has its own offset (copy 0 of a block may work on micro-batch 2g - 2
// while copy 1 works on 2g + 1); repeating the window adds k to every one of
// them, so each class advances on its own and unrolling stays the same shift.
void check_window_shape(const Schedule& schedule, const Repetend& repetend, const std::vector<Instance>& warmup,
                        const std::vector<Instance>& window, const std::vector<Instance>& rest) {
  const int k = repetend.micros_per_period;
  const auto& blocks = schedule.placement.blocks;
  std::vector<std::map<int, int>> window_micro(blocks.size());  // block -> residue -> micro-batch
  for (const Instance& instance : window) {
    const int residue = instance.micro % k;
    if (!window_micro[instance.block].emplace(residue, instance.micro).second)
      bad_repetend("the " + window_text(repetend, schedule.placement.time_decimals) + " holds micro-batches " +
                   std::to_string(window_micro[instance.block][residue]) + " and " + std::to_string(instance.micro) +
                   " of block '" + blocks[instance.block].id + "'; with micros_per_period " + std::to_string(k) +
                   " every block must appear exactly " + std::to_string(k) +
                   " times, once in each class of micro-batches modulo " + std::to_string(k) +
                   " (equal modulo k, repeating the window would run one of them twice)");
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (static_cast<int>(window_micro[b].size()) != k)
      bad_repetend("the " + window_text(repetend, schedule.placement.time_decimals) + " holds " + std::to_string(window_micro[b].size()) +
                   " micro-batches of block '" + blocks[b].id + "'; with micros_per_period " +
                   std::to_string(k) + " every block must appear exactly " + std::to_string(k) + " times");
  }
  for (const Instance& instance : warmup)
    if (instance.micro >= window_micro[instance.block].at(instance.micro % k))
      bad_repetend("micro-batch " + std::to_string(instance.micro) + " of block '" + blocks[instance.block].id +
                   "' runs before the " + window_text(repetend, schedule.placement.time_decimals) + " although the window runs an earlier one");
  for (const Instance& instance : rest)
    if (instance.micro <= window_micro[instance.block].at(instance.micro % k))
      bad_repetend("micro-batch " + std::to_string(instance.micro) + " of block '" + blocks[instance.block].id +
                   "' runs after the " + window_text(repetend, schedule.placement.time_decimals) + " although the window runs a later one");
}

SplitSchedule split_schedule(const Schedule& schedule, const Repetend& unit) {
  if (unit.period < 1 || unit.micros_per_period < 1 || unit.end <= unit.start)
    bad_repetend("needs start < end, period >= 1 and micros_per_period >= 1");
  SplitSchedule split;
  std::vector<Instance> rest;
  for (const Instance& instance : schedule.instances) {
    if (instance.start < unit.start)
      split.warmup.push_back(instance);
    else if (instance.start < unit.end)
      split.window.push_back(instance);
    else
      rest.push_back(instance);
  }
  check_window_shape(schedule, unit, split.warmup, split.window, rest);

  // Copies of the unit already in the schedule: every unit instance present
  // again i periods and i*k micro-batches later. When the unit is exactly
  // one period, the copy must also be all that starts in its period, so
  // that the copies found are the whole steady state.
  const bool one_period = unit.end - unit.start == unit.period;
  std::map<std::pair<int, int>, int> start_of;  // (block, micro) -> start, rest only
  std::map<int, int> starting_at;                // step -> instances of rest starting there
  for (const Instance& instance : rest) {
    start_of[{instance.block, instance.micro}] = instance.start;
    ++starting_at[instance.start];
  }
  std::set<std::pair<int, int>> in_copies;
  for (int i = 1;; ++i) {
    bool present = true;
    for (const Instance& instance : split.window) {
      auto found = start_of.find({instance.block, instance.micro + i * unit.micros_per_period});
      if (found == start_of.end() || found->second != instance.start + i * unit.period) {
        present = false;
        break;
      }
    }
    if (present && one_period) {
      size_t starting = 0;
      for (auto it = starting_at.lower_bound(unit.start + i * unit.period);
           it != starting_at.end() && it->first < unit.end + i * unit.period; ++it)
        starting += it->second;
      present = starting == split.window.size();
    }
    if (!present) break;
    for (const Instance& instance : split.window)
      in_copies.insert({instance.block, instance.micro + i * unit.micros_per_period});
    split.copies = i + 1;
  }
  for (const Instance& instance : rest)
    if (!in_copies.count({instance.block, instance.micro})) split.cooldown.push_back(instance);
  return split;
}

// The repeating unit of a claimed repetend: its first period.
Repetend unit_of(const Schedule& schedule) {
  if (!schedule.repetend) bad_repetend("the schedule has no repetend to unroll");
  const Repetend& repetend = *schedule.repetend;
  if (repetend.period < 1 || repetend.micros_per_period < 1 || repetend.end <= repetend.start)
    bad_repetend("needs start < end, period >= 1 and micros_per_period >= 1");
  if ((repetend.end - repetend.start) % repetend.period != 0)
    bad_repetend("the " + window_text(repetend, schedule.placement.time_decimals) + " is not a whole number of periods of " +
                 format_ticks(repetend.period, schedule.placement.time_decimals));
  return {repetend.start, repetend.start + repetend.period, repetend.period, repetend.micros_per_period};
}

int smallest_of(const Schedule& schedule, const Repetend& unit, const SplitSchedule& split) {
  return schedule.nmicros - (split.copies - 1) * unit.micros_per_period;
}

// Lays out the copies; returns how many there are.
Schedule unroll_unit(const Schedule& schedule, const Repetend& unit, int nmicros, int& copies) {
  SplitSchedule split = split_schedule(schedule, unit);
  const int k = unit.micros_per_period;
  const int smallest = smallest_of(schedule, unit, split);
  if (nmicros < smallest)
    throw InputError("", "--nmicros",
                     "this schedule unrolls to at least " + std::to_string(smallest) + " micro-batches, got " +
                         std::to_string(nmicros));
  if ((nmicros - smallest) % k != 0)
    throw InputError("", "--nmicros",
                     "the repetend advances " + std::to_string(k) + " micro-batches per period, so N must be " +
                         std::to_string(smallest) + " plus a multiple of " + std::to_string(k) + ", got " +
                         std::to_string(nmicros));
  copies = (nmicros - smallest) / k + 1;
  const long long last_step = static_cast<long long>(makespan(schedule)) +
                              static_cast<long long>(copies - split.copies) * unit.period;
  if (last_step > 1000000000LL) throw InputError("", "--nmicros", "the unrolled schedule would exceed 1e9 steps");
  const long long instances = static_cast<long long>(nmicros) * static_cast<long long>(schedule.placement.blocks.size());
  if (instances > kMostInstances)
    throw InputError("", "--nmicros",
                     "the unrolled schedule would have " + std::to_string(instances) + " instances (at most " +
                         std::to_string(kMostInstances) + ")");

  Schedule unrolled = schedule;
  unrolled.nmicros = nmicros;
  unrolled.instances = split.warmup;
  for (int copy = 0; copy < copies; ++copy)
    for (const Instance& instance : split.window)
      unrolled.instances.push_back({instance.block, instance.micro + copy * k, instance.start + copy * unit.period});
  const int shift = copies - split.copies;
  for (const Instance& instance : split.cooldown) {
    Instance moved{instance.block, instance.micro + shift * k, instance.start + shift * unit.period};
    if (moved.start < 0)
      bad_repetend("the cooldown cannot move " + std::to_string(-shift) +
                   " periods earlier: an instance would start before step 0");
    unrolled.instances.push_back(moved);
  }
  sort_instances(unrolled);
  return unrolled;
}

// Peak memory of every device: the largest sum of the memory deltas of the
// instances started so far, over the steps where something starts.
std::vector<long long> peak_memory(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  std::vector<std::map<int, long long>> change(placement.ndevs);  // device -> step -> delta
  for (const Instance& instance : schedule.instances)
    for (int device : placement.blocks[instance.block].devices)
      change[device][instance.start] += placement.blocks[instance.block].memory;
  std::vector<long long> peak(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    long long held = 0;
    for (const auto& [step, delta] : change[device]) {
      held += delta;
      peak[device] = std::max(peak[device], held);
    }
  }
  return peak;
}

// Drops the micro-batches >= nmicros of an unrolled schedule. A micro-batch
// is independent of the others, so what is left keeps every dependency (all
// of a micro-batch goes or stays) and every device's exclusivity (fewer
// instances). Memory is the one condition removal can break: a block may
// free memory (negative delta) before another block of the same micro-batch
// allocates on that device, and then removing the micro-batch raises the
// curve in between. So the curve is recomputed, and a result above the
// limit where the whole-window schedule was not is refused.
//
// The repetend claim keeps the leading copies that are still whole (copy j
// holds micro-batches top - k + 1 + j k .. top + j k of some block, top the
// largest micro-batch of copy 0): those are untouched, and the verifier's
// R2-R4 only look at the claimed copies, so the shorter claim is true. With
// no whole copy left, the claim is dropped (docs/formats.md: the repetend is optional).
Schedule keep_first_micros(const Schedule& unrolled, int nmicros) {
  const Repetend& claim = *unrolled.repetend;
  Schedule kept = unrolled;
  kept.nmicros = nmicros;
  kept.instances.clear();
  int top = 0;  // largest micro-batch in copy 0 of the window
  for (const Instance& instance : unrolled.instances) {
    if (instance.micro < nmicros) kept.instances.push_back(instance);
    if (instance.start >= claim.start && instance.start < claim.start + claim.period)
      top = std::max(top, instance.micro);
  }
  const int copies = (claim.end - claim.start) / claim.period;
  const int whole = top >= nmicros ? 0 : std::min(copies, (nmicros - 1 - top) / claim.micros_per_period + 1);
  if (whole == 0)
    kept.repetend.reset();
  else
    kept.repetend->end = claim.start + whole * claim.period;

  if (!unrolled.memory_limit.empty()) {
    const std::vector<long long> before = peak_memory(unrolled);
    const std::vector<long long> after = peak_memory(kept);
    for (int device = 0; device < unrolled.placement.ndevs; ++device) {
      const long long limit = unrolled.memory_limit[device];
      if (after[device] > limit && after[device] > before[device])
        throw InputError("", "--nmicros",
                         "dropping micro-batches " + std::to_string(nmicros) + ".." +
                             std::to_string(unrolled.nmicros - 1) + " from the schedule unrolled to " +
                             std::to_string(unrolled.nmicros) + " raises the memory of device " +
                             std::to_string(device) + " to " +
                             format_ticks(after[device], unrolled.placement.memory_decimals) + " above its limit " +
                             format_ticks(limit, unrolled.placement.memory_decimals) + " (a block frees memory before another allocates); N = " +
                             std::to_string(unrolled.nmicros) + " works");
    }
  }
  return kept;
}

}  // namespace

int smallest_unroll(const Schedule& schedule) {
  Repetend unit = unit_of(schedule);
  return smallest_of(schedule, unit, split_schedule(schedule, unit));
}

int whole_window_count(const Schedule& schedule, int nmicros) {
  const int smallest = smallest_unroll(schedule);
  if (nmicros <= smallest) return smallest;
  const long long k = schedule.repetend->micros_per_period;
  const long long whole = smallest + (static_cast<long long>(nmicros) - smallest + k - 1) / k * k;
  const long long instances = whole * static_cast<long long>(schedule.placement.blocks.size());
  if (instances > kMostInstances)
    throw InputError("", "--nmicros",
                     "the unrolled schedule would have " + std::to_string(instances) + " instances (at most " +
                         std::to_string(kMostInstances) + ")");
  return static_cast<int>(whole);
}

Schedule unroll(const Schedule& schedule, int nmicros) {
  if (nmicros < 1)
    throw InputError("", "--nmicros", "must be at least 1, got " + std::to_string(nmicros));
  // A repetend is defined over spans, not fused units (docs/formats.md).
  if (!schedule.fused.empty()) throw InputError("", "fused", "a schedule with fused units has no repetend to unroll");
  // Nor over recomputes and copies: unrolled, they would be dropped and the memory they saved counted again.
  if (!schedule.recomputes.empty() || !schedule.transfers.empty())
    throw InputError("", schedule.recomputes.empty() ? "transfers" : "recomputes",
                     "a schedule with recomputes or copies has no repetend to unroll");
  Repetend unit = unit_of(schedule);
  const int whole = whole_window_count(schedule, nmicros);
  int copies = 0;
  Schedule unrolled = unroll_unit(schedule, unit, whole, copies);
  unrolled.repetend = Repetend{unit.start, unit.start + copies * unit.period, unit.period, unit.micros_per_period};
  if (whole == nmicros) return unrolled;
  return keep_first_micros(unrolled, nmicros);
}

int smallest_window_unroll(const Schedule& schedule, const Repetend& unit) {
  return smallest_of(schedule, unit, split_schedule(schedule, unit));
}

Schedule unroll_window(const Schedule& schedule, const Repetend& unit, int nmicros) {
  int copies = 0;
  Schedule unrolled = unroll_unit(schedule, unit, nmicros, copies);
  unrolled.repetend.reset();
  return unrolled;
}

}  // namespace tessel
