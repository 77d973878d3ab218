// Shortening warmup and cooldown with the solver (see the header).
//
// The subtle part is that the written schedule must stay valid for every
// number of micro-batches N >= K after unrolling, and the unrolled schedules
// differ at their edges: for small N a warmup instance's successor is a
// cooldown instance, for larger N a copy of the window. So the dependency
// constraints are generated from every unrolled shape N = K .. 2K+1 (after
// that only identical windows are added), each instance expressed as a
// warmup variable, a fixed window copy, or a cooldown variable shifted by
// whole periods. Devices and memory do not depend on N: the warmup ends
// before the first window, the cooldown starts after the last, and each
// window copy holds every block once, so it leaves memory as it found it.
//
// Size: those dependencies, read against the window's fixed starts, confine
// each variable to a range far narrower than the warmup (or cooldown), so
// the start domains are tightened first, and the memory sum at a step holds
// only the variables that may start there (the ones surely started are a
// constant) and is stated only at steps where an allocation may start (a
// free never raises the level). On 16 devices this cut the encoding's
// building from the whole budget to a fraction of it.
#include "solver/strategies/boundary_solver.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <numeric>
#include <sstream>

#include "sat/backend.hpp"
#include "solver/knobs/encoding_budget.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/modulo/warmup_cooldown.hpp"

namespace tessel {
namespace {

// The unknowns before the solver exists: one node per warmup and cooldown
// instance, one per distinct fixed step of the window copies, each with a
// start range [lo, hi].
struct Nodes {
  std::map<std::pair<int, int>, int> warmup, cooldown;  // (block, micro) -> node
  std::map<Time, int> constants;                         // fixed step -> node
  std::vector<Time> lo, hi;

  int add(Time low, Time high) {
    lo.push_back(low);
    hi.push_back(high);
    return static_cast<int>(lo.size()) - 1;
  }
  int constant(Time value) {
    auto found = constants.find(value);
    if (found != constants.end()) return found->second;
    const int node = add(value, value);
    constants.emplace(value, node);
    return node;
  }
  bool fixed(int node) const { return lo[node] == hi[node] && constants.count(lo[node]) && constants.at(lo[node]) == node; }
};

// Where instance (block, micro) of the N-schedule is: a node plus an offset.
struct Place {
  int node = -1;
  Time offset = 0;
};

struct Window {
  const Schedule& schedule;
  Repetend repetend;
  int k = 1;
  std::vector<int> micro;   // per block: its micro-batch in the window
  std::vector<Time> start;  // per block: its start in the window
};

Nodes make_nodes(const Window& window, Time horizon) {
  const Schedule& schedule = window.schedule;
  Nodes nodes;
  for (const Instance& instance : schedule.instances) {
    const Time span = schedule.placement.blocks[instance.block].span;
    if (instance.start < window.repetend.start)
      nodes.warmup[{instance.block, instance.micro}] = nodes.add(0, window.repetend.start - 1);
    else if (instance.start >= window.repetend.end)
      nodes.cooldown[{instance.block, instance.micro}] =
          nodes.add(window.repetend.end, std::max<Time>(window.repetend.end, horizon - span));
  }
  return nodes;
}

// Dependencies of every unrolled shape, each difference once:
// (to node, from node) -> least gap, to >= from + gap.
std::map<std::pair<int, int>, Time> dependency_gaps(const Window& window, Nodes& nodes) {
  const Placement& placement = window.schedule.placement;
  const int k = window.k;
  const Time period = window.repetend.period;
  auto place = [&](int block, int micro, int unrolled) -> Place {
    auto in_warmup = nodes.warmup.find({block, micro});
    if (in_warmup != nodes.warmup.end()) return {in_warmup->second, 0};
    const int copy = micro - window.micro[block];
    if (copy <= unrolled - k) return {nodes.constant(window.start[block] + copy * period), 0};
    const int shift = unrolled - k;
    return {nodes.cooldown.at({block, micro - shift}), shift * period};
  };
  std::map<std::pair<int, int>, Time> gaps;
  for (int unrolled = k; unrolled <= 2 * k + 1; ++unrolled)
    for (const Edge& edge : placement.edges)
      for (int micro = 0; micro < unrolled; ++micro) {
        const Place from = place(edge.from, micro, unrolled);
        const Place to = place(edge.to, micro, unrolled);
        // to + to.offset >= from + from.offset + span + delay
        const Time gap = placement.blocks[edge.from].span + edge.delay + from.offset - to.offset;
        auto [found, inserted] = gaps.try_emplace({to.node, from.node}, gap);
        if (!inserted) found->second = std::max(found->second, gap);
      }
  return gaps;
}

// Each range narrowed by the differences until nothing moves (the graph of
// one schedule's dependencies has no positive cycle, so this ends). False
// when a range empties (cannot happen for a valid schedule).
bool tighten(Nodes& nodes, const std::map<std::pair<int, int>, Time>& gaps) {
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [key, gap] : gaps) {
      const auto [to, from] = key;
      if (nodes.lo[from] + gap > nodes.lo[to]) {
        nodes.lo[to] = nodes.lo[from] + gap;
        moved = true;
      }
      if (nodes.hi[to] - gap < nodes.hi[from]) {
        nodes.hi[from] = nodes.hi[to] - gap;
        moved = true;
      }
      if (nodes.lo[to] > nodes.hi[to] || nodes.lo[from] > nodes.hi[from]) return false;
    }
  }
  return true;
}

