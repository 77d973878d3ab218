// The minimal period decided on cyclic orders (see the header for the loop).
//
// Learning: a positive cycle's clause holds for every period below its
// ratio, so it is never retracted, and the descent's questions only ever
// tighten. From one Boolean answer several cycles are learned (each found
// with the guarded edges of the earlier ones removed), because a SAT call
// costs more than a Bellman-Ford pass on a graph of a few hundred edges.
#include "solver/order_period_search.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <sstream>

#include "model/input_error.hpp"
#include "solver/backend.hpp"
#include "solver/cyclic_order_encoding.hpp"
#include "solver/modulo_check.hpp"

namespace tessel {
namespace {

// Cycles learned from one Boolean answer at most.
constexpr int kCyclesPerAnswer = 8;

//------------------------------------------------------------------------------
// Literals [P >= r] for the ratios met so far, each implying the next lower
// one, so that assuming "not [P >= r]" for the lowest r above t says P <= t.

class PeriodLadder {
 public:
  explicit PeriodLadder(Backend& backend) : backend_(backend) {}

  Lit at_least(const Ratio& ratio) {
    auto found = ladder_.find(ratio);
    if (found != ladder_.end()) return found->second;
    const Lit lit = backend_.new_bool();
    auto [at, inserted] = ladder_.emplace(ratio, lit);
    if (at != ladder_.begin()) backend_.add_clause({~lit, std::prev(at)->second});
    if (std::next(at) != ladder_.end()) backend_.add_clause({~std::next(at)->second, lit});
    return lit;
  }

  // The assumptions saying P <= period.
  std::vector<Lit> at_most(Time period) const {
    auto above = ladder_.upper_bound(Ratio{period, 1});
    if (above == ladder_.end()) return {};
    return {~above->second};
  }

 private:
  Backend& backend_;
  std::map<Ratio, Lit> ladder_;
};

//------------------------------------------------------------------------------
// One question: an answer with period <= target (exactly target when a
// latency bound is given), learning cycles until there is one or none.

struct Reply {
  Answer answer = Answer::Unknown;
  Time period = 0;
  Ratio ratio;
  std::vector<Time> starts;
};

class OrderSolver {
 public:
  OrderSolver(Backend& backend, const CyclicOrderEncoding& encoding, const Placement& window)
      : backend_(backend), encoding_(encoding), window_(window), ladder_(backend) {}

  Reply ask(Time target, const std::optional<LatencyBound>& latency, const Deadline& deadline) {
    while (true) {
      std::vector<Lit> assumptions = ladder_.at_most(target);
      if (latency) assumptions.push_back(latency->literal);
      ++solver_calls;
      const Answer answer = backend_.solve(assumptions, deadline);
      if (answer != Answer::Sat) return {answer, 0, {}, {}};
      const std::vector<ImpliedDifference> differences = implied_differences(backend_, encoding_, window_, latency);
      if (learn_cycles(differences, target)) continue;
      Reply reply{Answer::Sat, target, {target, 1}, {}};
      if (!latency) {
        const MaxRatio exact = max_cycle_ratio(nodes(), edges_of(differences, {}), {encoding_.period_floor, 1});
        reply.ratio = exact.value;
        reply.period = exact.value.ceiling();
      }
      reply.starts = order_starts(backend_, encoding_, differences, reply.period);
      return reply;
    }
  }

  long long solver_calls = 0;
  long long cycles_learned = 0;

 private:
  int nodes() const { return static_cast<int>(window_.blocks.size()) + 1; }

  static std::vector<DifferenceEdge> edges_of(const std::vector<ImpliedDifference>& differences,
                                              const std::vector<char>& removed) {
    std::vector<DifferenceEdge> edges;
    for (size_t e = 0; e < differences.size(); ++e) {
      if (!removed.empty() && removed[e]) {
        // Kept in place (so that indices match) but made harmless.
        edges.push_back({differences[e].edge.from, differences[e].edge.to, LLONG_MIN / 4, 0});
        continue;
      }
      edges.push_back(differences[e].edge);
    }
    return edges;
  }

  // Every positive cycle at `target` found (up to kCyclesPerAnswer) becomes a
  // clause; false when there is none (the answer is feasible at target).
  bool learn_cycles(const std::vector<ImpliedDifference>& differences, Time target) {
    std::vector<char> removed(differences.size(), 0);
    int learned = 0;
    while (learned < kCyclesPerAnswer) {
      const PeriodCheck check = check_period(nodes(), edges_of(differences, removed), {target, 1});
      if (check.feasible()) break;
      const Cycle& cycle = *check.positive_cycle;
      add_cycle_clause(differences, cycle);
      ++learned;
      bool any_guarded = false;
      for (int e : cycle.edges)
        if (!differences[e].because.empty()) removed[e] = 1, any_guarded = true;
      if (!any_guarded) break;  // a cycle of facts: its clause is a unit, nothing else to find
    }
    cycles_learned += learned;
    return learned > 0;
  }

  // The cycle's literals imply P >= its ratio; a cycle through the latency
  // bound (its constants read at one period) just excludes its literals.
  void add_cycle_clause(const std::vector<ImpliedDifference>& differences, const Cycle& cycle) {
    std::vector<Lit> clause;
    bool fixed = false;
    for (int e : cycle.edges) {
      fixed |= differences[e].fixed_period;
      for (Lit lit : differences[e].because)
        if (std::find(clause.begin(), clause.end(), ~lit) == clause.end()) clause.push_back(~lit);
    }
    if (!fixed && cycle.crossings > 0) clause.push_back(ladder_.at_least(cycle.ratio()));
    backend_.add_clause(clause);
  }

