// Unrolling a repetend schedule (see unroll.hpp for the exact definition).
//
// The work is split in two: `split_schedule` cuts the schedule into warmup,
// one window, the copies of the window already present and the cooldown,
// checking the shape that makes repetition meaningful; `unroll` then lays
// out as many copies as the requested micro-batch count needs.
#include "model/unroll.hpp"

#include <map>
#include <set>
#include <utility>

#include "model/input_error.hpp"

namespace tessel {

namespace {

struct SplitSchedule {
  std::vector<Instance> warmup;
  std::vector<Instance> window;
  std::vector<Instance> cooldown;  // everything after the copies present
  int copies = 1;                  // the window plus its repetitions present
};

[[noreturn]] void bad_repetend(const std::string& reason) { throw InputError("", "repetend", reason); }

std::string window_text(const Repetend& repetend) {
  return "window [" + std::to_string(repetend.start) + ", " + std::to_string(repetend.end) + ")";
}

// Checks that the window holds every block k times on consecutive
// micro-batches, between the warmup's and the cooldown's micro-batches.
void check_window_shape(const Schedule& schedule, const std::vector<Instance>& warmup,
                        const std::vector<Instance>& window, const std::vector<Instance>& rest) {
  const Repetend& repetend = *schedule.repetend;
  const int k = repetend.micros_per_period;
  const auto& blocks = schedule.placement.blocks;
  std::vector<std::set<int>> window_micros(blocks.size());
  for (const Instance& instance : window) window_micros[instance.block].insert(instance.micro);
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::set<int>& micros = window_micros[b];
    if (static_cast<int>(micros.size()) != k)
      bad_repetend("the " + window_text(repetend) + " holds " + std::to_string(micros.size()) +
                   " micro-batches of block '" + blocks[b].id + "'; with micros_per_period " +
                   std::to_string(k) + " every block must appear exactly " + std::to_string(k) + " times");
    if (*micros.rbegin() - *micros.begin() != k - 1)
      bad_repetend("the " + window_text(repetend) + " holds non-consecutive micro-batches of block '" +
                   blocks[b].id + "'");
  }
  for (const Instance& instance : warmup)
    if (instance.micro >= *window_micros[instance.block].begin())
      bad_repetend("micro-batch " + std::to_string(instance.micro) + " of block '" + blocks[instance.block].id +
                   "' runs before the " + window_text(repetend) + " although the window runs an earlier one");
  for (const Instance& instance : rest)
    if (instance.micro <= *window_micros[instance.block].rbegin())
      bad_repetend("micro-batch " + std::to_string(instance.micro) + " of block '" + blocks[instance.block].id +
                   "' runs after the " + window_text(repetend) + " although the window runs a later one");
}

SplitSchedule split_schedule(const Schedule& schedule) {
  if (!schedule.repetend) bad_repetend("the schedule has no repetend to unroll");
  const Repetend& repetend = *schedule.repetend;
  if (repetend.period < 1 || repetend.micros_per_period < 1 || repetend.end <= repetend.start)
    bad_repetend("needs start < end, period >= 1 and micros_per_period >= 1");
  SplitSchedule split;
  std::vector<Instance> rest;
  for (const Instance& instance : schedule.instances) {
    if (instance.start < repetend.start)
      split.warmup.push_back(instance);
    else if (instance.start < repetend.end)
      split.window.push_back(instance);
    else
      rest.push_back(instance);
  }
  check_window_shape(schedule, split.warmup, split.window, rest);

  // Copies of the window already in the schedule: every window instance
  // present again i periods and i*k micro-batches later.
  std::map<std::pair<int, int>, int> start_of;  // (block, micro) -> start, rest only
  for (const Instance& instance : rest) start_of[{instance.block, instance.micro}] = instance.start;
  std::set<std::pair<int, int>> in_copies;
  for (int i = 1;; ++i) {
    bool present = true;
    for (const Instance& instance : split.window) {
      auto found = start_of.find({instance.block, instance.micro + i * repetend.micros_per_period});
      if (found == start_of.end() || found->second != instance.start + i * repetend.period) {
        present = false;
        break;
      }
    }
    if (!present) break;
    for (const Instance& instance : split.window)
      in_copies.insert({instance.block, instance.micro + i * repetend.micros_per_period});
    split.copies = i + 1;
  }
  for (const Instance& instance : rest)
    if (!in_copies.count({instance.block, instance.micro})) split.cooldown.push_back(instance);
  return split;
}

}  // namespace

int smallest_unroll(const Schedule& schedule) {
  SplitSchedule split = split_schedule(schedule);
  return schedule.nmicros - (split.copies - 1) * schedule.repetend->micros_per_period;
}

Schedule unroll(const Schedule& schedule, int nmicros) {
  SplitSchedule split = split_schedule(schedule);
  const Repetend& repetend = *schedule.repetend;
  const int k = repetend.micros_per_period;
  const int smallest = schedule.nmicros - (split.copies - 1) * k;
  if (nmicros < smallest)
    throw InputError("", "--nmicros",
                     "this schedule unrolls to at least " + std::to_string(smallest) + " micro-batches, got " +
                         std::to_string(nmicros));
  if ((nmicros - smallest) % k != 0)
    throw InputError("", "--nmicros",
                     "the repetend advances " + std::to_string(k) + " micro-batches per period, so N must be " +
                         std::to_string(smallest) + " plus a multiple of " + std::to_string(k) + ", got " +
                         std::to_string(nmicros));
  const int copies = (nmicros - smallest) / k + 1;
  const long long last_step = static_cast<long long>(makespan(schedule)) +
                              static_cast<long long>(copies - split.copies) * repetend.period;
  if (last_step > 1000000000LL)
    throw InputError("", "--nmicros", "the unrolled schedule would exceed 1e9 steps");

  Schedule unrolled = schedule;
  unrolled.nmicros = nmicros;
  unrolled.instances = split.warmup;
  for (int copy = 0; copy < copies; ++copy)
    for (const Instance& instance : split.window)
      unrolled.instances.push_back(
          {instance.block, instance.micro + copy * k, instance.start + copy * repetend.period});
  const int shift = copies - split.copies;
  for (const Instance& instance : split.cooldown) {
    Instance moved{instance.block, instance.micro + shift * k, instance.start + shift * repetend.period};
    if (moved.start < 0)
      bad_repetend("the cooldown cannot move " + std::to_string(-shift) +
                   " periods earlier: an instance would start before step 0");
    unrolled.instances.push_back(moved);
  }
  sort_instances(unrolled);
  return unrolled;
}

}  // namespace tessel
