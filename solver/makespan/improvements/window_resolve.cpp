// One window's encoding (see the header): a start variable per free
// instance with the domain its fixed neighbours leave (after its fixed
// predecessors, before its fixed successors, inside [begin, end)); a
// difference per dependency between free instances; no-overlap among the
// free instances of a device, and one clause per free/fixed pair on a device
// (before it or after it); per device and step of the window, the free
// allocations made by then under the limit minus the fixed ones. The
// window's end is bisected under assumptions on one solver, as the full
// search does with the makespan.
#include "solver/makespan/improvements/window_resolve.hpp"

#include <algorithm>
#include <unordered_map>

#include "sat/backend.hpp"

namespace tessel {
namespace {

// Instance indices into schedule.instances, by (block, micro).
std::vector<std::vector<int>> index_of(const Schedule& schedule) {
  std::vector<std::vector<int>> index(schedule.placement.blocks.size(), std::vector<int>(schedule.nmicros, -1));
  for (size_t i = 0; i < schedule.instances.size(); ++i)
    index[schedule.instances[i].block][schedule.instances[i].micro] = static_cast<int>(i);
  return index;
}

// Free instance k's start domain [lo, hi] given the fixed ones.
struct Domain {
  Time lo = 0;
  Time hi = 0;
};

struct Context {
  const Schedule& schedule;
  const FreeWindow& window;
  std::vector<std::vector<int>> index;
  std::vector<bool> is_free;
  std::vector<std::vector<const Edge*>> in, out;  // per block

  Context(const Schedule& s, const FreeWindow& w)
      : schedule(s), window(w), index(index_of(s)), is_free(s.instances.size(), false),
        in(s.placement.blocks.size()), out(s.placement.blocks.size()) {
    for (int i : w.free) is_free[i] = true;
    for (const Edge& edge : s.placement.edges) {
      out[edge.from].push_back(&edge);
      in[edge.to].push_back(&edge);
    }
  }
  Time span_of(int instance) const { return schedule.placement.blocks[schedule.instances[instance].block].span; }
};

std::vector<Domain> domains(const Context& context) {
  const Schedule& schedule = context.schedule;
  const Placement& placement = schedule.placement;
  std::vector<Domain> result;
  for (int i : context.window.free) {
    const Instance& instance = schedule.instances[i];
    const Time span = placement.blocks[instance.block].span;
    Domain domain{context.window.begin, context.window.end - span};
    for (const Edge* edge : context.in[instance.block]) {
      const int from = context.index[edge->from][instance.micro];
      if (from >= 0 && !context.is_free[from])
        domain.lo = std::max(domain.lo, schedule.instances[from].start + placement.blocks[edge->from].span + edge->delay);
    }
    for (const Edge* edge : context.out[instance.block]) {
      const int to = context.index[edge->to][instance.micro];
      if (to >= 0 && !context.is_free[to]) domain.hi = std::min(domain.hi, schedule.instances[to].start - edge->delay - span);
    }
    result.push_back(domain);
  }
  // Through the dependencies between free instances too, until nothing
  // moves (the dependencies have no cycle): narrower domains make every
  // constraint below smaller.
  std::unordered_map<int, size_t> position;
  for (size_t k = 0; k < context.window.free.size(); ++k) position[context.window.free[k]] = k;
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t k = 0; k < context.window.free.size(); ++k) {
      const Instance& instance = schedule.instances[context.window.free[k]];
      for (const Edge* edge : context.out[instance.block]) {
        const int to = context.index[edge->to][instance.micro];
        if (to < 0 || !context.is_free[to]) continue;
        const Time gap = placement.blocks[instance.block].span + edge->delay;
        Domain& after = result[position[to]];
        if (result[k].lo + gap > after.lo) after.lo = result[k].lo + gap, moved = true;
        if (after.hi - gap < result[k].hi) result[k].hi = after.hi - gap, moved = true;
      }
    }
  }
  return result;
}