  Backend& backend_;
  const CyclicOrderEncoding& encoding_;
  const Placement& window_;
  PeriodLadder ladder_;
};

// The decoded starts as a modulo solution (earliest start 0), re-checked
// from the definition: a wrong theory stops here instead of reaching the user.
ModuloSolution checked(const Placement& window, const std::vector<long long>& memory_limit, Time period,
                       const std::vector<Time>& starts, int max_in_flight) {
  const Time earliest = *std::min_element(starts.begin(), starts.end());
  Time latency = 0;
  for (size_t b = 0; b < starts.size(); ++b) latency = std::max(latency, starts[b] - earliest + window.blocks[b].span);
  if (latency > INT_MAX || period > INT_MAX)
    throw InputError("", "blocks", "the repetend spans " + std::to_string(latency) +
                                       " ticks, more than the search's 2^31; use a coarser time unit or --resolution");
  ModuloSolution solution{static_cast<int>(period), {}, static_cast<int>(latency),
                          static_cast<int>((latency + period - 1) / period)};
  for (Time start : starts) solution.starts.push_back(static_cast<int>(start - earliest));
  if (auto violation = modulo_violation(window, memory_limit, solution, max_in_flight))
    throw std::logic_error("order search: the answer for period " + std::to_string(period) +
                           " is not a valid repetend (" + *violation + "): a bug in the cyclic order encoding");
  return solution;
}

}  // namespace

OrderPeriodAnswer search_order_period(const OrderPeriodQuestion& question, const SearchOptions& options,
                                      const Deadline& deadline, std::vector<SolverCall>& calls) {
  const auto begin = std::chrono::steady_clock::now();
  const Placement& window = *question.window;
  OrderPeriodAnswer answer;
  auto report = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  std::unique_ptr<Backend> backend = make_backend(options.backend);
  const CyclicOrderEncoding encoding = encode_cyclic_order(*backend, window, options.memory_limit,
                                                           question.max_in_flight,
                                                           {options.symmetry, question.copies}, deadline);
  answer.proven_lower_bound = encoding.period_floor;
  if (!encoding.complete) {
    answer.gave_up = true;
    answer.period_seconds = seconds_since(begin);
    return answer;
  }
  OrderSolver solver(*backend, encoding, window);

  // First L, then down from the top: each answer's exact period minus one.
  Time target = std::min(encoding.period_floor, question.last_period);
  std::optional<Reply> best;
  while (target >= answer.proven_lower_bound) {
    const auto call_start = std::chrono::steady_clock::now();
    const long long calls_before = solver.solver_calls, cycles_before = solver.cycles_learned;
    Reply reply = solver.ask(target, std::nullopt, deadline);
    const double seconds = seconds_since(call_start);
    calls.push_back({question.label + "period <= " + std::to_string(target), answer_name(reply.answer), seconds});
    std::ostringstream line;
    line << "repetend (orders): " << question.label << "period <= " << target << ": " << answer_name(reply.answer);
    if (reply.answer == Answer::Sat) line << ", period " << reply.period;
    line << " (" << seconds << " s, " << solver.solver_calls - calls_before << " SAT calls, "
         << solver.cycles_learned - cycles_before << " cycles learned)";
    report(line.str());
    if (reply.answer == Answer::Unknown) {
      answer.gave_up = true;
      break;
    }
    if (reply.answer == Answer::Unsat) {
      answer.proven_lower_bound = target + 1;
      target = best ? best->period - 1 : (target < question.last_period ? question.last_period : target - 1);
      continue;
    }
    best = reply;
    target = reply.period - 1;
  }
  answer.solver_calls = solver.solver_calls;
  answer.cycles_learned = solver.cycles_learned;
  answer.period_seconds = seconds_since(begin);
  if (!best) return answer;
  answer.ratio = best->ratio;
  answer.solution = checked(window, options.memory_limit, best->period, best->starts, question.max_in_flight);
  if (answer.gave_up) return answer;  // not proven: no latency search on top

  // The shortest latency at this period, within a budget of as long as the
  // period took (as the unit-step search does, repetend_search.cpp).
  const auto latency_begin = std::chrono::steady_clock::now();
  Deadline latency_deadline = deadline;
  if (options.latency_budget) {
    Deadline own = Deadline::after_seconds(std::max(options.latency_min_seconds, answer.period_seconds));
    if (own.at < latency_deadline.at) latency_deadline = own;
  }
  const Time period = best->period;
  Time low = critical_path(window);
  while (low < answer.solution->latency) {
    const Time mid = low + (answer.solution->latency - low) / 2;
    const LatencyBound bound{period, mid, backend->new_bool()};
    const auto call_start = std::chrono::steady_clock::now();
    Reply reply = solver.ask(period, bound, latency_deadline);
    const double seconds = seconds_since(call_start);
    calls.push_back({question.label + "latency <= " + std::to_string(mid), answer_name(reply.answer), seconds});
    std::ostringstream line;
    line << "repetend (orders): " << question.label << "latency <= " << mid << ": " << answer_name(reply.answer)
         << " (" << seconds << " s)";
    report(line.str());
    if (reply.answer == Answer::Sat) {
      answer.solution = checked(window, options.memory_limit, period, reply.starts, question.max_in_flight);
    } else if (reply.answer == Answer::Unsat) {
      low = mid + 1;
    } else {
      (deadline.expired() ? answer.latency_gave_up : answer.latency_unfinished) = true;
      break;
    }
  }
  answer.latency_seconds = seconds_since(latency_begin);
  answer.solver_calls = solver.solver_calls;
  answer.cycles_learned = solver.cycles_learned;
  return answer;
}

}  // namespace tessel
