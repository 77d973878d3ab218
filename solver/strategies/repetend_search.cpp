// Strategy `repetend` (docs/algorithms.md, "The repetend as a modulo schedule"): for
// each window size k (micro-batches per period), periods P_k = k L, k L + 1,
// ... (from the memory-rate bound instead when it is above k L,
// memory_rate_bound.hpp) each decided on the modulo encoding of the window
// placement (k copies
// of the placement, window_placement.hpp); the first satisfiable one is the
// answer and every unsatisfiable one below it is part of the proof. Then, on
// the same solver, the latency of one window is bisected downward under
// assumptions (fewer micro-batches in flight, less memory, shorter warmup),
// within a budget of as long as the period took, and warmup and cooldown are
// built around the best window only. Every decoded answer is re-checked
// from the definition (modulo_check.hpp) before it is used. A placement
// that is one mirrored chain, or two crossing the same devices, has its
// k = 1 periods decided by a dynamic program first (chain_period.hpp,
// crossed_chains.hpp), exactly and in milliseconds to seconds.
//
// Where a new solver is built: once per chunk of `periods_per_solver`
// consecutive periods of one window size (encode_modulo holds the chunk's
// periods behind selector literals). A run of periods can reach the
// fallback period (100+ on 64 devices), and each period adds its own circle
// of exclusivity, so one solver for all of them would be built mostly for
// periods never asked. Measured on 16-32 devices, chunks of 4 or 8 were no
// faster than one solver per period (the unsat proofs of consecutive periods
// share little), so the default is 1.
//
// With automatic k (the command's default), k = 1 is decided within the
// whole time limit and k = 2 .. 4 within a share of it (wider_window_seconds,
// at most half the time left); a wider window is only asked for periods
// whose average P_k / k beats the best so far (so ties keep the smaller k),
// and the search stops as soon as an average reaches L, which no window can
// beat. A wider window left undecided in its share is reported as such and
// leaves the decided answer standing.
//
// The search never starts empty-handed: one micro-batch run alone gives a
// period that always works when memory allows a micro-batch at all, which is
// both the upper end of the period loop and the schedule returned when the
// time limit strikes first (`sequential_window`). When the fast construction
// (fast_repetend.hpp) has a shorter period, it takes that role
// (`fast_or_fallback`).
#include "solver/strategies/repetend_search.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>

#include "sat/backend.hpp"
#include "solver/modulo/memory_rate_bound.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/period/choose_deciders.hpp"
#include "solver/period/modulo_decider.hpp"
#include "solver/period/order_period_search.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/strategies/boundary_solver.hpp"
#include "solver/strategies/fast_repetend.hpp"
#include "solver/strategies/latency_bisection.hpp"
#include "solver/strategies/single_micro.hpp"
#include "solver/strategies/single_micro_fit.hpp"

