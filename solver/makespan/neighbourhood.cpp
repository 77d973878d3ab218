// The large-neighbourhood search (see the header for the idea).
//
// One window's encoding: a start variable per free instance with the domain
// its fixed neighbours leave (after its fixed predecessors, before its fixed
// successors, inside [window start, window end)); differences for the
// dependencies between free instances; no-overlap among the free instances
// of a device, and one clause per free/fixed pair on a device (before it or
// after it); per device and step of the window, the free allocations made by
// then under the limit minus the fixed ones. The window's end is bisected
// under assumptions on one solver, as the full search does with the makespan.
#include "solver/makespan/neighbourhood.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "solver/backend.hpp"
#include "solver/schedule_check.hpp"

namespace tessel {
namespace {

// Encodings above this many order literals are not built (a window over
// long spans); the window is skipped.
constexpr long long kMaxWindowLiterals = 60000;
// A window's solver calls stop after this many seconds, or an eighth of
// the time left when more; the next window may do better.
constexpr double kWindowSeconds = 0.25;
// Free instances per device in a window.
constexpr int kFreePerDevice = 12;

// Instance indices into schedule.instances, by (block, micro).
std::vector<std::vector<int>> index_of(const Schedule& schedule) {
  std::vector<std::vector<int>> index(schedule.placement.blocks.size(), std::vector<int>(schedule.nmicros, -1));
  for (size_t i = 0; i < schedule.instances.size(); ++i)
    index[schedule.instances[i].block][schedule.instances[i].micro] = static_cast<int>(i);
  return index;
}

struct Window {
  std::vector<int> free;  // instance indices
  Time begin = 0;         // earliest start a free instance may take
  Time end = 0;           // the free instances end by this (their latest end now)
};

// Free instance i's start domain [lo, hi] given the fixed ones.
struct Domain {
  Time lo = 0;
  Time hi = 0;
};

std::vector<Domain> domains(const Schedule& schedule, const Window& window, const std::vector<bool>& is_free,
                            const std::vector<std::vector<int>>& index) {
  const Placement& placement = schedule.placement;
  std::vector<Domain> result;
  for (int i : window.free) {
    const Instance& instance = schedule.instances[i];
    const Time span = placement.blocks[instance.block].span;
    Domain domain{window.begin, window.end - span};
    for (const Edge& edge : placement.edges) {
      if (edge.to == instance.block) {
        const int from = index[edge.from][instance.micro];
        if (from >= 0 && !is_free[from])
          domain.lo = std::max(domain.lo, schedule.instances[from].start + placement.blocks[edge.from].span + edge.delay);
      }
      if (edge.from == instance.block) {
        const int to = index[edge.to][instance.micro];
        if (to >= 0 && !is_free[to]) domain.hi = std::min(domain.hi, schedule.instances[to].start - edge.delay - span);
      }
    }
    result.push_back(domain);
  }
  return result;
}

// Per device and step of the window: the free allocations made by then plus
// the fixed ones under the limit. Before the window nothing free has
// started, and after it everything has, as in the schedule given.
// False when the deadline passed while building (the encoding is then
// incomplete and must not be solved).
bool add_window_memory(Backend& backend, const Schedule& schedule, const Window& window,
                       const std::vector<IntVar>& start, const std::vector<bool>& is_free, const Deadline& deadline) {
  if (schedule.memory_limit.empty()) return true;
  const Placement& placement = schedule.placement;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<std::pair<long long, IntVar>> allocations;
    for (size_t k = 0; k < window.free.size(); ++k) {
      const Block& block = placement.blocks[schedule.instances[window.free[k]].block];
      if (block.memory == 0 || std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end())
        continue;
      allocations.push_back({block.memory, start[k]});
    }
    if (allocations.empty()) continue;
    if (deadline.expired()) return false;
    // The fixed memory at each step of the window, by the changes at starts.
    std::vector<Memory> fixed(static_cast<size_t>(window.end - window.begin), 0);
    Memory before = 0;
    for (size_t i = 0; i < schedule.instances.size(); ++i) {
      const Instance& instance = schedule.instances[i];
      const Block& block = placement.blocks[instance.block];
      if (is_free[i] || block.memory == 0 || instance.start >= window.end ||
          std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end())
        continue;
      if (instance.start < window.begin) before += block.memory;
      else fixed[instance.start - window.begin] += block.memory;
    }
    for (Time step = window.begin; step < window.end; ++step) {
      before += fixed[step - window.begin];
      LinearSum sum;
      for (const auto& [memory, var] : allocations) sum.bools.push_back({memory, backend.at_most(var, static_cast<int>(step))});
      backend.add_linear_at_most(sum, schedule.memory_limit[device] - before);
    }
  }
  return true;
}

// Asks for an end one below the window's end now, then bisects between what
// the domains allow and the end found; the starts of the shortest end found.
std::optional<std::vector<Time>> bisect_end(Backend& backend, const Schedule& schedule, const Window& window,
                                            const std::vector<IntVar>& start, const std::vector<Domain>& domain,
                                            const Deadline& deadline) {
  const Placement& placement = schedule.placement;
  Time lowest = 0;
  for (size_t k = 0; k < domain.size(); ++k)
    lowest = std::max(lowest, domain[k].lo + placement.blocks[schedule.instances[window.free[k]].block].span);
  Time best = window.end;
  std::optional<std::vector<Time>> found;
  while (lowest < best && !deadline.expired()) {
    // One below the end first: the gains are a few steps, and the unsat
    // answer there ends the window at once.
    const Time bound = found ? lowest + (best - 1 - lowest) / 2 : best - 1;
    std::vector<Lit> assumptions;
    for (size_t k = 0; k < start.size(); ++k) {
      const Time span = placement.blocks[schedule.instances[window.free[k]].block].span;
      assumptions.push_back(backend.at_most(start[k], static_cast<int>(bound - span)));
    }
    const Answer answer = backend.solve(assumptions, deadline);
    if (answer == Answer::Unknown) break;
    if (answer == Answer::Unsat) {
      lowest = bound + 1;
      continue;
    }
    std::vector<Time> starts;
    best = 0;
    for (size_t k = 0; k < start.size(); ++k) {
      starts.push_back(backend.value(start[k]));
      best = std::max(best, starts.back() + placement.blocks[schedule.instances[window.free[k]].block].span);
    }
    found = std::move(starts);
  }
  return found;
}

// The window's end made as small as the solver finds by the deadline; the
// new starts of the free instances (in window.free's order), or nothing
// when no shorter end was found.
std::optional<std::vector<Time>> solve_window(const Schedule& schedule, const Window& window,
                                              const SearchOptions& options, const Deadline& deadline) {
  const Placement& placement = schedule.placement;
  const std::vector<std::vector<int>> index = index_of(schedule);
  std::vector<bool> is_free(schedule.instances.size(), false);
  for (int i : window.free) is_free[i] = true;
  const std::vector<Domain> domain = domains(schedule, window, is_free, index);
  const long long literals = static_cast<long long>(window.end - window.begin) * static_cast<long long>(domain.size());
  if (literals > kMaxWindowLiterals) return std::nullopt;

  std::unique_ptr<Backend> backend = make_backend(options.backend, options.backend_settings);
  std::vector<IntVar> start;
  std::map<int, size_t> position;  // instance index -> position in window.free
  for (size_t k = 0; k < window.free.size(); ++k) {
    start.push_back(backend->new_int(static_cast<int>(domain[k].lo), static_cast<int>(domain[k].hi)));
    position[window.free[k]] = k;
  }
  for (size_t k = 0; k < window.free.size(); ++k) {
    const Instance& instance = schedule.instances[window.free[k]];
    for (const Edge& edge : placement.edges) {
      if (edge.from != instance.block) continue;
      const int to = index[edge.to][instance.micro];
      if (to < 0 || !is_free[to]) continue;
      backend->add_difference(start[position[to]], start[k],
                              static_cast<int>(placement.blocks[edge.from].span + edge.delay));
    }
  }
  // Fixed instances that reach into the window, per device.
  std::vector<std::vector<int>> fixed_on(placement.ndevs);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    if (is_free[i]) continue;
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    if (instance.start + block.span <= window.begin || instance.start >= window.end) continue;
    for (int device : block.devices) fixed_on[device].push_back(static_cast<int>(i));
  }
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) return std::nullopt;
    std::vector<IntVar> starts;
    std::vector<int> spans;
    for (size_t k = 0; k < window.free.size(); ++k) {
      const Block& block = placement.blocks[schedule.instances[window.free[k]].block];
      if (std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end()) continue;
      starts.push_back(start[k]);
      spans.push_back(static_cast<int>(block.span));
      for (int f : fixed_on[device]) {
        const Instance& fixed = schedule.instances[f];
        const Time fixed_end = fixed.start + placement.blocks[fixed.block].span;
        backend->add_clause({backend->at_most(start[k], static_cast<int>(fixed.start - block.span)),
                             ~backend->at_most(start[k], static_cast<int>(fixed_end - 1))});
      }
    }
    if (starts.size() > 1) backend->add_no_overlap(starts, spans);
  }
  if (!add_window_memory(*backend, schedule, window, start, is_free, deadline)) return std::nullopt;
  return bisect_end(*backend, schedule, window, start, domain, deadline);
}