// The solver's side of the encoding: one start variable per node, and the
// verbs the constraints below are written with, in the schedule's terms (a
// node starts by a step, two nodes are a gap apart, the nodes on a device do
// not overlap), so that the backend's own are called from here only.
struct Starts {
  std::unique_ptr<Backend> backend;
  std::vector<IntVar> var;  // per node

  // A variable per node over its range [lo, hi].
  void make(const std::string& backend_name, const Nodes& nodes) {
    backend = make_backend(backend_name);
    for (size_t node = 0; node < nodes.lo.size(); ++node)
      var.push_back(backend->new_int(static_cast<int>(nodes.lo[node]), static_cast<int>(nodes.hi[node])));
  }
  // [node starts at or before step].
  Lit by(int node, Time step) const { return backend->at_most(var[node], static_cast<int>(step)); }
  // The node's start in the last Sat answer.
  Time of(int node) const { return backend->value(var[node]); }
  // to starts at least `gap` after from.
  void gap(int to, int from, Time gap) { backend->add_difference(var[to], var[from], static_cast<int>(gap)); }
  // The nodes' intervals [start, start + span) are pairwise disjoint.
  void apart(const std::vector<int>& nodes, const std::vector<int>& spans) {
    std::vector<IntVar> starts;
    for (int node : nodes) starts.push_back(var[node]);
    backend->add_no_overlap(starts, spans);
  }
  void sum_at_most(const LinearSum& sum, long long bound) { backend->add_linear_at_most(sum, bound); }
  Answer solve(const std::vector<Lit>& assumptions, const Deadline& deadline) {
    return backend->solve(assumptions, deadline);
  }
};

// Order literals of the start domains, and memory terms (per allocating
// variable, the steps it may start at, on each of its devices).
struct EncodingSize {
  long long literals = 0;
  long long memory_terms = 0;
};

EncodingSize encoding_size(const Schedule& schedule, const Nodes& nodes) {
  EncodingSize size;
  for (const auto* part : {&nodes.warmup, &nodes.cooldown})
    for (const auto& [key, node] : *part) {
      const Block& block = schedule.placement.blocks[key.first];
      const long long range = nodes.hi[node] - nodes.lo[node] + 1;
      size.literals += range;
      if (block.memory != 0) size.memory_terms += range * static_cast<long long>(block.devices.size());
    }
  return size;
}

// Memory on `device` over [from, to): per step where an allocation may
// start, the variables that may start by then (their memory if they did)
// plus those surely started, at most `limit`.
struct MemorySpan {
  const std::vector<char>* on;  // the device's blocks
  Time from, to;
  Memory limit;
};