namespace tessel {
namespace {

// The window of k micro-batches run one after the other, each as `alone`
// runs one micro-batch: valid whenever one micro-batch alone fits memory.
ModuloSolution sequential_window(const Placement& window, const std::vector<int>& alone, int alone_latency,
                                 int k, int lower_bound) {
  std::vector<int> starts;
  for (int copy = 0; copy < k; ++copy)
    for (int start : alone) starts.push_back(copy * alone_latency + start);
  ModuloSolution solution = modulo_solution(window, 1, starts);
  solution.period = std::max(solution.latency, lower_bound);
  solution.in_flight = 1;
  return solution;
}

// What deciding one window size gave.
struct WindowOutcome {
  WindowAttempt attempt;
  std::optional<ModuloSolution> solution;  // starts of the window placement
  bool gave_up = false;                    // the period question went unanswered
  bool latency_gave_up = false;           // the deadline struck during the latency (period decided)
  bool latency_unfinished = false;        // its own budget ran out first
  double period_seconds = 0;
  double latency_seconds = 0;
};

// One window size's question: its periods up to last_period. `capped`:
// last_period is below the fallback's period, so "none found" means "no
// better window", not a bug.
struct WindowQuestion {
  const Placement* window = nullptr;
  int k = 1;
  int max_in_flight = 1;
  int last_period = 0;
  bool capped = false;
  const ModuloSolution* fallback = nullptr;  // the constructed window (or one micro-batch at a time)
  int load_bound = 0;  // k L: the window's busiest device (its copies are the placement's, so k times its L)
};

// The same question decided on cyclic orders (order_period_search.hpp), for
// time values that make the unit-step encoding slow (period_method.hpp).
WindowOutcome decide_window_by_order(const WindowQuestion& asked, const SearchOptions& options,
                                     const Deadline& deadline, std::vector<SolverCall>& calls) {
  const Placement& window = *asked.window;
  const int k = asked.k, max_in_flight = asked.max_in_flight;
  const std::string label = k == 1 ? "" : "k=" + std::to_string(k) + " ";
  const OrderPeriodAnswer found =
      search_order_period({&window, k, max_in_flight, asked.last_period, label}, options, deadline, calls);
  WindowOutcome outcome{{k, WindowStatus::Found, 0, static_cast<int>(found.proven_lower_bound), 0,
                         found.period_seconds + found.latency_seconds},
                        found.solution, found.gave_up, found.latency_gave_up, found.latency_unfinished,
                        found.period_seconds, found.latency_seconds};
  if (found.solution) {
    outcome.attempt.period = found.solution->period;
    outcome.attempt.latency = found.solution->latency;
  }
  if (found.gave_up) outcome.attempt.status = WindowStatus::Timeout;
  else if (!found.solution && asked.capped) outcome.attempt.status = WindowStatus::NotBetter;
  else if (!found.solution && asked.fallback->in_flight <= max_in_flight)
    throw std::logic_error("repetend search: window period " + std::to_string(asked.fallback->period) +
                           " decided impossible on cyclic orders although micro-batches run one at a time fit");
  else if (!found.solution) outcome.attempt.status = WindowStatus::Infeasible;
  return outcome;
}

// The first period worth asking: L, or the memory-rate bound when it is
// above (memory_rate_bound.hpp), which rules out the periods below it
// without a solver call.
// The report lists the bound with the solver calls, as the refutation of
// those periods.
long long first_period(const WindowQuestion& asked, const SearchOptions& options, const std::string& label,
                       std::vector<SolverCall>& calls) {
  const long long load = asked.load_bound;
  const MemoryRateBound memory = memory_rate_bound(*asked.window, options.memory_limit);
  if (memory.period <= load) return load;
  std::ostringstream what;
  what << label << "periods " << load << " .. " << memory.period - 1 << " by the memory-rate bound (device "
       << memory.device << " holds " << static_cast<long long>(memory.held) << " memory-steps per pass, limit "
       << memory.limit << ")";
  calls.push_back({what.str(), Answer::Unsat, 0});
  if (options.progress) options.progress("repetend: " + what.str() + ": impossible");
  return memory.period;
}

// How long the modulo encoding may take for its own window at the period a
// period program found (decide_window).
// (the developer knob solver_window_seconds, solver/knobs/tuning.hpp)

// What the scheduler decided over one range of the window's periods
// (scheduler.hpp), taken into `outcome`: the proven bound, a solver's
// repetend (its solver kept in `solver` for the latency) and, when the run
// gave up, the best repetend in hand. A period a program found satisfiable
// (and proven minimal) comes back for the caller, who asks the modulo
// encoding for its own window there first.
std::optional<ModuloSolution> run_periods(const PeriodsQuestion& question, const SearchOptions& options,
                                          const Deadline& deadline, ModuloSolver& solver, WindowOutcome& outcome,
                                          std::vector<SolverCall>& calls) {
  PeriodsOutcome decided = schedule_periods(question, options, deadline, calls);
  outcome.attempt.proven_lower_bound = std::min(decided.proven_lower_bound, question.last_period + 1);
  outcome.gave_up = decided.gave_up;
  std::optional<ModuloSolution> by_program;
  if (decided.by_program)
    by_program = checked_solution(*question.window, options.memory_limit, decided.by_program->period,
                                  decided.by_program->starts, question.max_in_flight);
  if (decided.found) {
    solver.backend = std::move(decided.found->backend);
    solver.encoding = std::move(decided.found->encoding);
    const int period = decided.found->period;
    outcome.solution = checked_solution(*question.window, options.memory_limit, period,
                                        decode_starts(*solver.backend, solver.encoding, period),
                                        question.max_in_flight);
  }
  if (!decided.gave_up) return by_program;
  if (by_program) outcome.solution = std::move(by_program);
  return std::nullopt;
}


// Second objective: the shortest latency at the found period
// (latency_bisection.hpp), within a budget of as long as the period took
// (at least latency_min_seconds): the period is what the search is for, and
// a longer latency only costs micro-batches in flight, which the memory
// limit already bounds.
void least_latency(const WindowQuestion& asked, const SearchOptions& options, const Deadline& deadline,
                   ModuloSolver& solver, WindowOutcome& outcome, std::vector<SolverCall>& calls) {
  const std::string label = asked.k == 1 ? "" : "k=" + std::to_string(asked.k) + " ";
  const ModuloRules rules{options.symmetry, asked.k};
  Deadline budget = deadline;
  if (options.latency_budget) budget = budget.within(std::max(options.latency_min_seconds, outcome.period_seconds));
  LatencyOutcome least =
      bisect_latency({asked.window, *outcome.solution, asked.max_in_flight, rules, label}, options, deadline, budget,
                     *solver.backend, solver.encoding, calls);
  outcome.solution = std::move(least.solution);
  outcome.latency_gave_up = least.gave_up;
  outcome.latency_unfinished = least.unfinished;
}

// The periods of the window placement, lower bound .. last_period, by the
// deciders chosen for it (solver/period/choose_deciders.hpp). A period a
// program found is asked of the modulo encoding too, within
// solver_window_seconds (solver/knobs/tuning.hpp): the makespan phases were built and measured on the
// solver's windows, and the program's window stands where the solver does
// not answer in time (a chain's is of least latency too). Returns the
// program's window, if any, for the latency to compare against.
std::optional<ModuloSolution> decide_periods(const WindowQuestion& asked, const SearchOptions& options,
                                             const Deadline& deadline, ModuloSolver& solver, WindowOutcome& outcome,
                                             std::vector<SolverCall>& calls) {
  const Placement& window = *asked.window;
  const std::string label = asked.k == 1 ? "" : "k=" + std::to_string(asked.k) + " ";
  const int lower_bound =
      static_cast<int>(std::min<long long>(first_period(asked, options, label, calls), asked.last_period + 1));
  outcome.attempt.proven_lower_bound = lower_bound;
  if (lower_bound > asked.last_period) return std::nullopt;  // every period below the bound
  const bool last_feasible = !asked.capped && asked.fallback->in_flight <= asked.max_in_flight;
  PeriodPlan plan = plan_periods({&window, asked.k, asked.max_in_flight, lower_bound, asked.last_period,
                                  last_feasible, label},
                                 options);
  std::optional<ModuloSolution> program_window = run_periods(plan.question, options, deadline, solver, outcome, calls);
  if (!program_window || outcome.solution) return program_window;
  PeriodPlan own = plan_periods({&window, asked.k, asked.max_in_flight, program_window->period,
                                 program_window->period, last_feasible, label, false},
                                options);
  run_periods(own.question, options, deadline.within(options.tuning.solver_window_seconds), solver, outcome, calls);
  if (outcome.solution) return program_window;
  if (!outcome.gave_up)
    throw std::logic_error("repetend search: the modulo encoding refuted period " +
                           std::to_string(program_window->period) +
                           ", whose repetend a period program built and the definition accepts");
  release_in_background(std::move(solver.backend));  // its question is moot
  outcome.solution = program_window;
  outcome.attempt.proven_lower_bound = program_window->period;
  outcome.gave_up = false;
  return program_window;
}

// The window's status when no repetend was found (or found, but its period
// left unproven by a run that gave up): its seconds are its periods'.
WindowOutcome unfinished_window(const WindowQuestion& asked, WindowOutcome outcome) {
  outcome.attempt.seconds = outcome.period_seconds;
  if (outcome.solution) {
    // Another thread found this period satisfiable before a smaller one was
    // decided (scheduler.hpp): the best window in hand, its period not
    // proven minimal, and no time left for its latency.
    outcome.attempt.status = WindowStatus::Timeout;
    outcome.attempt.period = outcome.solution->period;
    outcome.attempt.latency = outcome.solution->latency;
  } else if (outcome.gave_up) {
    outcome.attempt.status = WindowStatus::Timeout;
  } else if (asked.capped) {
    outcome.attempt.status = WindowStatus::NotBetter;
  } else if (asked.fallback->in_flight <= asked.max_in_flight) {
    // Cannot happen when the encoding is right: the fallback is a solution
    // of the largest period tried. Say so rather than hide it.
    throw std::logic_error("repetend search: window period " + std::to_string(asked.fallback->period) +
                           " decided unsat although micro-batches run one at a time fit");
  } else {
    outcome.attempt.status = WindowStatus::Infeasible;
  }
  return outcome;
}

// Periods of the window placement up to asked.last_period, then the
// latency at the first satisfiable one.
WindowOutcome decide_window(const WindowQuestion& asked, const SearchOptions& options, const Deadline& deadline,
                            std::vector<SolverCall>& calls) {
  if (decided_by_orders(*asked.window, options)) return decide_window_by_order(asked, options, deadline, calls);
  const auto begin = std::chrono::steady_clock::now();
  WindowOutcome outcome;
  outcome.attempt.k = asked.k;
  ModuloSolver solver;
  const std::optional<ModuloSolution> program_window =
      decide_periods(asked, options, deadline, solver, outcome, calls);
  outcome.period_seconds = seconds_since(begin);
  if (outcome.gave_up && deadline.expired()) release_in_background(std::move(solver.backend));  // not ours to wait for
  if (!outcome.solution || outcome.gave_up) return unfinished_window(asked, std::move(outcome));

  const auto latency_begin = std::chrono::steady_clock::now();
  if (solver.backend) least_latency(asked, options, deadline, solver, outcome, calls);
  if (program_window && program_window->latency < outcome.solution->latency) {
    // The solver's bisection stopped above the least latency the program found.
    outcome.solution = program_window;
    outcome.latency_gave_up = outcome.latency_unfinished = false;
  }
  outcome.latency_seconds = seconds_since(latency_begin);
  outcome.attempt.status = WindowStatus::Found;
  outcome.attempt.period = outcome.solution->period;
  outcome.attempt.latency = outcome.solution->latency;
  outcome.attempt.seconds = outcome.period_seconds + outcome.latency_seconds;  // the window's whole time
  return outcome;
}

// What search_repetend works from once one micro-batch alone fits.
struct RepetendBasics {
  int per_micro_bound = 0;  // L
  std::vector<int> alone;   // one micro-batch's starts, run alone
  int alone_latency = 0;
  int max_in_flight = 0;    // Kmax, counted in windows
  bool automatic = false;   // k chosen by the search
  int first_k = 1, last_k = 1;
};

struct BestWindow {
  int k;
  ModuloSolution solution;
};

// The windows k = first_k .. last_k as decided (result.windows lists them).
struct WindowsDecided {
  std::optional<BestWindow> best;
  std::optional<int> first_proven_lower_bound;  // the first window's, once decided
  double period_seconds = 0, latency_seconds = 0;
  bool timed_out = false;
  bool wider_undecided = false;
  std::vector<int> latency_unfinished_k;
  std::optional<ModuloSolution> first_fallback;  // first k's, when built before the deadline
};

// The deadline of the wider windows (k >= 2 with automatic k): a share of
// the time, so that exploring them never costs the answer k = 1 already has.
Deadline wider_window_deadline(const SearchOptions& options) {
  double share = options.wider_window_seconds > 0 ? options.wider_window_seconds : 1e18;
  if (!options.deadline.unlimited()) share = std::min(share, options.deadline.seconds_left() / 2);
  if (share < 1e17) return options.deadline.within(std::max(share, 1e-3));
  return options.deadline;
}

// Each window size in turn (the smallest first), until an average reaches
// L, the time runs out, or the sizes asked are done.
WindowsDecided decide_windows(const Placement& placement, const SearchOptions& options, const RepetendBasics& basics,
                              SearchResult& result) {
  const int per_micro_bound = basics.per_micro_bound;
  const std::vector<int>& alone = basics.alone;
  const int alone_latency = basics.alone_latency;
  const int max_in_flight = basics.max_in_flight;
  const bool automatic = basics.automatic;
  const int first_k = basics.first_k, last_k = basics.last_k;
  WindowsDecided decided;
  std::optional<BestWindow>& best = decided.best;
  double& period_seconds = decided.period_seconds;
  double& latency_seconds = decided.latency_seconds;
  bool& timed_out = decided.timed_out;
  bool& wider_undecided = decided.wider_undecided;
  std::vector<int>& latency_unfinished_k = decided.latency_unfinished_k;
  std::optional<ModuloSolution>& first_fallback = decided.first_fallback;
  Deadline wider_deadline = options.deadline;  // set when k = 1 is decided
  for (int k = first_k; k <= last_k; ++k) {
    // No window beats an average of L.
    if (best && best->solution.period == best->k * per_micro_bound) break;
    const bool exploring = automatic && k > 1;
    if (exploring && k == 2) wider_deadline = wider_window_deadline(options);
    const Deadline& deadline = exploring ? wider_deadline : options.deadline;
    if (deadline.expired()) {
      result.windows.push_back({k, exploring ? WindowStatus::Undecided : WindowStatus::Timeout, 0, k * per_micro_bound, 0, 0});
      (exploring ? wider_undecided : timed_out) = true;
      break;
    }
    const Placement window = window_placement(placement, k);
    const ModuloSolution fallback = fast_or_fallback(window, options.memory_limit, max_in_flight,
                                                     sequential_window(window, alone, alone_latency, k, k * per_micro_bound),
                                                     deadline, options.tuning.fast_periods_one_by_one);
    if (k == first_k && !deadline.expired()) first_fallback = fallback;
    int last_period = fallback.period;
    bool capped = false;
    if (best) {
      // Only averages strictly below the best: P_k * k_best < k * P_best.
      const int below_best = (k * best->solution.period - 1) / best->k;
      if (below_best < last_period) {
        last_period = below_best;
        capped = true;
      }
    }
    WindowOutcome outcome =
        decide_window({&window, k, max_in_flight, last_period, capped, &fallback, k * per_micro_bound}, options, deadline,
                      result.calls);
    period_seconds += outcome.period_seconds;
    latency_seconds += outcome.latency_seconds;
    if (outcome.gave_up && exploring) {
      // A wider window's share ran out: a satisfiable period its race found
      // above an undecided one is left out, so that the answer stays the
      // window decided before (the first window keeps it: its time-out answer).
      outcome.attempt.status = WindowStatus::Undecided;
      outcome.solution.reset();
    }
    result.windows.push_back(outcome.attempt);
    if (!decided.first_proven_lower_bound) decided.first_proven_lower_bound = outcome.attempt.proven_lower_bound;
    if (outcome.solution) best = BestWindow{k, std::move(*outcome.solution)};
    if (outcome.latency_unfinished || outcome.latency_gave_up) latency_unfinished_k.push_back(k);
    if (outcome.gave_up && !exploring) {
      timed_out = true;
      break;
    }
    // A wider window that ran out of its share, or a latency cut by the
    // deadline once the period is decided, leaves the answer decided so far
    // standing (a window found with an unfinished latency is still a valid
    // window); the windows not reached are reported undecided.
    if (outcome.gave_up) {
      wider_undecided = true;
      break;
    }
    if (outcome.latency_gave_up) {
      const bool at_bound = best && best->solution.period == best->k * per_micro_bound;
      if (automatic && k < last_k && !at_bound) {
        result.windows.push_back({k + 1, WindowStatus::Undecided, 0, (k + 1) * per_micro_bound, 0, 0});
        wider_undecided = true;
      }
      break;
    }
  }
  return decided;
}

// The result's status and message for the window `k` chosen.
void state_outcome(const WindowsDecided& decided, int k, const ModuloSolution& chosen, const SearchOptions& options,
                   SearchResult& result) {
  const std::optional<BestWindow>& best = decided.best;
  const bool timed_out = decided.timed_out;
  const std::vector<int>& latency_unfinished_k = decided.latency_unfinished_k;
  const bool wider_undecided = decided.wider_undecided;
  const bool period_gave_up = !result.windows.empty() && result.windows.back().status == WindowStatus::Timeout;
  if (!best) {
    result.status = SearchStatus::Timeout;
    result.message = std::string(stop_reason(options.deadline)) + " while deciding period " + std::to_string(result.proven_lower_bound) +
                     "; the schedule is the fallback (the fast construction, or one micro-batch at a time), period " +
                     std::to_string(chosen.period) + ", " + std::to_string(chosen.period - result.proven_lower_bound) +
                     " above the proven bound";
  } else if (timed_out && period_gave_up && result.windows.back().k == k) {
    result.status = SearchStatus::Timeout;
    result.message = std::string(stop_reason(options.deadline)) + " while deciding period " +
                     std::to_string(result.proven_lower_bound) + "; the schedule has period " +
                     std::to_string(chosen.period) + ", found satisfiable by another thread meanwhile, " +
                     std::to_string(chosen.period - result.proven_lower_bound) + " above the proven bound";
  } else if (timed_out && period_gave_up) {
    result.status = SearchStatus::Timeout;
    result.message = std::string(stop_reason(options.deadline)) + " while trying windows of " + std::to_string(result.windows.back().k) +
                     " micro-batches; the schedule is the best window found before (k = " + std::to_string(k) +
                     ", period " + std::to_string(chosen.period) + ")";
  } else {
    result.status = SearchStatus::Found;
    result.latency_minimal = std::find(latency_unfinished_k.begin(), latency_unfinished_k.end(), k) ==
                             latency_unfinished_k.end();
    if (!result.latency_minimal)
      result.message = "the latency " + std::to_string(chosen.latency) +
                       " is not proven minimal (the latency search stopped at its budget or the time limit)";
    if (wider_undecided)
      result.message += std::string(result.message.empty() ? "" : "; ") + "windows of k >= " +
                        std::to_string(result.windows.back().k) +
                        " micro-batches were not fully decided in the time given (--tune window_seconds, "
                        "--time-limit); the answer is the best window decided";
  }
}

// The answer: the chosen window (or, when time ran out before any, the
// first k's one-at-a-time fallback) with its warmup and cooldown built and
// shortened, and its status.
void build_answer(const Placement& placement, const SearchOptions& options, const RepetendBasics& basics,
                  const WindowsDecided& decided, SearchResult& result) {
  const int per_micro_bound = basics.per_micro_bound;
  const std::vector<int>& alone = basics.alone;
  const int alone_latency = basics.alone_latency;
  const int max_in_flight = basics.max_in_flight;
  const int first_k = basics.first_k;
  const std::optional<BestWindow>& best = decided.best;
  const std::optional<ModuloSolution>& first_fallback = decided.first_fallback;
  const int k = best ? best->k : first_k;
  const Placement window = window_placement(placement, k);
  // The time-out answer: the first window's fallback when it was built in
  // full before the deadline; else its construction gets a second beyond the
  // limit (an interrupt still stops it); past that, one micro-batch at a time.
  std::optional<ModuloSolution> constructed;
  if (!best && !first_fallback)
    constructed = fast_or_fallback(window, options.memory_limit, max_in_flight,
                                   sequential_window(window, alone, alone_latency, k, k * per_micro_bound),
                                   Deadline::after_seconds(1.0, options.deadline.stop),
                                   options.tuning.fast_periods_one_by_one);
  const ModuloSolution& chosen = best ? best->solution : first_fallback ? *first_fallback : *constructed;
  result.micros_per_window = k;
  result.lower_bound = k * per_micro_bound;
  for (const WindowAttempt& attempt : result.windows)
    if (attempt.k == k) result.proven_lower_bound = attempt.proven_lower_bound;

  auto build_begin = std::chrono::steady_clock::now();
  WarmupCooldown built = build_warmup_cooldown(window, options.memory_limit, chosen, options.deadline);
  // The solver shortens both ends within its own budget (never past the
  // deadline): an unfinished shortening still leaves a valid schedule.
  BoundaryOutcome shortened;
  // Only with time left: shorten_boundary reads a spent deadline as none
  // (a margin, so that it cannot expire between this test and that read).
  if (built.valid && options.boundary_seconds > 0 && options.deadline.seconds_left() > 0.05) {
    Deadline boundary_deadline = options.deadline.within(options.boundary_seconds);
    shortened = shorten_boundary(built.schedule, options.backend, boundary_deadline, options.progress);
  }
  for (const SolverCall& call : shortened.calls) result.calls.push_back(call);
  result.phases.push_back({"warmup/cooldown", seconds_since(build_begin)});
  result.boundary = {built.squeezed, shortened.shorter.has_value(), shortened.complete};
  if (shortened.shorter) built.schedule = std::move(*shortened.shorter);
  result.schedule = schedule_from_window(std::move(built.schedule), placement, k);
  result.period = chosen.period;
  result.latency = chosen.latency;
  result.in_flight = chosen.in_flight * k;
  result.makespan = makespan(*result.schedule);
  state_outcome(decided, k, chosen, options, result);
  if (result.status == SearchStatus::Timeout) result.latency_minimal = false;
  if (!built.valid) {
    result.schedule.reset();
    result.message += std::string(result.message.empty() ? "the period stands" : "") + "; " + unusable_warmup_reason(built);
  }
}

}  // namespace

SearchResult search_repetend(const Placement& placement, const SearchOptions& options) {
  require_steady_state(placement);
  if (options.micros_per_window < 0) throw std::invalid_argument("search_repetend: micros_per_window < 0");
  const auto begin = std::chrono::steady_clock::now();
  SearchResult result;
  const int per_micro_bound = period_lower_bound(placement);
  result.lower_bound = per_micro_bound;
  result.proven_lower_bound = per_micro_bound;

  // One micro-batch alone: the list schedule if it fits, else ask the full
  // solver for any order that does; if none does, no schedule exists at all.
  SingleMicroFit single = single_micro_within_memory(placement, options);
  if (single.status != SearchStatus::Found) {
    result.status = single.status;
    result.message = single.message;
    result.phases.push_back({"period", seconds_since(begin)});
    return result;
  }
  RepetendBasics basics;
  basics.per_micro_bound = per_micro_bound;
  basics.alone = single.starts;
  basics.alone_latency = modulo_solution(placement, 1, basics.alone).latency;

  // Kmax: the user's K, else as many as the blocks of one micro-batch (a
  // modulo schedule of minimal latency never needs more than one period per
  // block of its longest chain in flight). Counted in windows.
  basics.max_in_flight = options.in_flight.value_or(std::max<int>(1, placement.blocks.size()));
  basics.automatic = options.micros_per_window == 0;
  basics.first_k = basics.automatic ? 1 : options.micros_per_window;
  basics.last_k = basics.automatic ? std::max(1, options.largest_auto_window) : options.micros_per_window;

  const WindowsDecided decided = decide_windows(placement, options, basics, result);
  result.phases.push_back({"period", decided.period_seconds});
  if (decided.latency_seconds > 0) result.phases.push_back({"latency", decided.latency_seconds});

  if (!decided.best && !decided.timed_out) {
    result.status = SearchStatus::Infeasible;
    result.proven_lower_bound = decided.first_proven_lower_bound.value_or(per_micro_bound);
    result.lower_bound = basics.first_k * per_micro_bound;
    result.message = "no repetend with at most " + std::to_string(basics.max_in_flight) +
                     (basics.first_k == 1 ? "" : " windows of " + std::to_string(basics.first_k)) +
                     " micro-batches in flight fits the memory limit";
    return result;
  }

  build_answer(placement, options, basics, decided, result);
  return result;
}

}  // namespace tessel
