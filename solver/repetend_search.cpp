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
#include "solver/repetend_search.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <sstream>

#include "sat/backend.hpp"
#include "solver/boundary_solver.hpp"
#include "solver/chain_period.hpp"
#include "solver/crossed_chains.hpp"
#include "solver/fast_repetend.hpp"
#include "solver/latency_bisection.hpp"
#include "solver/encoding_budget.hpp"
#include "solver/memory_rate_bound.hpp"
#include "solver/modulo_check.hpp"
#include "solver/modulo_encoding.hpp"
#include "solver/order_period_search.hpp"
#include "solver/period_method.hpp"
#include "solver/period_race.hpp"
#include "solver/single_micro.hpp"
#include "solver/single_micro_fit.hpp"
#include "solver/window_placement.hpp"

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

// The same question decided on cyclic orders (order_period_search.hpp), for
// time values that make the unit-step encoding slow (period_method.hpp).
WindowOutcome decide_window_by_order(const Placement& window, int k, const SearchOptions& options,
                                     const Deadline& deadline, int max_in_flight, int last_period, bool capped,
                                     const ModuloSolution& fallback, std::vector<SolverCall>& calls) {
  const std::string label = k == 1 ? "" : "k=" + std::to_string(k) + " ";
  const OrderPeriodAnswer found =
      search_order_period({&window, k, max_in_flight, last_period, label}, options, deadline, calls);
  WindowOutcome outcome{{k, WindowStatus::Found, 0, static_cast<int>(found.proven_lower_bound), 0,
                         found.period_seconds + found.latency_seconds},
                        found.solution, found.gave_up, found.latency_gave_up, found.latency_unfinished,
                        found.period_seconds, found.latency_seconds};
  if (found.solution) {
    outcome.attempt.period = found.solution->period;
    outcome.attempt.latency = found.solution->latency;
  }
  if (found.gave_up) outcome.attempt.status = WindowStatus::Timeout;
  else if (!found.solution && capped) outcome.attempt.status = WindowStatus::NotBetter;
  else if (!found.solution && fallback.in_flight <= max_in_flight)
    throw std::logic_error("repetend search: window period " + std::to_string(fallback.period) +
                           " decided impossible on cyclic orders although micro-batches run one at a time fit");
  else if (!found.solution) outcome.attempt.status = WindowStatus::Infeasible;
  return outcome;
}