void add_memory(Starts& starts, const Placement& placement, const std::map<std::pair<int, int>, int>& part,
                const Nodes& nodes, const MemorySpan& span) {
  const auto [on, from, to, limit] = span;
  std::vector<std::pair<int, Memory>> allocating;  // (node, memory)
  for (const auto& [key, node] : part) {
    const Block& block = placement.blocks[key.first];
    if (block.memory != 0 && (*on)[key.first]) allocating.push_back({node, block.memory});
  }
  if (allocating.empty()) return;
  for (Time step = from; step < to; ++step) {
    bool may_allocate = false;
    for (const auto& [node, memory] : allocating)
      may_allocate |= memory > 0 && nodes.lo[node] <= step && step <= nodes.hi[node];
    if (!may_allocate) continue;
    LinearSum sum;
    Memory started = 0;
    for (const auto& [node, memory] : allocating) {
      if (nodes.hi[node] <= step) started += memory;
      else if (nodes.lo[node] <= step) sum.bools.push_back({memory, starts.by(node, step)});
    }
    if (!sum.bools.empty()) starts.sum_at_most(sum, limit - started);
  }
}

// One device: the warmup apart from the window's first copy, the cooldown
// apart from its last; `before_cooldown` gets what the window and the warmup
// leave allocated on it.
void add_device(Starts& starts, const Placement& placement, Nodes& nodes, const std::vector<Time>& window_start,
                const std::vector<char>& on, Memory& before_cooldown) {
  std::vector<int> head_starts, tail_starts;  // nodes
  std::vector<int> head_spans, tail_spans;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (!on[b]) continue;
    head_starts.push_back(nodes.constant(window_start[b]));
    head_spans.push_back(static_cast<int>(placement.blocks[b].span));
    before_cooldown += placement.blocks[b].memory;
  }
  tail_starts = head_starts;
  tail_spans = head_spans;
  for (const auto& [key, node] : nodes.warmup)
    if (on[key.first]) {
      head_starts.push_back(node);
      head_spans.push_back(static_cast<int>(placement.blocks[key.first].span));
      before_cooldown += placement.blocks[key.first].memory;
    }
  for (const auto& [key, node] : nodes.cooldown)
    if (on[key.first]) {
      tail_starts.push_back(node);
      tail_spans.push_back(static_cast<int>(placement.blocks[key.first].span));
    }
  starts.apart(head_starts, head_spans);
  starts.apart(tail_starts, tail_spans);
}

// Per device, the steps its warmup and cooldown variables may occupy: what
// its time-indexed constraints cost to build.
std::vector<long long> device_work(const Placement& placement, const Nodes& nodes) {
  std::vector<long long> work(placement.ndevs, 0);
  for (const auto* part : {&nodes.warmup, &nodes.cooldown})
    for (const auto& [key, node] : *part) {
      const Block& block = placement.blocks[key.first];
      for (int device : block.devices) work[device] += nodes.hi[node] - nodes.lo[node] + block.span;
    }
  return work;
}

// on[d][b]: block b runs on device d (what every device's constraints read).
std::vector<std::vector<char>> device_blocks(const Placement& placement) {
  std::vector<std::vector<char>> on(placement.ndevs, std::vector<char>(placement.blocks.size(), 0));
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    for (int device : placement.blocks[b].devices) on[device][b] = 1;
  return on;
}

}  // namespace

namespace {

// One shortening: the schedule, its window, the encoding's nodes and
// variables, and the outcome so far.
struct BoundaryRun {
  const Schedule& schedule;
  const Deadline& deadline;
  const ProgressSink& progress;
  Repetend repetend;
  Time horizon = 0;
  long long makespan_floor = 0;
  Nodes nodes;
  std::map<std::pair<int, int>, Time> gaps;
  Starts starts;
  std::vector<Memory> before_cooldown;
  std::vector<std::vector<char>> on;  // device_blocks
  Deadline phase_deadline;
  BoundaryOutcome outcome;