std::vector<int> ranked_by_start(const Schedule& schedule) {
  std::vector<int> order(schedule.instances.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return schedule.instances[a].start < schedule.instances[b].start; });
  return order;
}

// Which instances a window frees: those ranked [first, first + size) by
// start (a slice of time), or every instance of the micro-batches
// [first, first + size) (a whole dependency chain, which a slice of time
// shorter than one micro-batch's latency cannot move).
enum class Freed { ByStart, ByMicro };

struct Neighbourhood {
  Freed freed = Freed::ByStart;
  size_t first = 0;
  size_t size = 0;
};

// The window spans from the earliest start of its free instances to their
// latest end.
Window window_of(const Schedule& schedule, const Neighbourhood& neighbourhood) {
  Window window;
  if (neighbourhood.freed == Freed::ByStart) {
    const std::vector<int> by_start = ranked_by_start(schedule);
    const size_t last = std::min(by_start.size(), neighbourhood.first + neighbourhood.size);
    window.free.assign(by_start.begin() + neighbourhood.first, by_start.begin() + last);
  } else {
    for (size_t i = 0; i < schedule.instances.size(); ++i) {
      const size_t micro = static_cast<size_t>(schedule.instances[i].micro);
      if (micro >= neighbourhood.first && micro < neighbourhood.first + neighbourhood.size)
        window.free.push_back(static_cast<int>(i));
    }
  }
  window.begin = schedule.instances[window.free.front()].start;
  for (int i : window.free) {
    const Instance& instance = schedule.instances[i];
    window.begin = std::min(window.begin, instance.start);
    window.end = std::max(window.end, instance.start + schedule.placement.blocks[instance.block].span);
  }
  // Free instances may also move into the time before their earliest start
  // (half the window's length): the holes there are what a tail can use.
  window.begin = std::max<Time>(0, window.begin - (window.end - window.begin) / 2);
  return window;
}

