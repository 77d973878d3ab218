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
#include "solver/boundary_solver.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <numeric>
#include <sstream>

#include "sat/backend.hpp"
#include "solver/encoding_budget.hpp"
#include "solver/makespan/bounds/makespan_bound.hpp"
#include "solver/warmup_cooldown.hpp"

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
  auto place = [&](int block, int micro, int nmicros) -> Place {
    auto in_warmup = nodes.warmup.find({block, micro});
    if (in_warmup != nodes.warmup.end()) return {in_warmup->second, 0};
    const int copy = micro - window.micro[block];
    if (copy <= nmicros - k) return {nodes.constant(window.start[block] + copy * period), 0};
    const int shift = nmicros - k;
    return {nodes.cooldown.at({block, micro - shift}), shift * period};
  };
  std::map<std::pair<int, int>, Time> gaps;
  for (int nmicros = k; nmicros <= 2 * k + 1; ++nmicros)
    for (const Edge& edge : placement.edges)
      for (int micro = 0; micro < nmicros; ++micro) {
        const Place from = place(edge.from, micro, nmicros);
        const Place to = place(edge.to, micro, nmicros);
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
void add_memory(Backend& backend, const Placement& placement, const std::map<std::pair<int, int>, int>& part,
                const Nodes& nodes, const std::vector<IntVar>& var, int device, Time from, Time to, Memory limit) {
  std::vector<std::pair<int, Memory>> allocating;  // (node, memory)
  for (const auto& [key, node] : part) {
    const Block& block = placement.blocks[key.first];
    if (block.memory != 0 && on_device(block, device)) allocating.push_back({node, block.memory});
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
      else if (nodes.lo[node] <= step) sum.bools.push_back({memory, backend.at_most(var[node], static_cast<int>(step))});
    }
    if (!sum.bools.empty()) backend.add_linear_at_most(sum, limit - started);
  }
}

// One device: the warmup apart from the window's first copy, the cooldown
// apart from its last; `before_cooldown` gets what the window and the warmup
// leave allocated on it.
void add_device(Backend& backend, const Placement& placement, Nodes& nodes, const std::vector<IntVar>& var,
                const std::vector<Time>& window_start, int device, Memory& before_cooldown) {
  std::vector<IntVar> head_starts, tail_starts;
  std::vector<int> head_spans, tail_spans;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (!on_device(placement.blocks[b], device)) continue;
    head_starts.push_back(var[nodes.constant(window_start[b])]);
    head_spans.push_back(static_cast<int>(placement.blocks[b].span));
    before_cooldown += placement.blocks[b].memory;
  }
  tail_starts = head_starts;
  tail_spans = head_spans;
  for (const auto& [key, node] : nodes.warmup)
    if (on_device(placement.blocks[key.first], device)) {
      head_starts.push_back(var[node]);
      head_spans.push_back(static_cast<int>(placement.blocks[key.first].span));
      before_cooldown += placement.blocks[key.first].memory;
    }
  for (const auto& [key, node] : nodes.cooldown)
    if (on_device(placement.blocks[key.first], device)) {
      tail_starts.push_back(var[node]);
      tail_spans.push_back(static_cast<int>(placement.blocks[key.first].span));
    }
  backend.add_no_overlap(head_starts, head_spans);
  backend.add_no_overlap(tail_starts, tail_spans);
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

}  // namespace