  const Placement& placement() const { return schedule.placement; }
  void report(const std::string& line) const {
    if (progress) progress(line);
  }
};

// The window's instances: per block, its micro-batch and start.
Window window_of(const Schedule& schedule) {
  const int nblocks = static_cast<int>(schedule.placement.blocks.size());
  Window window{schedule, *schedule.repetend, schedule.nmicros, std::vector<int>(nblocks, -1),
                std::vector<Time>(nblocks, 0)};
  for (const Instance& instance : schedule.instances)
    if (instance.start >= window.repetend.start && instance.start < window.repetend.end) {
      window.micro[instance.block] = instance.micro;
      window.start[instance.block] = instance.start;
    }
  return window;
}

// Whether the encoding is too large to build (the schedule in hand stays valid).
bool too_large(const BoundaryRun& run) {
  const EncodingSize size = encoding_size(run.schedule, run.nodes);
  if (!run.schedule.memory_limit.empty() && size.memory_terms > kMaxMemoryTerms) {
    run.report("boundary: skipped, its memory constraints would hold " + std::to_string(size.memory_terms) +
               " terms (more than " + std::to_string(kMaxMemoryTerms) + ")");
    return true;
  }
  if (size.literals > kMaxOrderLiterals) {
    run.report("boundary: skipped, its start variables would take " + std::to_string(size.literals) +
               " literals (more than " + std::to_string(kMaxOrderLiterals) + "; the time values are large)");
    return true;
  }
  return false;
}

// Devices: the warmup against the first window, the cooldown against the
// last. Their time-indexed constraints are most of the building, in
// proportion to the steps each variable may occupy: once a tenth of that
// work is built, the whole building is extrapolated, and an encoding that
// would take more than a quarter of the budget to build is not built
// (measured on nnshape, 16 devices: the build took 0.46 s of 1 s and the
// first answer came after 1 s more; the large-neighbourhood search
// shortens the ends at N instead). False when skipped.
bool add_devices(BoundaryRun& run, const Window& window, std::chrono::steady_clock::time_point begin,
                 double vars_seconds) {
  const Placement& placement = run.placement();
  const std::vector<long long> work = device_work(placement, run.nodes);
  const long long total_work = std::accumulate(work.begin(), work.end(), 0LL);
  const double budget = run.deadline.unlimited() ? 0 : seconds_since(begin) + run.deadline.seconds_left();
  long long work_done = 0;
  bool extrapolated = run.deadline.unlimited();
  run.before_cooldown.assign(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    if (run.deadline.expired()) break;
    add_device(run.starts, placement, run.nodes, window.start, run.on[device], run.before_cooldown[device]);
    work_done += work[device];
    if (extrapolated || work_done * 10 < total_work) continue;
    extrapolated = true;
    const double whole = vars_seconds + (seconds_since(begin) - vars_seconds) * total_work / std::max(1LL, work_done);
    if (whole > budget / 4) {
      std::ostringstream line;
      line << "boundary: skipped, building its encoding would take about " << whole << " s of its " << budget << " s";
      run.report(line.str());
      return false;
    }
  }
  return true;
}

// The encoding: a variable per node, the dependency gaps, the devices, and
// memory before the window (warmup only) and after it (all that came
// before, plus the cooldown started so far). False when skipped.
bool build_encoding(BoundaryRun& run, const Window& window, const std::string& backend_name) {
  const Placement& placement = run.placement();
  for (size_t b = 0; b < placement.blocks.size(); ++b) run.nodes.constant(window.start[b]);  // the devices use them all
  const auto begin = std::chrono::steady_clock::now();
  run.on = device_blocks(placement);
  run.starts.make(backend_name, run.nodes);
  for (const auto& [key, gap] : run.gaps) {
    const auto [to, from] = key;
    if (run.nodes.fixed(to) && run.nodes.fixed(from)) continue;  // window copies: the modulo schedule holds it
    run.starts.gap(to, from, gap);
  }
  if (!add_devices(run, window, begin, seconds_since(begin))) return false;
  if (run.schedule.memory_limit.empty()) return true;
  for (int device = 0; device < placement.ndevs && !run.deadline.expired(); ++device) {
    const Memory limit = run.schedule.memory_limit[device];
    const std::vector<char>* on = &run.on[device];
    add_memory(run.starts, placement, run.nodes.warmup, run.nodes, {on, 0, run.repetend.start, limit});
    add_memory(run.starts, placement, run.nodes.cooldown, run.nodes,
               {on, run.repetend.end, run.horizon, limit - run.before_cooldown[device]});
  }
  return true;
}

// The schedule of the solver's model, starting at step 0 again.
Schedule decoded(const BoundaryRun& run) {
  Schedule result = run.schedule;
  for (Instance& instance : result.instances) {
    auto w = run.nodes.warmup.find({instance.block, instance.micro});
    if (w != run.nodes.warmup.end()) instance.start = run.starts.of(w->second);
    auto c = run.nodes.cooldown.find({instance.block, instance.micro});
    if (c != run.nodes.cooldown.end()) instance.start = run.starts.of(c->second);
  }
  Time earliest = LLONG_MAX;
  for (const Instance& instance : result.instances) earliest = std::min(earliest, instance.start);
  for (Instance& instance : result.instances) instance.start -= earliest;
  result.repetend->start -= earliest;
  result.repetend->end -= earliest;
  sort_instances(result);
  return result;
}

Answer ask(BoundaryRun& run, const std::string& what, const std::vector<Lit>& assumptions) {
  auto start = std::chrono::steady_clock::now();
  Answer answer = run.starts.solve(assumptions, run.phase_deadline);
  double seconds = seconds_since(start);
  run.outcome.calls.push_back({what, answer, seconds});
  std::ostringstream line;
  line << "boundary: " << what << ": " << answer_name(answer) << " (" << seconds << " s)";
  run.report(line.str());
  return answer;
}

// Every warmup instance starts at or after the window's start - length.
std::vector<Lit> warmup_within(const BoundaryRun& run, Time length) {
  std::vector<Lit> lits;
  for (const auto& [key, node] : run.nodes.warmup)
    lits.push_back(~run.starts.by(node, run.repetend.start - length - 1));
  return lits;
}

// Every cooldown instance ends by the window's end + length.
std::vector<Lit> cooldown_within(const BoundaryRun& run, Time length) {
  std::vector<Lit> lits;
  for (const auto& [key, node] : run.nodes.cooldown)
    lits.push_back(run.starts.by(node, run.repetend.end + length - run.placement().blocks[key.first].span));
  return lits;
}

Time warmup_length(const BoundaryRun& run) {
  Time earliest = run.repetend.start;
  for (const auto& [key, node] : run.nodes.warmup) earliest = std::min<Time>(earliest, run.starts.of(node));
  return run.repetend.start - earliest;
}

Time cooldown_length(const BoundaryRun& run) {
  Time last = run.repetend.end;
  for (const auto& [key, node] : run.nodes.cooldown)
    last = std::max<Time>(last, run.starts.of(node) + run.placement().blocks[key.first].span);
  return last - run.repetend.end;
}

// The ends' lengths so far, the schedule they make (none while the input's
// are the best), and whether a question went unanswered.
struct Ends {
  Time warmup = 0;
  Time cooldown = 0;
  std::optional<Schedule> best;
  bool warmup_stopped = false;
  bool cooldown_stopped = false;