// The first period worth asking: L, or the memory-rate bound when it is
// above (memory_rate_bound.hpp), which rules out the periods below it
// without a solver call.
// The report lists the bound with the solver calls, as the refutation of
// those periods.
long long first_period(const Placement& window, const SearchOptions& options, const std::string& label,
                       std::vector<SolverCall>& calls) {
  const long long load = period_lower_bound(window);
  const MemoryRateBound memory = memory_rate_bound(window, options.memory_limit);
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
// (the developer knob solver_window_seconds, solver/tuning.hpp)

// A placement whose k = 1 periods a dynamic program decides exactly: one
// mirrored chain (chain_period.hpp) or two crossed ones (crossed_chains.hpp).
struct PeriodProgram {
  std::string name;
  std::function<bool(int period, double seconds)> affordable;  // deciding it takes about `seconds` at most
  std::function<std::shared_ptr<PeriodWork>(int period)> work;  // a period's work, for threads to share

  ChainPeriod decide(int period, const Deadline& deadline) const {
    std::shared_ptr<PeriodWork> one = work(period);
    one->help(deadline);
    return one->answer(deadline);
  }
};

std::optional<PeriodProgram> period_program(const Placement& window, const SearchOptions& options,
                                            int max_in_flight) {
  if (std::optional<MirroredChain> found = mirrored_chain(window, options.memory_limit)) {
    auto chain = std::make_shared<MirroredChain>(std::move(*found));
    return PeriodProgram{
        "chain program",
        [&window, chain](int period, double seconds) {
          return chain_period_affordable(window, *chain, period, seconds);
        },
        [&window, chain, max_in_flight](int period) -> std::shared_ptr<PeriodWork> {
          return std::make_shared<ChainPeriodWork>(window, *chain, period, max_in_flight);
        }};
  }
  if (std::optional<CrossedChains> found = crossed_chains(window, options.memory_limit, max_in_flight)) {
    auto chains = std::make_shared<CrossedChains>(std::move(*found));
    return PeriodProgram{"crossed-chains program",
                         [chains](int period, double seconds) {
                           return crossed_chains_affordable(*chains, period, seconds);
                         },
                         [&window, chains](int period) -> std::shared_ptr<PeriodWork> {
                           return std::make_shared<WholePeriodWork>([&window, chains, period](const Deadline& deadline) {
                             return decide_crossed_period(window, *chains, period, deadline);
                           });
                         }};
  }
  return std::nullopt;
}

// The last period of first .. last_period whose program estimate stays
// within `seconds` all the way from `first` (first - 1 when none).
int last_affordable(const PeriodProgram& program, int first, int last_period, double seconds) {
  int last = first - 1;
  while (last < last_period && program.affordable(last + 1, seconds)) ++last;
  return last;
}

// What the program decided: the first satisfiable period with its
// repetend, or the period the solver goes on from (the program stops where
// a period would cost it too long).
struct ProgramPeriods {
  std::optional<ModuloSolution> solution;
  int next_period = 0;
  bool gave_up = false;
};

ProgramPeriods decide_program_periods(const Placement& window, const PeriodProgram& program,
                                      const SearchOptions& options, const Deadline& deadline, int max_in_flight,
                                      int lower_bound, int last_period, std::vector<SolverCall>& calls) {
  const auto begin = std::chrono::steady_clock::now();
  ProgramPeriods result{std::nullopt, lower_bound, false};
  for (int period = lower_bound; period <= last_period && program.affordable(period, 1.0); ++period) {
    const auto call_start = std::chrono::steady_clock::now();
    const ChainPeriod decided = program.decide(period, deadline);
    const double seconds = seconds_since(call_start);
    calls.push_back({"period " + std::to_string(period) + " (" + program.name + ")", decided.answer, seconds});
    std::ostringstream line;
    line << "repetend: period " << period << ": " << answer_name(decided.answer) << " (" << program.name;
    if (decided.phase_choices > 0) line << " over " << decided.phase_choices << " phase choices of the all-device blocks";
    line << ", " << seconds << " s, " << seconds_since(begin) << " s for this window)";
    if (options.progress) options.progress(line.str());
    if (decided.answer == Answer::Unknown) {
      result.gave_up = true;
      break;
    }
    if (decided.answer == Answer::Unsat) {
      result.next_period = period + 1;
      continue;
    }
    result.solution = checked_solution(window, options.memory_limit, period, decided.starts, max_in_flight);
    break;
  }
  return result;
}

// Past the periods the program decides alone (about a second each by its
// estimate), up to this estimate the solver gets solver_head_start_seconds on
// a period and the program decides what the solver leaves open. The solver
// decides most periods in milliseconds, and where it does not the program
// costs seconds against the solver's minutes (mllm, 64 devices, memory 16:
// periods 18-21 took the solver 41-76 s each, the program 1.6-6 s).
// (developer knobs program_reach_seconds and solver_head_start_seconds.)

// Several threads race the periods (period_race.hpp); one descends them.
bool races_periods(const SearchOptions& options) {
  return options.threads > 1 && std::max(1, options.periods_per_solver) == 1;
}

// The periods the program can afford from lower_bound on, raced on several
// threads together with the solver's periods above them (period_race.hpp):
// the program's periods are decided side by side, and the solver's start at
// once instead of after the last of them (mllm, 32 devices, memory 8: the
// program takes 3.2 s for 16-19 on one thread). On the
// periods above, while the program's estimate stays within
// program_reach_seconds, the solver gets its head start and the program
// follows on the same thread, as on one thread. A period
// the program found satisfiable comes back as `solution`, for the caller to
// ask the modulo encoding's own window as on one thread; one the solver
// found is left in outcome.solution with its solver in `backend`. A race
// that gave up leaves its best repetend in hand in outcome.solution.
ProgramPeriods race_program_periods(const Placement& window, const PeriodProgram& program,
                                    const SearchOptions& options, const Deadline& deadline, int max_in_flight,
                                    int lower_bound, int last_period, bool last_feasible, const ModuloRules& rules,
                                    std::unique_ptr<Backend>& backend, ModuloEncoding& encoding,
                                    WindowOutcome& outcome, std::vector<SolverCall>& calls) {
  const int program_last = last_affordable(program, lower_bound, last_period, 1.0);
  const int program_reach = last_affordable(program, program_last + 1, last_period, options.tuning.program_reach_seconds);
  PeriodRaceQuestion question{&window, lower_bound, last_period, max_in_flight, rules, last_feasible, "",
                              options.threads};
  question.program = program.work;
  question.program_name = program.name;
  question.program_last = program_last;
  question.program_reach = program_reach;
  question.head_start_seconds = options.tuning.solver_head_start_seconds;
  PeriodRaceOutcome raced = race_periods(question, options, deadline, calls);
  const int proven = std::min(raced.proven_lower_bound, last_period + 1);
  std::optional<ModuloSolution> by_program;
  if (raced.by_program)
    by_program = checked_solution(window, options.memory_limit, raced.by_program->period, raced.by_program->starts,
                                  max_in_flight);
  if (raced.found) {
    backend = std::move(raced.found->backend);
    encoding = std::move(raced.found->encoding);
    const int period = raced.found->period;
    outcome.solution = checked_solution(window, options.memory_limit, period,
                                        decode_starts(*backend, encoding, period), max_in_flight);
  }
  if (raced.gave_up) {
    if (by_program) outcome.solution = by_program;
    return {std::nullopt, proven, true};
  }
  return {by_program, proven, false};
}

// One thread, periods past the program's own but within its reach
// (program_reach_seconds): the solver's head start, then the program.
struct ProgramAfterSolver {
  const PeriodProgram* program = nullptr;
  int first = 0, last = -1;
  bool covers(int period) const { return program && period >= first && period <= last; }
};

// The program on a period its solver left open after the head start. At a
// satisfiable one the solver keeps solver_window_seconds for its own window,
// as after the program's own periods; if it does not answer, the program's
// window (of least latency) is the answer and `backend` is released, so no
// latency is bisected.
Answer program_after_solver(const Placement& window, const PeriodProgram& program, int period,
                            const SearchOptions& options, const Deadline& deadline, int max_in_flight,
                            std::unique_ptr<Backend>& backend, const ModuloEncoding& encoding,
                            WindowOutcome& outcome, std::vector<SolverCall>& calls) {
  const auto begin = std::chrono::steady_clock::now();
  ChainPeriod decided = program.decide(period, deadline);
  const double seconds = seconds_since(begin);
  std::ostringstream what;
  what << "period " << period << " (" << program.name << ", after the solver's " << options.tuning.solver_head_start_seconds << " s)";
  calls.push_back({what.str(), decided.answer, seconds});
  std::ostringstream line;
  line << "repetend: " << what.str() << ": " << answer_name(decided.answer) << " (" << seconds << " s)";
  if (options.progress) options.progress(line.str());
  if (decided.answer != Answer::Sat) return decided.answer;
  const std::vector<Lit> asked{period_assumption(encoding, period)};
  if (backend->solve(asked, deadline.within(options.tuning.solver_window_seconds)) == Answer::Sat) {
    outcome.solution = checked_solution(window, options.memory_limit, period,
                                        decode_starts(*backend, encoding, period), max_in_flight);
    return Answer::Sat;
  }
  release_in_background(std::move(backend));
  outcome.solution = checked_solution(window, options.memory_limit, period, decided.starts, max_in_flight);
  return Answer::Sat;
}

// Periods lower_bound .. last_period one after the other on this thread;
// one solver per chunk of consecutive periods (see the file comment). The
// solver of the satisfiable period is left in `backend` for the latency.
void descend_periods(const Placement& window, const SearchOptions& options, const Deadline& deadline,
                     int max_in_flight, int lower_bound, int last_period, const ModuloRules& rules,
                     const std::string& label, const ProgramAfterSolver& after,
                     std::unique_ptr<Backend>& backend, ModuloEncoding& encoding, WindowOutcome& outcome,
                     std::vector<SolverCall>& calls) {
  const auto begin = std::chrono::steady_clock::now();
  const int chunk = std::max(1, options.periods_per_solver);
  for (int period = lower_bound; period <= last_period; ++period) {
    if (!backend || period > encoding.last_period) {
      if (deadline.expired()) {
        outcome.gave_up = true;
        break;
      }
      backend = make_backend(options.backend, options.backend_settings);
      encoding = encode_modulo(*backend, window, options.memory_limit, period,
                               std::min(last_period, period + chunk - 1), max_in_flight, rules, deadline);
      if (!encoding.complete) {
        outcome.gave_up = true;
        break;
      }
    }
    auto call_start = std::chrono::steady_clock::now();
    const bool head_start = after.covers(period);
    Answer answer = backend->solve({period_assumption(encoding, period)},
                                   head_start ? deadline.within(options.tuning.solver_head_start_seconds) : deadline);
    double seconds = seconds_since(call_start);
    calls.push_back({label + "period " + std::to_string(period), answer, seconds});
    std::ostringstream line;
    line << "repetend: " << label << "period " << period << ": " << answer_name(answer) << " (" << seconds
         << " s, " << seconds_since(begin) << " s for this window)";
    if (options.progress) options.progress(line.str());
    if (answer == Answer::Unknown && head_start && !deadline.expired()) {
      answer = program_after_solver(window, *after.program, period, options, deadline, max_in_flight, backend,
                                    encoding, outcome, calls);
      if (answer == Answer::Sat) break;  // outcome.solution set
    }
    if (answer == Answer::Unsat) {
      outcome.attempt.proven_lower_bound = period + 1;
      continue;
    }
    if (answer == Answer::Unknown) {
      outcome.gave_up = true;
      break;
    }
    outcome.solution = checked_solution(window, options.memory_limit, period,
                                        decode_starts(*backend, encoding, period), max_in_flight);
    break;
  }
}

// The modulo encoding on periods lower_bound .. last_period: raced on
// several threads (and configurations) with answers in period order, else
// descended on this one. The solver of the satisfiable period is left in
// `backend` for the latency. `last_feasible`: the last period is known to have
// a repetend.
void solve_periods(const Placement& window, const SearchOptions& options, const Deadline& deadline,
                   int max_in_flight, int lower_bound, int last_period, bool last_feasible, const ModuloRules& rules,
                   const std::string& label, const ProgramAfterSolver& after, std::unique_ptr<Backend>& backend,
                   ModuloEncoding& encoding, WindowOutcome& outcome, std::vector<SolverCall>& calls) {
  if (!races_periods(options)) {
    descend_periods(window, options, deadline, max_in_flight, lower_bound, last_period, rules, label, after, backend,
                    encoding, outcome, calls);
    return;
  }
  PeriodRaceOutcome raced = race_periods(
      {&window, lower_bound, last_period, max_in_flight, rules, last_feasible, label, options.threads}, options, deadline,
      calls);
  outcome.attempt.proven_lower_bound = std::min(raced.proven_lower_bound, last_period + 1);
  outcome.gave_up = raced.gave_up;
  if (!raced.found) return;
  backend = std::move(raced.found->backend);
  encoding = std::move(raced.found->encoding);
  const int period = raced.found->period;
  outcome.solution = checked_solution(window, options.memory_limit, period,
                                      decode_starts(*backend, encoding, period), max_in_flight);
}

// Second objective: the shortest latency at the found period
// (latency_bisection.hpp), within a budget of as long as the period took
// (at least latency_min_seconds): the period is what the search is for, and
// a longer latency only costs micro-batches in flight, which the memory
// limit already bounds.
void least_latency(const Placement& window, const SearchOptions& options, const Deadline& deadline,
                   int max_in_flight, const ModuloRules& rules, const std::string& label, Backend& backend,
                   const ModuloEncoding& encoding, WindowOutcome& outcome, std::vector<SolverCall>& calls) {
  Deadline budget = deadline;
  if (options.latency_budget) budget = budget.within(std::max(options.latency_min_seconds, outcome.period_seconds));
  const LatencyOutcome least = bisect_latency({&window, *outcome.solution, max_in_flight, rules, label}, options,
                                              deadline, budget, backend, encoding, calls);
  outcome.solution = least.solution;
  outcome.latency_gave_up = least.gave_up;
  outcome.latency_unfinished = least.unfinished;
}

// Periods lower_bound .. last_period of the window placement, then the
// latency at the first satisfiable one. `capped`: last_period is below the
// fallback's period, so "none found" means "no better window", not a bug.
WindowOutcome decide_window(const Placement& window, int k, const SearchOptions& options, const Deadline& deadline,
                            int max_in_flight, int last_period, bool capped, const ModuloSolution& fallback,
                            std::vector<SolverCall>& calls) {
  // The unit-step encoding grows with the periods it asks (a literal per
  // phase of every start), and the first is the memory-rate bound when that
  // is above L: a bound of 10 million steps (a long delay holding memory)
  // built a modulo encoding of 7.5 GB for 20 s past a 5 s limit, where the
  // cyclic orders decide it in milliseconds. Past the order-literal budget
  // (encoding_budget.hpp) the cyclic orders decide.
  const bool long_periods =
      options.period_method == PeriodMethodChoice::Automatic &&
      static_cast<double>(memory_rate_bound(window, options.memory_limit).period) *
              static_cast<double>(window.blocks.size()) > static_cast<double>(kMaxOrderLiterals);
  if (long_periods || period_method(window, options.period_method) == PeriodMethod::CyclicOrder)
    return decide_window_by_order(window, k, options, deadline, max_in_flight, last_period, capped, fallback, calls);
  const auto begin = std::chrono::steady_clock::now();
  const std::string label = k == 1 ? "" : "k=" + std::to_string(k) + " ";
  WindowOutcome outcome;
  outcome.attempt.k = k;
  int lower_bound = static_cast<int>(std::min<long long>(first_period(window, options, label, calls), last_period + 1));
  outcome.attempt.proven_lower_bound = lower_bound;
  const ModuloRules rules{options.symmetry, k};

  // A mirrored chain's periods, or crossed chains', go to their program
  // first. At the period it finds, the modulo encoding's own window is asked
  // for too, within solver_window_seconds: the makespan phases were built and
  // measured on the solver's windows, and the program's window stands where
  // the solver does not answer in time (a chain's is of least latency too).
  std::optional<ModuloSolution> program_window;
  Deadline solver_deadline = deadline;
  std::unique_ptr<Backend> backend;
  ModuloEncoding encoding;
  const bool last_feasible = !capped && fallback.in_flight <= max_in_flight;
  std::optional<PeriodProgram> program;
  if (k == 1 && options.period_method == PeriodMethodChoice::Automatic && lower_bound <= last_period)
    program = period_program(window, options, max_in_flight);
  ProgramAfterSolver after;
  if (program) {
    ProgramPeriods by_program =
        races_periods(options)
            ? race_program_periods(window, *program, options, deadline, max_in_flight, lower_bound, last_period,
                                   last_feasible, rules, backend, encoding, outcome, calls)
            : decide_program_periods(window, *program, options, deadline, max_in_flight, lower_bound, last_period,
                                     calls);
    lower_bound = by_program.next_period;
    outcome.attempt.proven_lower_bound = lower_bound;
    outcome.gave_up = by_program.gave_up;
    program_window = by_program.solution;
    if (program_window) {
      last_period = lower_bound;
      solver_deadline = deadline.within(options.tuning.solver_window_seconds);
    } else if (!races_periods(options)) {
      after = {&*program, lower_bound, last_affordable(*program, lower_bound, last_period, options.tuning.program_reach_seconds)};
    }
  }

  // Else out of time, found by the solver in the race above, or every period below the bound.
  if (!outcome.gave_up && !outcome.solution && lower_bound <= last_period)
    solve_periods(window, options, solver_deadline, max_in_flight, lower_bound, last_period, last_feasible, rules,
                  label, after, backend, encoding, outcome, calls);
  if (program_window && !outcome.solution) {
    if (!outcome.gave_up)
      throw std::logic_error("repetend search: the modulo encoding refuted period " +
                             std::to_string(program_window->period) +
                             ", whose repetend a period program built and the definition accepts");
    release_in_background(std::move(backend));  // its question is moot
    outcome.solution = program_window;
    outcome.attempt.proven_lower_bound = program_window->period;
    outcome.gave_up = false;
  }
  outcome.period_seconds = seconds_since(begin);
  if (outcome.gave_up && deadline.expired()) release_in_background(std::move(backend));  // not ours to wait for

  if (outcome.solution && outcome.gave_up) {
    // Another thread found this period satisfiable before a smaller one was
    // decided (race_periods): the best window in hand, its period not proven
    // minimal, and no time left for its latency.
    outcome.attempt.status = WindowStatus::Timeout;
    outcome.attempt.period = outcome.solution->period;
    outcome.attempt.latency = outcome.solution->latency;
    outcome.attempt.seconds = seconds_since(begin);
    return outcome;
  }
  if (!outcome.solution) {
    outcome.attempt.seconds = seconds_since(begin);
    if (outcome.gave_up) {
      outcome.attempt.status = WindowStatus::Timeout;
    } else if (capped) {
      outcome.attempt.status = WindowStatus::NotBetter;
    } else if (fallback.in_flight <= max_in_flight) {
      // Cannot happen when the encoding is right: the fallback is a solution
      // of the largest period tried. Say so rather than hide it.
      throw std::logic_error("repetend search: window period " + std::to_string(fallback.period) +
                             " decided unsat although micro-batches run one at a time fit");
    } else {
      outcome.attempt.status = WindowStatus::Infeasible;
    }
    return outcome;
  }

  const auto latency_begin = std::chrono::steady_clock::now();
  if (backend) least_latency(window, options, deadline, max_in_flight, rules, label, *backend, encoding, outcome, calls);
  if (program_window && program_window->latency < outcome.solution->latency) {
    // The solver's bisection stopped above the least latency the program found.
    outcome.solution = program_window;
    outcome.latency_gave_up = outcome.latency_unfinished = false;
  }
  outcome.latency_seconds = seconds_since(latency_begin);
  outcome.attempt.status = WindowStatus::Found;
  outcome.attempt.period = outcome.solution->period;
  outcome.attempt.latency = outcome.solution->latency;
  outcome.attempt.seconds = seconds_since(begin);
  return outcome;
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
  const std::vector<int>& alone = single.starts;
  const int alone_latency = modulo_solution(placement, 1, alone).latency;

  // Kmax: the user's K, else as many as the blocks of one micro-batch (a
  // modulo schedule of minimal latency never needs more than one period per
  // block of its longest chain in flight). Counted in windows.
  const int max_in_flight = options.in_flight.value_or(std::max<int>(1, placement.blocks.size()));
  const bool automatic = options.micros_per_window == 0;
  const int first_k = automatic ? 1 : options.micros_per_window;
  const int last_k = automatic ? std::max(1, options.largest_auto_window) : options.micros_per_window;

  struct Best {
    int k;
    ModuloSolution solution;
    WindowOutcome outcome;
  };
  std::optional<Best> best;
  std::optional<WindowOutcome> first_outcome;
  double period_seconds = 0, latency_seconds = 0;
  bool timed_out = false;
  bool wider_undecided = false;
  std::vector<int> latency_unfinished_k;
  Deadline wider_deadline = options.deadline;  // set when k = 1 is decided
  std::optional<ModuloSolution> first_fallback;  // first k's, when built before the deadline
  for (int k = first_k; k <= last_k; ++k) {
    // No window beats an average of L.
    if (best && best->solution.period == best->k * per_micro_bound) break;
    const bool exploring = automatic && k > 1;
    if (exploring && k == 2) {
      // The wider windows get a share of the time, so that exploring them
      // never costs the answer k = 1 already has.
      double share = options.wider_window_seconds > 0 ? options.wider_window_seconds : 1e18;
      if (!options.deadline.unlimited()) share = std::min(share, options.deadline.seconds_left() / 2);
      if (share < 1e17) wider_deadline = options.deadline.within(std::max(share, 1e-3));
    }
    const Deadline& deadline = exploring ? wider_deadline : options.deadline;
    if (deadline.expired()) {
      result.windows.push_back({k, exploring ? WindowStatus::Undecided : WindowStatus::Timeout, 0, k * per_micro_bound, 0, 0});
      (exploring ? wider_undecided : timed_out) = true;
      break;
    }
    const Placement window = window_placement(placement, k);
    const ModuloSolution fallback = fast_or_fallback(window, options.memory_limit, max_in_flight,
                                                     sequential_window(window, alone, alone_latency, k, k * per_micro_bound),
                                                     deadline);
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
    WindowOutcome outcome = decide_window(window, k, options, deadline, max_in_flight, last_period, capped,
                                          fallback, result.calls);
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
    if (!first_outcome) first_outcome = outcome;
    if (outcome.solution) best = Best{k, *outcome.solution, outcome};
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
  result.phases.push_back({"period", period_seconds});
  if (latency_seconds > 0) result.phases.push_back({"latency", latency_seconds});

  if (!best && !timed_out) {
    result.status = SearchStatus::Infeasible;
    result.proven_lower_bound = first_outcome ? first_outcome->attempt.proven_lower_bound : per_micro_bound;
    result.lower_bound = first_k * per_micro_bound;
    result.message = "no repetend with at most " + std::to_string(max_in_flight) +
                     (first_k == 1 ? "" : " windows of " + std::to_string(first_k)) +
                     " micro-batches in flight fits the memory limit";
    return result;
  }

  // The chosen window, or when time ran out before any, the first k's
  // one-at-a-time fallback.
  const int k = best ? best->k : first_k;
  const Placement window = window_placement(placement, k);
  // The time-out answer: the first window's fallback when it was built in
  // full before the deadline; else its construction gets a second beyond the
  // limit (an interrupt still stops it); past that, one micro-batch at a time.
  const ModuloSolution chosen =
      best ? best->solution
      : first_fallback ? *first_fallback
                       : fast_or_fallback(window, options.memory_limit, max_in_flight,
                                          sequential_window(window, alone, alone_latency, k, k * per_micro_bound),
                                          Deadline::after_seconds(1.0, options.deadline.stop));
  result.micros_per_window = k;
  result.lower_bound = k * per_micro_bound;
  for (const WindowAttempt& attempt : result.windows)
    if (attempt.k == k) result.proven_lower_bound = attempt.proven_lower_bound;

  auto build_begin = std::chrono::steady_clock::now();
  WarmupCooldown built = build_warmup_cooldown(window, options.memory_limit, chosen, options.deadline);
  // The solver shortens both ends within its own budget (never past the
  // deadline): an unfinished shortening still leaves a valid schedule.
  BoundaryOutcome shortened{built.schedule, false, false, {}};
  // Only with time left: shorten_boundary reads a spent deadline as none
  // (a margin, so that it cannot expire between this test and that read).
  if (built.valid && options.boundary_seconds > 0 && options.deadline.seconds_left() > 0.05) {
    Deadline boundary_deadline = options.deadline.within(options.boundary_seconds);
    shortened = shorten_boundary(built.schedule, options.backend, boundary_deadline, options.progress);
  }
  for (const SolverCall& call : shortened.calls) result.calls.push_back(call);
  result.phases.push_back({"warmup/cooldown", seconds_since(build_begin)});
  if (shortened.improved) built.schedule = shortened.schedule;
  Schedule schedule = schedule_from_window(built.schedule, placement, k);
  result.boundary = {built.squeezed, shortened.improved, shortened.complete};
  result.schedule = schedule;
  result.period = chosen.period;
  result.latency = chosen.latency;
  result.in_flight = chosen.in_flight * k;
  result.makespan = makespan(schedule);
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
  if (result.status == SearchStatus::Timeout) result.latency_minimal = false;
  if (!built.valid) {
    result.schedule.reset();
    result.message += std::string(result.message.empty() ? "the period stands" : "") + "; " + unusable_warmup_reason(built);
  }
  return result;
}

}  // namespace tessel