BoundaryOutcome shorten_boundary(const Schedule& schedule, const std::string& backend_name,
                                 const Deadline& deadline, const ProgressSink& progress) {
  BoundaryOutcome outcome{schedule, false, false, {}};
  if (!schedule.repetend) return outcome;
  const Placement& placement = schedule.placement;
  const Repetend repetend = *schedule.repetend;
  const int k = schedule.nmicros;
  const int nblocks = static_cast<int>(placement.blocks.size());
  const Time horizon = makespan(schedule);
  auto report = [&](const std::string& line) {
    if (progress) progress(line);
  };

  // Nothing to win when the K micro-batches already take no more than their
  // lower bound: warmup and cooldown are then minimal (and proving that by
  // the solver's unsat answers can take the whole budget).
  const long long makespan_floor = makespan_lower_bound(placement, k);
  if (horizon <= makespan_floor) {
    report("boundary: the schedule of " + std::to_string(k) + " micro-batches already takes its lower bound " +
           std::to_string(makespan_floor) + " steps");
    outcome.complete = true;
    return outcome;
  }

  Window window{schedule, repetend, k, std::vector<int>(nblocks, -1), std::vector<Time>(nblocks, 0)};
  for (const Instance& instance : schedule.instances)
    if (instance.start >= repetend.start && instance.start < repetend.end) {
      window.micro[instance.block] = instance.micro;
      window.start[instance.block] = instance.start;
    }
  Nodes nodes = make_nodes(window, horizon);
  const std::map<std::pair<int, int>, Time> gaps = dependency_gaps(window, nodes);
  if (!tighten(nodes, gaps)) {
    report("boundary: skipped, the window's dependencies leave an instance no start (a bug)");
    return outcome;
  }

  // Refuse an encoding that would not fit (the schedule in hand stays valid).
  const EncodingSize size = encoding_size(schedule, nodes);
  if (!schedule.memory_limit.empty() && size.memory_terms > kMaxMemoryTerms) {
    report("boundary: skipped, its memory constraints would hold " + std::to_string(size.memory_terms) +
           " terms (more than " + std::to_string(kMaxMemoryTerms) + ")");
    return outcome;
  }
  if (size.literals > kMaxOrderLiterals) {
    report("boundary: skipped, its start variables would take " + std::to_string(size.literals) +
           " literals (more than " + std::to_string(kMaxOrderLiterals) + "; the time values are large)");
    return outcome;
  }

  for (int b = 0; b < nblocks; ++b) nodes.constant(window.start[b]);  // the devices below use them all
  const auto begin = std::chrono::steady_clock::now();
  std::unique_ptr<Backend> backend = make_backend(backend_name);
  std::vector<IntVar> var;
  for (size_t node = 0; node < nodes.lo.size(); ++node)
    var.push_back(backend->new_int(static_cast<int>(nodes.lo[node]), static_cast<int>(nodes.hi[node])));
  for (const auto& [key, gap] : gaps) {
    const auto [to, from] = key;
    if (nodes.fixed(to) && nodes.fixed(from)) continue;  // window copies: the modulo schedule holds it
    backend->add_difference(var[to], var[from], static_cast<int>(gap));
  }
  const double vars_seconds = seconds_since(begin);

  // Devices: the warmup against the first window, the cooldown against the
  // last. Their time-indexed constraints are most of the building, in
  // proportion to the steps each variable may occupy: once a tenth of that
  // work is built, the whole building is extrapolated, and an encoding that
  // would take more than a quarter of the budget to build is not built
  // (measured on nnshape, 16 devices: the build took 0.46 s of 1 s and the
  // first answer came after 1 s more; the large-neighbourhood search
  // shortens the ends at N instead).
  const std::vector<long long> work = device_work(placement, nodes);
  const long long total_work = std::accumulate(work.begin(), work.end(), 0LL);
  const double budget = deadline.unlimited() ? 0 : seconds_since(begin) + deadline.seconds_left();
  long long work_done = 0;
  bool extrapolated = deadline.unlimited();
  std::vector<Memory> before_cooldown(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) break;
    add_device(*backend, placement, nodes, var, window.start, device, before_cooldown[device]);
    work_done += work[device];
    if (extrapolated || work_done * 10 < total_work) continue;
    extrapolated = true;
    const double whole = vars_seconds + (seconds_since(begin) - vars_seconds) * total_work / std::max(1LL, work_done);
    if (whole > budget / 4) {
      std::ostringstream line;
      line << "boundary: skipped, building its encoding would take about " << whole << " s of its " << budget << " s";
      report(line.str());
      return outcome;
    }
  }

  // Memory before the window (warmup only) and after it (all that came
  // before, plus the cooldown started so far).
  if (!schedule.memory_limit.empty())
    for (int device = 0; device < placement.ndevs && !deadline.expired(); ++device) {
      add_memory(*backend, placement, nodes.warmup, nodes, var, device, 0, repetend.start,
                 schedule.memory_limit[device]);
      add_memory(*backend, placement, nodes.cooldown, nodes, var, device, repetend.end, horizon,
                 schedule.memory_limit[device] - before_cooldown[device]);
    }

  auto decode = [&]() {
    Schedule result = schedule;
    for (Instance& instance : result.instances) {
      auto w = nodes.warmup.find({instance.block, instance.micro});
      if (w != nodes.warmup.end()) instance.start = backend->value(var[w->second]);
      auto c = nodes.cooldown.find({instance.block, instance.micro});
      if (c != nodes.cooldown.end()) instance.start = backend->value(var[c->second]);
    }
    Time earliest = LLONG_MAX;
    for (const Instance& instance : result.instances) earliest = std::min(earliest, instance.start);
    for (Instance& instance : result.instances) instance.start -= earliest;
    result.repetend->start -= earliest;
    result.repetend->end -= earliest;
    sort_instances(result);
    return result;
  };
  // Building may have used up the budget: stop here (after_seconds of a
  // negative time would mean no limit at all).
  if (deadline.expired()) {
    report("boundary: budget used up while building the encoding");
    return outcome;
  }
  // The warmup gets half of the time left, the cooldown the rest.
  Deadline phase_deadline = deadline;
  if (!deadline.unlimited())
    phase_deadline.at = Deadline::Clock::now() + (deadline.at - Deadline::Clock::now()) / 2;
  auto ask = [&](const std::string& what, const std::vector<Lit>& assumptions) {
    auto start = std::chrono::steady_clock::now();
    Answer answer = backend->solve(assumptions, phase_deadline);
    double seconds = seconds_since(start);
    outcome.calls.push_back({what, answer, seconds});
    std::ostringstream line;
    line << "boundary: " << what << ": " << answer_name(answer) << " (" << seconds << " s)";
    report(line.str());
    return answer;
  };

  // Warmup: every warmup instance starts at or after window.start - length.
  auto warmup_bound = [&](Time length) {
    std::vector<Lit> lits;
    for (const auto& [key, node] : nodes.warmup)
      lits.push_back(~backend->at_most(var[node], static_cast<int>(repetend.start - length - 1)));
    return lits;
  };
  auto cooldown_bound = [&](Time length) {
    std::vector<Lit> lits;
    for (const auto& [key, node] : nodes.cooldown)
      lits.push_back(backend->at_most(var[node], static_cast<int>(repetend.end + length - placement.blocks[key.first].span)));
    return lits;
  };
  // Each bound one below the best so far: sat answers near a known schedule
  // come quickly and usually jump several steps; only the last, unsat one is
  // hard, and if the budget ends first the best so far is kept.
  auto warmup_length = [&]() {
    Time earliest = repetend.start;
    for (const auto& [key, node] : nodes.warmup) earliest = std::min<Time>(earliest, backend->value(var[node]));
    return repetend.start - earliest;
  };
  auto cooldown_length = [&]() {
    Time last = repetend.end;
    for (const auto& [key, node] : nodes.cooldown)
      last = std::max<Time>(last, backend->value(var[node]) + placement.blocks[key.first].span);
    return last - repetend.end;
  };
  Time best_warmup = repetend.start, best_cooldown = horizon - repetend.end;
  auto at_floor = [&]() { return best_warmup + (repetend.end - repetend.start) + best_cooldown <= makespan_floor; };
  Time low = nodes.warmup.empty() ? 0 : 1;
  bool stopped = false;
  Schedule best = schedule;
  while (low < best_warmup && !stopped && !at_floor()) {
    Answer answer = ask("warmup <= " + std::to_string(best_warmup - 1), warmup_bound(best_warmup - 1));
    if (answer == Answer::Sat) {
      best_warmup = warmup_length();
      best = decode();
    } else if (answer == Answer::Unsat) {
      low = best_warmup;
    } else {
      stopped = true;
    }
  }
  std::vector<Lit> keep_warmup = warmup_bound(best_warmup);
  bool warmup_stopped = stopped;
  stopped = false;
  phase_deadline = deadline;
  low = 0;
  for (const auto& [key, node] : nodes.cooldown) low = std::max<Time>(low, placement.blocks[key.first].span);
  while (low < best_cooldown && !stopped && !at_floor()) {
    std::vector<Lit> assumptions = keep_warmup;
    for (Lit lit : cooldown_bound(best_cooldown - 1)) assumptions.push_back(lit);
    Answer answer = ask("cooldown <= " + std::to_string(best_cooldown - 1), assumptions);
    if (answer == Answer::Sat) {
      best_cooldown = cooldown_length();
      best = decode();
    } else if (answer == Answer::Unsat) {
      low = best_cooldown;
    } else {
      stopped = true;
    }
  }
  outcome.complete = (!stopped && !warmup_stopped) || at_floor();
  if (makespan(best) < makespan(schedule)) {
    if (!fits_for_any_length(best)) {
      // The constraints above should make this impossible; keep the valid one.
      report("boundary: the shortened schedule does not fit every length (a bug); keeping the squeezed one");
      outcome.complete = false;
      return outcome;
    }
    outcome.schedule = best;
    outcome.improved = true;
  }
  return outcome;
}

}  // namespace tessel
