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

// Instances sorted by start; first_at[t] indexes the first that starts at or
// after step t, so a window's instances are one contiguous range and a
// window costs its instance count, not its length in steps.
struct Timeline {
  std::vector<const Instance*> by_start;
  std::vector<int> first_at;                    // size span + 1
  std::map<std::pair<int, int>, int> start_of;  // (block, micro) -> start
};

// Whether intervals on a circle of `period` steps are pairwise disjoint;
// each is (offset on the circle, length <= period).
bool disjoint_on_circle(std::vector<std::pair<long long, long long>>& arcs, long long period) {
  std::vector<std::pair<long long, long long>> pieces;  // [begin, end) within [0, period)
  for (const auto& [offset, length] : arcs) {
    if (length > period) return false;
    long long end = offset + length;
    pieces.push_back({offset, std::min(end, period)});
    if (end > period) pieces.push_back({0, end - period});
  }
  std::sort(pieces.begin(), pieces.end());
  for (size_t i = 1; i < pieces.size(); ++i)
    if (pieces[i].first < pieces[i - 1].second) return false;
  return true;
}

bool good_copy(const Schedule& schedule, const Timeline& timeline, int from, int period, int micros) {
  const Placement& placement = schedule.placement;
  const int begin = timeline.first_at[from], end = timeline.first_at[from + period];
  if (end - begin != static_cast<int>(placement.blocks.size()) * micros) return false;
  std::vector<int> seen(placement.blocks.size(), 0);
  std::map<int, std::vector<std::pair<long long, long long>>> arcs;  // device -> its arcs
  std::map<int, long long> memory;
  for (int i = begin; i < end; ++i) {
    const Instance* instance = timeline.by_start[i];
    const Block& block = placement.blocks[instance->block];
    if (++seen[instance->block] > micros) return false;
    for (int device : block.devices) {
      memory[device] += block.memory;
      arcs[device].push_back({instance->start % period, block.span});
    }
  }
  for (auto& [device, list] : arcs)
    if (!disjoint_on_circle(list, period)) return false;
  return std::all_of(memory.begin(), memory.end(), [](const auto& sum) { return sum.second == 0; });
}

bool shifts_onto_next(const Timeline& timeline, int from, int period, int micros) {
  for (int i = timeline.first_at[from]; i < timeline.first_at[from + period]; ++i) {
    const Instance* instance = timeline.by_start[i];
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
  // Whether a window is a good copy depends only on the instances it holds,
  // which change only where one starts or ends: long spans repeat the answer.
  std::pair<int, int> last_range{-1, -1};
  bool last_good = false;
  for (int from = windows - 1; from >= 0; --from) {
    const std::pair<int, int> range{timeline.first_at[from], timeline.first_at[from + period]};
    if (range != last_range) last_good = good_copy(schedule, timeline, from, period, micros);
    last_range = range;
    if (!last_good) continue;
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
  for (const Instance& instance : schedule.instances) {
    timeline.by_start.push_back(&instance);
    timeline.start_of[{instance.block, instance.micro}] = instance.start;
  }
  std::stable_sort(timeline.by_start.begin(), timeline.by_start.end(),
                   [](const Instance* a, const Instance* b) { return a->start < b->start; });
  timeline.first_at.assign(static_cast<size_t>(span) + 1, static_cast<int>(timeline.by_start.size()));
  for (int i = static_cast<int>(timeline.by_start.size()) - 1; i >= 0; --i)
    timeline.first_at[timeline.by_start[i]->start] = i;
  for (int t = span - 1; t >= 0; --t) timeline.first_at[t] = std::min(timeline.first_at[t], timeline.first_at[t + 1]);
  // Interleaved orders repeat per group of micro-batches, not per one.
  for (int micros = 1; micros <= std::min(kMaxMicrosPerPeriod, schedule.nmicros / 2); ++micros)
    if (auto found = steady_state_with(schedule, timeline, micros)) return found;
  return std::nullopt;
}

}  // namespace tessel::classic
