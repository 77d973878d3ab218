// The steady state of a timed schedule, found by sliding a one-period window.
//
// A window at step S is a good copy when it starts every block exactly once,
// its instances fold onto a circle of P steps without overlapping on any
// device, and its memory changes sum to zero on every device (what the
// verifier's repetend check asks, verify/repetend_check.cpp). Copies chain
// when the next window holds the same blocks at +P steps and +1 micro-batch.
// The longest chain (earliest on ties) is the steady state.
#include "classic/steady_state.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace tessel::classic {

namespace {

// Larger groups are not looked for: the search is quadratic in them.
constexpr int kMaxMicrosPerPeriod = 8;

struct Timeline {
  std::vector<std::vector<const Instance*>> starting_at;  // step -> instances
  std::map<std::pair<int, int>, int> start_of;            // (block, micro) -> start
};

bool good_copy(const Schedule& schedule, const Timeline& timeline, int from, int period, int micros) {
  const Placement& placement = schedule.placement;
  std::vector<int> seen(placement.blocks.size(), 0);
  std::vector<std::vector<bool>> circle(placement.ndevs, std::vector<bool>(period, false));
  std::vector<long long> memory(placement.ndevs, 0);
  for (int t = from; t < from + period; ++t)
    for (const Instance* instance : timeline.starting_at[t]) {
      const Block& block = placement.blocks[instance->block];
      if (++seen[instance->block] > micros) return false;
      for (int device : block.devices) {
        memory[device] += block.memory;
        for (int step = 0; step < block.span; ++step) {
          int slot = (instance->start + step) % period;
          if (circle[device][slot]) return false;
          circle[device][slot] = true;
        }
      }
    }
  if (std::count(seen.begin(), seen.end(), micros) != static_cast<long>(seen.size())) return false;
  return std::all_of(memory.begin(), memory.end(), [](long long sum) { return sum == 0; });
}

bool shifts_onto_next(const Timeline& timeline, int from, int period, int micros) {
  for (int t = from; t < from + period; ++t)
    for (const Instance* instance : timeline.starting_at[t]) {
      auto next = timeline.start_of.find({instance->block, instance->micro + micros});
      if (next == timeline.start_of.end() || next->second != instance->start + period) return false;
    }
  return true;
}

std::optional<Repetend> steady_state_with(const Schedule& schedule, const Timeline& timeline, int micros) {
  int period = period_lower_bound(schedule.placement) * micros;
  int span = makespan(schedule);
  if (period < 1 || span < 2 * period) return std::nullopt;
  int windows = span - period + 1;
  std::vector<int> copies(windows, 0);  // copies chained from each start
  for (int from = windows - 1; from >= 0; --from) {
    if (!good_copy(schedule, timeline, from, period, micros)) continue;
    copies[from] = 1;
    if (from + period < windows && copies[from + period] > 0 && shifts_onto_next(timeline, from, period, micros))
      copies[from] += copies[from + period];
  }
  int best = static_cast<int>(std::max_element(copies.begin(), copies.end()) - copies.begin());
  if (copies[best] < 2) return std::nullopt;
  return Repetend{best, best + copies[best] * period, period, micros};
}

}  // namespace

std::optional<Repetend> find_steady_state(const Schedule& schedule) {
  int span = makespan(schedule);
  if (span < 1) return std::nullopt;
  Timeline timeline;
  timeline.starting_at.resize(span);
  for (const Instance& instance : schedule.instances) {
    timeline.starting_at[instance.start].push_back(&instance);
    timeline.start_of[{instance.block, instance.micro}] = instance.start;
  }
  // Interleaved orders repeat per group of micro-batches, not per one.
  for (int micros = 1; micros <= std::min(kMaxMicrosPerPeriod, schedule.nmicros / 2); ++micros)
    if (auto found = steady_state_with(schedule, timeline, micros)) return found;
  return std::nullopt;
}

}  // namespace tessel::classic