// Per device and step of the window: the free allocations made by then plus
// the fixed ones under the limit. Before the window nothing free has
// started, and after it everything has, as in the schedule given (the same
// instances, so the same memory). A free instance whose domain ends before a
// step has surely started by then (a constant), one whose domain begins
// after it has not; and a step where no allocation, free or fixed, may start
// needs no bound (a free never raises the level). False when the deadline passed while
// building (the encoding is then incomplete and must not be solved).
bool add_window_memory(Backend& backend, const Context& context, const std::vector<IntVar>& start,
                       const std::vector<Domain>& domain, const Deadline& deadline) {
  const Schedule& schedule = context.schedule;
  const FreeWindow& window = context.window;
  if (schedule.memory_limit.empty()) return true;
  const Placement& placement = schedule.placement;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<size_t> allocating;  // positions in window.free
    for (size_t k = 0; k < window.free.size(); ++k) {
      const Block& block = placement.blocks[schedule.instances[window.free[k]].block];
      if (block.memory != 0 && on_device(block, device)) allocating.push_back(k);
    }
    if (allocating.empty()) continue;
    if (deadline.expired()) return false;
    // The fixed memory at each step of the window, by the changes at starts.
    std::vector<Memory> fixed(static_cast<size_t>(window.end - window.begin), 0);
    Memory before = 0;
    for (size_t i = 0; i < schedule.instances.size(); ++i) {
      const Instance& instance = schedule.instances[i];
      const Block& block = placement.blocks[instance.block];
      if (context.is_free[i] || block.memory == 0 || instance.start >= window.end || !on_device(block, device))
        continue;
      if (instance.start < window.begin) before += block.memory;
      else fixed[instance.start - window.begin] += block.memory;
    }
    for (Time step = window.begin; step < window.end; ++step) {
      before += fixed[step - window.begin];
      bool may_allocate = fixed[step - window.begin] > 0;
      LinearSum sum;
      Memory started = 0;
      for (size_t k : allocating) {
        const Memory memory = placement.blocks[schedule.instances[window.free[k]].block].memory;
        if (domain[k].hi <= step) {
          started += memory;
        } else if (domain[k].lo <= step) {
          sum.bools.push_back({memory, backend.at_most(start[k], static_cast<int>(step))});
          may_allocate |= memory > 0;
        }
        may_allocate |= memory > 0 && domain[k].hi == step;
      }
      if (may_allocate && !sum.bools.empty())
        backend.add_linear_at_most(sum, schedule.memory_limit[device] - before - started);
    }
  }
  return true;
}

// Asks for an end one below the window's end now, then bisects between what
// the domains allow and the end found; the starts of the shortest end found.
WindowAnswer bisect_end(Backend& backend, const Context& context, const std::vector<IntVar>& start,
                        const std::vector<Domain>& domain, const Deadline& deadline) {
  const std::vector<int>& free = context.window.free;
  Time lowest = 0;
  for (size_t k = 0; k < domain.size(); ++k) lowest = std::max(lowest, domain[k].lo + context.span_of(free[k]));
  Time best = context.window.end;
  WindowAnswer answer;
  std::optional<std::vector<Time>>& found = answer.starts;
  while (lowest < best) {
    if (deadline.expired()) {
      answer.timed_out = true;
      break;
    }
    // One below the end first: the gains are a few steps, and the unsat
    // answer there ends the window at once.
    const Time bound = found ? lowest + (best - 1 - lowest) / 2 : best - 1;
    std::vector<Lit> assumptions;
    for (size_t k = 0; k < start.size(); ++k)
      assumptions.push_back(backend.at_most(start[k], static_cast<int>(bound - context.span_of(free[k]))));
    const Answer reply = backend.solve(assumptions, deadline);
    if (reply == Answer::Unknown) {
      answer.timed_out = true;
      break;
    }
    if (reply == Answer::Unsat) {
      lowest = bound + 1;
      continue;
    }
    std::vector<Time> starts;
    best = 0;
    for (size_t k = 0; k < start.size(); ++k) {
      starts.push_back(backend.value(start[k]));
      best = std::max(best, starts.back() + context.span_of(free[k]));
    }
    found = std::move(starts);
  }
  return answer;
}