  bool at_floor(const BoundaryRun& run) const {
    return warmup + (run.repetend.end - run.repetend.start) + cooldown <= run.makespan_floor;
  }
};

// Each bound one below the best so far: sat answers near a known schedule
// come quickly and usually jump several steps; only the last, unsat one is
// hard, and if the budget ends first the best so far is kept. The warmup
// gets half of the time left, then the cooldown (the warmup kept) the rest.
void shorten_warmup(BoundaryRun& run, Ends& ends) {
  run.phase_deadline = run.deadline;
  if (!run.deadline.unlimited())
    run.phase_deadline.at = Deadline::Clock::now() + (run.deadline.at - Deadline::Clock::now()) / 2;
  Time low = run.nodes.warmup.empty() ? 0 : 1;
  while (low < ends.warmup && !ends.warmup_stopped && !ends.at_floor(run)) {
    Answer answer = ask(run, "warmup <= " + std::to_string(ends.warmup - 1), warmup_within(run, ends.warmup - 1));
    if (answer == Answer::Sat) {
      ends.warmup = warmup_length(run);
      ends.best = decoded(run);
    } else if (answer == Answer::Unsat) {
      low = ends.warmup;
    } else {
      ends.warmup_stopped = true;
    }
  }
}

void shorten_cooldown(BoundaryRun& run, Ends& ends) {
  const std::vector<Lit> keep_warmup = warmup_within(run, ends.warmup);
  run.phase_deadline = run.deadline;
  Time low = 0;
  for (const auto& [key, node] : run.nodes.cooldown) low = std::max<Time>(low, run.placement().blocks[key.first].span);
  while (low < ends.cooldown && !ends.cooldown_stopped && !ends.at_floor(run)) {
    std::vector<Lit> assumptions = keep_warmup;
    for (Lit lit : cooldown_within(run, ends.cooldown - 1)) assumptions.push_back(lit);
    Answer answer = ask(run, "cooldown <= " + std::to_string(ends.cooldown - 1), assumptions);
    if (answer == Answer::Sat) {
      ends.cooldown = cooldown_length(run);
      ends.best = decoded(run);
    } else if (answer == Answer::Unsat) {
      low = ends.cooldown;
    } else {
      ends.cooldown_stopped = true;
    }
  }
}

// The outcome: the shortened schedule, or (none) the input kept.
BoundaryOutcome finished(BoundaryRun& run, std::optional<Schedule> shorter = std::nullopt) {
  run.outcome.shorter = std::move(shorter);
  return std::move(run.outcome);
}

}  // namespace