// The windows of one pass: the tail and the head (a slice of time, then the
// last or first micro-batches), then slices sliding by half a slice from
// the tail towards the head.
std::vector<Neighbourhood> pass_of(const Schedule& schedule, size_t slice) {
  const size_t count = schedule.instances.size();
  const size_t nmicros = static_cast<size_t>(schedule.nmicros);
  const size_t micros = std::clamp<size_t>(slice / std::max<size_t>(1, schedule.placement.blocks.size()), 1, nmicros);
  if (count <= slice) return {{Freed::ByStart, 0, count}};
  std::vector<Neighbourhood> pass = {{Freed::ByStart, count - slice, slice},
                                     {Freed::ByMicro, nmicros - micros, micros},
                                     {Freed::ByStart, 0, slice},
                                     {Freed::ByMicro, 0, micros}};
  const size_t step = std::max<size_t>(1, slice / 2);
  for (size_t first = count - slice; first > step;) {
    first -= step;
    pass.push_back({Freed::ByStart, first, slice});
  }
  return pass;
}

// One window tried on `current`; true when it was replaced by a schedule at
// most as long whose window ends earlier.
bool try_window(Schedule& current, const Neighbourhood& neighbourhood, const SearchOptions& options,
                const Deadline& deadline) {
  const Window window = window_of(current, neighbourhood);
  std::optional<std::vector<Time>> starts = solve_window(current, window, options, deadline);
  if (!starts) return false;
  Schedule changed = current;
  for (size_t k = 0; k < window.free.size(); ++k) changed.instances[window.free[k]].start = (*starts)[k];
  changed = compacted(changed);
  if (makespan(changed) > makespan(current) || !schedule_fits(changed)) return false;
  current = std::move(changed);
  return true;
}

}  // namespace

Schedule compacted(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const std::vector<std::vector<int>> index = index_of(schedule);
  Schedule result = schedule;
  std::vector<Time> device_free(placement.ndevs, 0);
  for (int i : ranked_by_start(schedule)) {
    Instance& instance = result.instances[i];
    const Block& block = placement.blocks[instance.block];
    Time earliest = 0;
    for (int device : block.devices) earliest = std::max(earliest, device_free[device]);
    for (const Edge& edge : placement.edges) {
      if (edge.to != instance.block) continue;
      const int from = index[edge.from][instance.micro];
      if (from >= 0) earliest = std::max(earliest, result.instances[from].start + placement.blocks[edge.from].span + edge.delay);
    }
    instance.start = earliest;
    for (int device : block.devices) device_free[device] = earliest + block.span;
  }
  sort_instances(result);
  return result;
}

Schedule improve_by_neighbourhoods(const Schedule& start, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats) {
  Schedule current = compacted(start);
  if (makespan(current) > makespan(start) || !schedule_fits(current)) current = start;
  const size_t slice = static_cast<size_t>(kFreePerDevice) * std::max(1, current.placement.ndevs);
  if (current.instances.empty()) return current;
  bool gained = true;
  while (gained && makespan(current) > bound && !options.deadline.expired()) {
    gained = false;
    for (const Neighbourhood& neighbourhood : pass_of(current, slice)) {
      if (options.deadline.expired() || makespan(current) <= bound) break;
      const Time before = makespan(current);
      const double seconds = std::max(kWindowSeconds, options.deadline.seconds_left() / 8);
      const bool changed = try_window(current, neighbourhood, options, options.deadline.within(seconds));
      if (stats) ++stats->windows;
      if (changed && makespan(current) < before) {
        gained = true;
        if (stats) ++stats->improvements;
      }
    }
  }
  return current;
}

}  // namespace tessel