// The devices: free instances apart from each other and from the fixed
// instances that reach into the window. False past the deadline.
bool add_devices(Backend& backend, const Context& context, const std::vector<IntVar>& start, const Deadline& deadline) {
  const Schedule& schedule = context.schedule;
  const Placement& placement = schedule.placement;
  const FreeWindow& window = context.window;
  std::vector<std::vector<int>> fixed_on(placement.ndevs);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    if (context.is_free[i]) continue;
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    if (instance.start + block.span <= window.begin || instance.start >= window.end) continue;
    for (int device : block.devices) fixed_on[device].push_back(static_cast<int>(i));
  }
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) return false;
    std::vector<IntVar> starts;
    std::vector<int> spans;
    for (size_t k = 0; k < window.free.size(); ++k) {
      const Block& block = placement.blocks[schedule.instances[window.free[k]].block];
      if (!on_device(block, device)) continue;
      starts.push_back(start[k]);
      spans.push_back(static_cast<int>(block.span));
      for (int f : fixed_on[device]) {
        const Instance& fixed = schedule.instances[f];
        const Time fixed_end = fixed.start + placement.blocks[fixed.block].span;
        backend.add_clause({backend.at_most(start[k], static_cast<int>(fixed.start - block.span)),
                            ~backend.at_most(start[k], static_cast<int>(fixed_end - 1))});
      }
    }
    if (starts.size() > 1) backend.add_no_overlap(starts, spans);
  }
  return true;
}

}  // namespace

FreeWindow window_around(const Schedule& schedule, std::vector<int> free, double lead_fraction) {
  FreeWindow window;
  window.free = std::move(free);
  if (window.free.empty()) return window;
  window.begin = schedule.instances[window.free.front()].start;
  for (int i : window.free) {
    const Instance& instance = schedule.instances[i];
    window.begin = std::min(window.begin, instance.start);
    window.end = std::max(window.end, instance.start + schedule.placement.blocks[instance.block].span);
  }
  const Time lead = static_cast<Time>(static_cast<double>(window.end - window.begin) * lead_fraction);
  window.begin = std::max<Time>(0, window.begin - lead);
  return window;
}

long long window_literals(const FreeWindow& window) {
  return static_cast<long long>(window.end - window.begin) * static_cast<long long>(window.free.size());
}

WindowAnswer resolve_window(const Schedule& schedule, const FreeWindow& window, const SearchOptions& options,
                            const Deadline& deadline) {
  const WindowAnswer timed_out{std::nullopt, true};
  if (window.free.empty()) return {};
  if (deadline.expired()) return timed_out;
  const Context context(schedule, window);
  const std::vector<Domain> domain = domains(context);
  for (const Domain& d : domain)
    if (d.lo > d.hi) return {};  // cannot happen for a valid schedule; never build an empty domain

  std::unique_ptr<Backend> backend = make_backend(options.backend, options.backend_settings);
  std::vector<IntVar> start;
  std::unordered_map<int, size_t> position;  // instance index -> position in window.free
  for (size_t k = 0; k < window.free.size(); ++k) {
    start.push_back(backend->new_int(static_cast<int>(domain[k].lo), static_cast<int>(domain[k].hi)));
    position[window.free[k]] = k;
  }
  const Placement& placement = schedule.placement;
  for (size_t k = 0; k < window.free.size(); ++k) {
    const Instance& instance = schedule.instances[window.free[k]];
    for (const Edge* edge : context.out[instance.block]) {
      const int to = context.index[edge->to][instance.micro];
      if (to < 0 || !context.is_free[to]) continue;
      backend->add_difference(start[position[to]], start[k],
                              static_cast<int>(placement.blocks[edge->from].span + edge->delay));
    }
  }
  if (!add_devices(*backend, context, start, deadline)) return timed_out;
  if (!add_window_memory(*backend, context, start, domain, deadline)) return timed_out;
  return bisect_end(*backend, context, start, domain, deadline);
}

}  // namespace tessel