BoundaryOutcome shorten_boundary(const Schedule& schedule, const std::string& backend_name,
                                 const Deadline& deadline, const ProgressSink& progress) {
  BoundaryRun run{schedule, deadline, progress};
  if (!schedule.repetend) return finished(run);
  run.repetend = *schedule.repetend;
  run.horizon = makespan(schedule);
  // Nothing to win when the K micro-batches already take no more than their
  // lower bound: warmup and cooldown are then minimal (and proving that by
  // the solver's unsat answers can take the whole budget).
  run.makespan_floor = makespan_lower_bound(schedule.placement, schedule.nmicros);
  if (run.horizon <= run.makespan_floor) {
    run.report("boundary: the schedule of " + std::to_string(schedule.nmicros) +
               " micro-batches already takes its lower bound " + std::to_string(run.makespan_floor) + " steps");
    run.outcome.complete = true;
    return finished(run);
  }
  const Window window = window_of(schedule);
  run.nodes = make_nodes(window, run.horizon);
  run.gaps = dependency_gaps(window, run.nodes);
  if (!tighten(run.nodes, run.gaps)) {
    run.report("boundary: skipped, the window's dependencies leave an instance no start (a bug)");
    return finished(run);
  }
  if (too_large(run) || !build_encoding(run, window, backend_name)) return finished(run);
  // Building may have used up the budget: stop here (after_seconds of a
  // negative time would mean no limit at all).
  if (deadline.expired()) {
    run.report("boundary: budget used up while building the encoding");
    return finished(run);
  }
  Ends ends{run.repetend.start, run.horizon - run.repetend.end, std::nullopt};
  shorten_warmup(run, ends);
  shorten_cooldown(run, ends);
  run.outcome.complete = (!ends.cooldown_stopped && !ends.warmup_stopped) || ends.at_floor(run);
  if (!ends.best || makespan(*ends.best) >= run.horizon) return finished(run);
  if (!fits_for_any_length(*ends.best)) {
    // The constraints above should make this impossible; keep the valid one.
    run.report("boundary: the shortened schedule does not fit every length (a bug); keeping the squeezed one");
    run.outcome.complete = false;
    return finished(run);
  }
  return finished(run, std::move(ends.best));
}

}  // namespace tessel
