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
#include "solver/boundary_solver.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <set>
#include <sstream>

#include "solver/backend.hpp"
#include "solver/encoding_budget.hpp"
#include "solver/makespan_bound.hpp"
#include "solver/warmup_cooldown.hpp"

namespace tessel {
namespace {

bool on_device(const Block& block, int device) {
  return std::find(block.devices.begin(), block.devices.end(), device) != block.devices.end();
}

// Where instance (block, micro) of the N-schedule is: a variable plus an
// offset, or a fixed step (var.index < 0).
struct Place {
  IntVar var;
  int offset = 0;
};

}  // namespace

BoundaryOutcome shorten_boundary(const Schedule& schedule, const std::string& backend_name,
                                 const Deadline& deadline, const ProgressSink& progress) {
  BoundaryOutcome outcome{schedule, false, false, {}};
  if (!schedule.repetend) return outcome;
  const Placement& placement = schedule.placement;
  const Repetend window = *schedule.repetend;
  const int period = window.period;
  const int k = schedule.nmicros;
  const int nblocks = static_cast<int>(placement.blocks.size());
  const int horizon = makespan(schedule);
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

  // The memory bounds below cost steps x allocations per device; refuse an
  // encoding that would not fit (the schedule in hand stays valid).
  if (!schedule.memory_limit.empty()) {
    long long memory_terms = 0;
    for (const Instance& instance : schedule.instances) {
      const Block& block = placement.blocks[instance.block];
      if (block.memory == 0) continue;
      const long long steps = instance.start < window.start ? window.start
                              : instance.start >= window.end ? horizon - window.end
                                                              : 0;
      memory_terms += steps * static_cast<long long>(block.devices.size());
    }
    if (memory_terms > kMaxMemoryTerms) {
      report("boundary: skipped, its memory constraints would hold " + std::to_string(memory_terms) +
             " terms (more than " + std::to_string(kMaxMemoryTerms) + ")");
      return outcome;
    }
  }

  {
    long long literals = 0;  // the warmup's and the cooldown's start domains
    for (const Instance& instance : schedule.instances)
      literals += instance.start < window.start ? window.start : instance.start >= window.end ? horizon - window.end : 0;
    if (literals > kMaxOrderLiterals) {
      report("boundary: skipped, its start variables would take " + std::to_string(literals) +
             " literals (more than " + std::to_string(kMaxOrderLiterals) + "; the time values are large)");
      return outcome;
    }
  }

  std::unique_ptr<Backend> backend = make_backend(backend_name);
  std::map<std::pair<int, int>, IntVar> warmup, cooldown;  // (block, micro) -> start
  std::vector<int> window_micro(nblocks, -1), window_start(nblocks, 0);
  for (const Instance& instance : schedule.instances) {
    const int span = placement.blocks[instance.block].span;
    if (instance.start < window.start) {
      warmup[{instance.block, instance.micro}] = backend->new_int(0, window.start - 1);
    } else if (instance.start < window.end) {
      window_micro[instance.block] = instance.micro;
      window_start[instance.block] = instance.start;
    } else {
      cooldown[{instance.block, instance.micro}] = backend->new_int(window.end, std::max<Time>(window.end, horizon - span));
    }
  }
  std::map<int, IntVar> constants;
  auto constant = [&](int value) {
    auto found = constants.find(value);
    if (found != constants.end()) return found->second;
    IntVar var = backend->new_int(value, value);
    constants.emplace(value, var);
    return var;
  };
  auto place = [&](int block, int micro, int nmicros) -> Place {
    auto in_warmup = warmup.find({block, micro});
    if (in_warmup != warmup.end()) return {in_warmup->second, 0};
    const int copy = micro - window_micro[block];
    if (copy <= nmicros - k) return {constant(window_start[block] + copy * period), 0};
    const int shift = nmicros - k;
    return {cooldown.at({block, micro - shift}), shift * period};
  };

  // Dependencies of every unrolled shape, each difference once.
  std::map<std::pair<int, int>, int> differences;  // (to var, from var) -> least gap
  for (int nmicros = k; nmicros <= 2 * k + 1; ++nmicros)
    for (const Edge& edge : placement.edges)
      for (int micro = 0; micro < nmicros; ++micro) {
        Place from = place(edge.from, micro, nmicros);
        Place to = place(edge.to, micro, nmicros);
        // to + to.offset >= from + from.offset + span + delay
        int gap = placement.blocks[edge.from].span + edge.delay + from.offset - to.offset;
        auto key = std::make_pair(to.var.index, from.var.index);
        auto found = differences.find(key);
        if (found == differences.end() || found->second < gap) differences[key] = gap;
      }
  std::map<int, IntVar> var_of;
  for (const auto& [key, var] : warmup) var_of[var.index] = var;
  for (const auto& [key, var] : cooldown) var_of[var.index] = var;
  std::set<int> fixed;
  for (const auto& [value, var] : constants) {
    var_of[var.index] = var;
    fixed.insert(var.index);
  }
  for (const auto& [key, gap] : differences) {
    IntVar to = var_of.at(key.first), from = var_of.at(key.second);
    if (fixed.count(to.index) && fixed.count(from.index)) continue;  // window copies: the modulo schedule holds it
    backend->add_difference(to, from, gap);
  }

  // Devices: the warmup against the first window, the cooldown against the last.
  std::vector<long long> before_cooldown(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<IntVar> head_starts, tail_starts;
    std::vector<int> head_spans, tail_spans;
    for (int b = 0; b < nblocks; ++b) {
      if (!on_device(placement.blocks[b], device)) continue;
      head_starts.push_back(constant(window_start[b]));
      head_spans.push_back(placement.blocks[b].span);
      before_cooldown[device] += placement.blocks[b].memory;
    }
    tail_starts = head_starts;
    tail_spans = head_spans;
    for (const auto& [key, var] : warmup)
      if (on_device(placement.blocks[key.first], device)) {
        head_starts.push_back(var);
        head_spans.push_back(placement.blocks[key.first].span);
        before_cooldown[device] += placement.blocks[key.first].memory;
      }
    for (const auto& [key, var] : cooldown)
      if (on_device(placement.blocks[key.first], device)) {
        tail_starts.push_back(var);
        tail_spans.push_back(placement.blocks[key.first].span);
      }
    backend->add_no_overlap(head_starts, head_spans);
    backend->add_no_overlap(tail_starts, tail_spans);
  }

  // Memory before the window (warmup only) and after it (all that came
  // before, plus the cooldown started so far).
  if (!schedule.memory_limit.empty()) {
    for (int device = 0; device < placement.ndevs; ++device) {
      for (int step = 0; step < window.start; ++step) {
        LinearSum sum;
        for (const auto& [key, var] : warmup) {
          const Block& block = placement.blocks[key.first];
          if (block.memory != 0 && on_device(block, device)) sum.bools.push_back({block.memory, backend->at_most(var, step)});
        }
        if (!sum.bools.empty()) backend->add_linear_at_most(sum, schedule.memory_limit[device]);
      }
      for (int step = window.end; step < horizon; ++step) {
        LinearSum sum;
        for (const auto& [key, var] : cooldown) {
          const Block& block = placement.blocks[key.first];
          if (block.memory != 0 && on_device(block, device)) sum.bools.push_back({block.memory, backend->at_most(var, step)});
        }
        if (!sum.bools.empty()) backend->add_linear_at_most(sum, schedule.memory_limit[device] - before_cooldown[device]);
      }
    }
  }

  auto decode = [&]() {
    Schedule result = schedule;
    for (Instance& instance : result.instances) {
      auto w = warmup.find({instance.block, instance.micro});
      if (w != warmup.end()) instance.start = backend->value(w->second);
      auto c = cooldown.find({instance.block, instance.micro});
      if (c != cooldown.end()) instance.start = backend->value(c->second);
    }
    int earliest = INT_MAX;
    for (const Instance& instance : result.instances) earliest = std::min<Time>(earliest, instance.start);
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
  auto warmup_bound = [&](int length) {
    std::vector<Lit> lits;
    for (const auto& [key, var] : warmup) lits.push_back(~backend->at_most(var, window.start - length - 1));
    return lits;
  };
  auto cooldown_bound = [&](int length) {
    std::vector<Lit> lits;
    for (const auto& [key, var] : cooldown)
      lits.push_back(backend->at_most(var, window.end + length - placement.blocks[key.first].span));
    return lits;
  };
  // Each bound one below the best so far: sat answers near a known schedule
  // come quickly and usually jump several steps; only the last, unsat one is
  // hard, and if the budget ends first the best so far is kept.
  auto warmup_length = [&]() {
    int earliest = window.start;
    for (const auto& [key, var] : warmup) earliest = std::min(earliest, backend->value(var));
    return window.start - earliest;
  };
  auto cooldown_length = [&]() {
    int last = window.end;
    for (const auto& [key, var] : cooldown) last = std::max<Time>(last, backend->value(var) + placement.blocks[key.first].span);
    return last - window.end;
  };
  int best_warmup = window.start, best_cooldown = horizon - window.end;
  auto at_floor = [&]() { return best_warmup + (window.end - window.start) + best_cooldown <= makespan_floor; };
  int low = warmup.empty() ? 0 : 1;
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
  for (const auto& [key, var] : cooldown) low = std::max<Time>(low, placement.blocks[key.first].span);
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
