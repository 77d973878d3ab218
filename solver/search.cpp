// solve(): the request checked, the strategy run on the solver's view of the
// placement (static memory folded into the limits), the makespan candidates
// at N gathered, every schedule verified by verify/ (the judge), the best
// chosen, and one report built. What "proven" means is decided here only.
// With a time limit the work after the search is budgeted by its size (the
// answer's verification reserved up front, the answer at N skipped when it
// would overrun), so that a time-out ends near its limit, with exit 3.
#include "solver/search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>

#include "model/input_error.hpp"
#include "model/quantity.hpp"
#include "model/json_file.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "sat/background_free.hpp"
#include "solver/makespan/bounds/makespan_gap.hpp"
#include "solver/makespan/bounds/solved_bounds.hpp"
#include "solver/makespan/build_candidates.hpp"
#include "solver/makespan/constructions/family_replay.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_choice_search.hpp"
#include "solver/solve/recompute_search.hpp"
#include "solver/solve/resolution.hpp"
#include "solver/solve/traded_neighbourhoods.hpp"
#include "solver/solve/traded_shifts.hpp"
#include "solver/solve/traded_start.hpp"
#include "solver/solve/unit_step_problem.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "solver/strategies/fast_search.hpp"
#include "solver/strategies/full_search.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "verify/verify.hpp"

namespace tessel {

SearchOptions options_from_tuning(const Tuning& tuning) {
  SearchOptions options;
  options.backend_settings = backend_settings_of(tuning);
  options.boundary_seconds = tuning.boundary_seconds;
  options.ends_seconds = tuning.ends_seconds;
  options.relaxation_seconds = tuning.relaxation_seconds;
  options.largest_auto_window = static_cast<int>(tuning.largest_window);
  options.wider_window_seconds = tuning.window_seconds;
  options.symmetry = tuning.symmetry != 0;
  options.period_method = period_method_of(tuning);
  options.order_questions = order_questions_of(tuning);
  options.latency_budget = tuning.latency_budget != 0;
  options.latency_min_seconds = tuning.latency_min_seconds;
  options.periods_per_solver = static_cast<int>(tuning.periods_per_solver);
  options.cubes = cube_settings_of(tuning);
  options.share_clauses = static_cast<int>(tuning.share_clauses);
  options.rival_after_seconds = tuning.rival_after_seconds;
  options.tuning = tuning;
  return options;
}

namespace {

void check_request(const SearchRequest& request) {
  const std::vector<std::string> backends = backend_names();
  if (std::find(backends.begin(), backends.end(), request.backend) == backends.end())
    throw InputError("", "--backend", "'" + request.backend + "' is not one of cadical, z3");
  if (static_cast<int>(request.memory_limit.size()) != request.placement.ndevs)
    throw InputError("", "--memory", "give one limit per device (" + std::to_string(request.placement.ndevs) + ")");
  for (Memory limit : request.memory_limit)
    if (limit < 0) throw InputError("", "--memory", "a memory limit must be >= 0");
  if (request.total_micros < 1) throw InputError("", "--total-micros", "must be >= 1");
  if (request.in_flight && *request.in_flight < 1) throw InputError("", "--nmicros", "must be >= 1");
  if (request.micros_per_window < 0 || request.micros_per_window > 64)
    throw InputError("", "--micros-per-window", "must be in 0 .. 64 (0 = automatic)");
  if (request.threads < 0 || request.threads > kMaxThreads)
    throw InputError("", "--threads", "must be in 0 .. " + std::to_string(kMaxThreads) + " (0 = every core), not " +
                                          std::to_string(request.threads));
  if (request.micros_per_window != 0 && request.strategy != Strategy::Repetend)
    throw InputError("", "--micros-per-window", "applies to strategy repetend only");
}

// A device whose static memory alone is above its limit, devices without
// blocks included: no schedule exists, whatever the blocks do. Said at
// once, before a phase reads the negative room left as a puzzle.
std::optional<std::string> static_memory_over_limit(const SearchRequest& request) {
  const Placement& placement = request.placement;
  for (int device = 0; device < placement.ndevs; ++device) {
    const Memory held = static_memory_of(placement, device);
    if (held <= request.memory_limit[device]) continue;
    return "device " + std::to_string(device) + "'s static memory " + format_ticks(held, placement.memory_decimals) +
           " is above its limit " + format_ticks(request.memory_limit[device], placement.memory_decimals) +
           " before any block runs";
  }
  return std::nullopt;
}

// A quick repetend unrolled to N: the start of the full solver (an upper
// bound that is usually within a few steps of the optimum), within what the
// budget grants it (full_start_seconds, at most full_start_share of the
// time left).
std::optional<Schedule> repetend_start(const Placement& placement, const SearchOptions& options, int total_micros,
                                       Budget& budget) {
  const Tuning& tuning = options.tuning;
  if (options.deadline.seconds_left() < tuning.full_start_least_seconds) return std::nullopt;
  SearchOptions quick = options;
  quick.in_flight.reset();
  quick.micros_per_window = 1;
  quick.boundary_seconds = std::min(options.boundary_seconds, tuning.full_start_boundary_seconds);
  quick.deadline = grant_phase(budget, BudgetPhase::FullStart, options.deadline, tuning.full_start_seconds,
                               tuning.full_start_share);
  quick.progress = nullptr;
  try {
    SearchResult found = search_repetend(placement, quick);
    if (found.status != SearchStatus::Found || !found.schedule || !found.schedule->repetend) return std::nullopt;
    if (total_micros < smallest_unroll(*found.schedule)) return std::nullopt;
    Schedule unrolled = unroll(*found.schedule, total_micros);
    unrolled.repetend.reset();
    return unrolled;
  } catch (const InputError&) {
    return std::nullopt;  // no steady state, or a window the count cannot reach
  }
}

// The full solver's start: the shortest of the quick repetend and the
// constructions that take no solver (the hand-made families' orders replayed,
// the list-scheduling portfolio). Its makespan is the horizon, and the first
// question the solver is asked is one step below it: when the hand-made
// schedule is optimal, one refutation proves it.
std::optional<Schedule> full_start(const Placement& placement, const SearchOptions& options, int total_micros,
                                   Budget& budget) {
  std::optional<Schedule> best = repetend_start(placement, options, total_micros, budget);
  auto consider = [&](const Schedule& schedule) {
    if (!best || makespan(schedule) < makespan(*best)) best = schedule;
  };
  if (static_cast<int>(options.memory_limit.size()) != placement.ndevs) return best;  // the constructions need limits
  for (const Replay& replay : family_replays(placement, options.memory_limit, total_micros)) consider(replay.schedule);
  const Deadline list_deadline = grant_phase(budget, BudgetPhase::FullList, options.deadline,
                                             options.tuning.full_list_seconds, options.tuning.full_list_share);
  if (auto list = best_list_schedule(placement, options.memory_limit, total_micros, list_deadline))
    consider(list->schedule);
  return best;
}

SearchResult run_strategy(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                          Budget& budget) {
  switch (request.strategy) {
    case Strategy::Full:
      return search_full(placement, options, full_start(placement, options, options.total_micros, budget));
    case Strategy::Fast:
      return search_fast(placement, options, request.total_micros, request.tuning.fast_bubble_budget,
                         request.tuning.fast_improve_seconds);
    case Strategy::Repetend:
      break;
  }
  return search_repetend(placement, options);
}

// The verifier's first violation of `schedule` in words, or nothing when
// it is valid.
std::optional<std::string> first_violation(const Schedule& schedule) {
  require_address_space(schedule.instances.size() * kDocumentBytesPerInstance);  // model/json_file.hpp
  auto document = std::make_unique<nlohmann::json>(schedule_to_json(schedule));
  const verify::Report report = verify::check_schedule(*document);
  // Freed off the critical path, as in verified() below: the repetend
  // schedule of a 1024-device vshape is 2 million instances.
  free_in_background(std::move(document));
  if (report.valid) return std::nullopt;
  if (report.violations.empty()) return std::string("invalid");
  const verify::Violation& first = report.violations.front();
  return first.kind + ": " + first.message;
}

// A candidate the verifier rejected: listed and dropped, or (strict, the
// tests' setting) an internal error. The same phase and violation is
// listed once (an improvement's offer and its final candidate may repeat).
void reject(std::vector<RejectedCandidate>& rejected, RejectedCandidate candidate) {
  if (strict_candidates())
    throw std::logic_error("the verifier REJECTS a candidate of phase '" + candidate.phase +
                           "' (a bug in tessel's search): " + candidate.violation);
  for (const RejectedCandidate& seen : rejected)
    if (seen.phase == candidate.phase && seen.violation == candidate.violation) return;
  rejected.push_back(std::move(candidate));
}

// The verifier's verdict; a rejected schedule is a bug in tessel's search.
verify::Report verified(const Schedule& schedule, const std::string& what) {
  require_address_space(schedule.instances.size() * kDocumentBytesPerInstance);  // model/json_file.hpp
  auto document = std::make_unique<nlohmann::json>(schedule_to_json(schedule));
  verify::Report report = verify::check_schedule(*document);
  // A document of millions of instances takes most of a second to free
  // (an allocation per instance): not on the way to the answer.
  free_in_background(std::move(document));
  if (!report.valid)
    throw std::logic_error("the verifier REJECTS the " + what + " (a bug in tessel's search):\n" +
                           verify::report_to_text(report));
  return report;
}

// The solver saw the blocks' memory against what static memory leaves; the
// schedules it returns get the whole placement and the user's limits back.
// The solver's limits may be uniform where the user's are not (static
// memory taken off): the flag that writes one number follows the user's.
Schedule restored(const Schedule& schedule, const SearchRequest& request) {
  Schedule whole = schedule;
  whole.placement = request.placement;
  whole.memory_limit = request.memory_limit;
  whole.uniform_limit = std::adjacent_find(request.memory_limit.begin(), request.memory_limit.end(),
                                           std::not_equal_to<Memory>()) == request.memory_limit.end();
  return whole;
}

// Recomputation or offload offered: the period searches decide windows
// with every activation kept, so what they refute could still be reached by
// recomputing or offloading. Only L, the devices' load without any
// recompute (the cheapest choice), stays a bound; the windows' refutations
// are left undecided.
// The same for the gap's cause: what the period or full search refuted
// says nothing about schedules that trade memory.
void unproven_gap(MakespanGap& gap, const std::string& construction) {
  if (gap.cause == GapCause::None) return;
  gap.cause = GapCause::NotTight;
  gap.boundary = BoundaryCause::None;
  gap.construction = construction;
  gap.proven_lower_bound = gap.bound;
}

void proven_only_by_load(PeriodReport& period) {
  period.proven_lower_bound = period.lower_bound;
  period.optimal = period.optimal && period.period == period.lower_bound;
  for (WindowAttempt& window : period.windows) {
    window.proven_lower_bound = std::min<Time>(window.proven_lower_bound, window.k * period.lower_bound);
    if (window.status == WindowStatus::NotBetter || window.status == WindowStatus::Infeasible)
      window.status = WindowStatus::Undecided;
  }
}

PeriodReport period_report(const SearchResult& result, Strategy strategy, const Placement& placement) {
  PeriodReport period;
  period.period = result.period;
  period.micros_per_window = result.micros_per_window;
  period.lower_bound = result.lower_bound;
  period.proven_lower_bound = result.proven_lower_bound;
  // fast proves nothing beyond L; its period is optimal only at L.
  period.optimal = result.status == SearchStatus::Found &&
                   (strategy == Strategy::Fast ? result.period == result.lower_bound
                                               : result.period == result.proven_lower_bound);
  period.in_flight = result.in_flight;
  period.latency = result.latency;
  period.latency_minimal = result.latency_minimal;
  period.windows = result.windows;
  period.construction = result.construction;
  if (offers_memory_choice(placement)) proven_only_by_load(period);
  if (result.schedule && result.schedule->repetend) {
    period.warmup = result.schedule->repetend->start;
    period.cooldown = makespan(*result.schedule) - result.schedule->repetend->end;
  }
  return period;
}

// The closed bounds at N (`closed`), raised by the solved ones (within their
// budgets) when `best` is above them and nothing proved it optimal yet.
MakespanBound bound_at(const Placement& placement, long long total_micros, const SearchOptions& options, long long best,
                       long long proven, const MakespanBound& closed, const Schedule* hint = nullptr) {
  if (!solved_bounds_on(options) || best <= std::max(proven, closed.value)) return closed;
  return raised_by_solved_bounds(placement, total_micros, options, best, closed, {1.0, hint});
}

MakespanGap candidates_gap(const MakespanReport& at, const SearchResult& result, double boundary_seconds) {
  GapFacts facts;
  facts.full = false;
  facts.result = &result;
  facts.boundary_seconds = boundary_seconds;
  facts.total_micros = at.total_micros;
  facts.makespan = at.makespan;
  facts.bound = at.bound;
  MakespanGap gap = explain_gap(facts);
  if (gap.cause == GapCause::None) return gap;
  if (at.proven_optimal) {
    gap.cause = GapCause::ProvenOptimal;
    gap.boundary = BoundaryCause::None;
  } else if (at.shape != Shape::Repetend) {
    MakespanGap not_tight;
    not_tight.cause = GapCause::NotTight;
    not_tight.total_micros = facts.total_micros;
    not_tight.makespan = facts.makespan;
    not_tight.bound = facts.bound.value;
    not_tight.construction = at.construction;
    return not_tight;
  }
  return gap;
}

// The candidates of the period strategies, the shortest first in rank
// (ties keep the earlier: the repetend, which unrolls to any N), verified.
// While time is left every candidate is judged (a rejected one is a bug even
// when it loses); past the limit only the answer is, once.
void choose_best(const SearchRequest& request, const Placement& placement, const SearchResult& result,
                 const SearchOptions& options, Budget& budget, SearchReport& report, Progress& progress) {
  CandidateInput input;
  input.placement = &placement;
  input.total_micros = request.total_micros;
  input.period = &result;
  input.options = options;
  input.options.deadline = grant_makespan(budget);
  input.budget_log = &budget.log;
  MakespanReport makespan_report;
  makespan_report.total_micros = request.total_micros;
  std::optional<Time> proven_by_candidate;
  // Anytime: each shorter schedule goes to the caller as soon as it exists,
  // judged by the verifier like the answer.
  // Every candidate and every offer is judged before anything sees it: a
  // rejected one is listed and dropped, the search goes on with the others.
  // Offers and the judge run on this thread only (candidates.cpp).
  std::optional<Time> best_offered;
  input.offer = [&](const Schedule& schedule, Shape shape, Time at_total, const std::string& phase) {
    if (best_offered && at_total >= *best_offered) return;
    Schedule offered = restored(schedule, request);
    if (std::optional<std::string> violation = first_violation(offered)) {
      reject(report.rejected, {phase + " (offered while searching)", *violation});
      return;
    }
    best_offered = at_total;
    progress.improved(offered, shape, at_total);
  };
  input.judge = [&](const Schedule& schedule) { return first_violation(restored(schedule, request)); };
  Candidates built = build_candidates(input);
  for (RejectedCandidate& bad : built.rejected) reject(report.rejected, std::move(bad));
  const std::vector<BuiltCandidate>& candidates = built.built;
  for (const BuiltCandidate& built : candidates)
    if (built.proven_lower_bound) proven_by_candidate = built.proven_lower_bound;
  // The candidates were judged as they were built, except past the
  // deadline: the shortest is verified here, and one rejected is dropped
  // for the next.
  std::vector<bool> dropped(candidates.size(), false);
  const BuiltCandidate* chosen = nullptr;
  verify::Report checked;
  while (true) {
    chosen = nullptr;
    for (size_t i = 0; i < candidates.size(); ++i)
      if (!dropped[i] && candidates[i].at_total &&
          (!chosen || *candidates[i].summary.makespan < *chosen->summary.makespan))
        chosen = &candidates[i];
    if (!chosen) break;
    checked = verify::check_schedule(schedule_to_json(restored(*chosen->at_total, request)));
    if (checked.valid) break;
    reject(report.rejected, {chosen->summary.name, first_violation_text(checked)});
    dropped[chosen - candidates.data()] = true;
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    makespan_report.candidates.push_back(candidates[i].summary);
    if (dropped[i]) {
      makespan_report.candidates.back().makespan.reset();
      makespan_report.candidates.back().note = "rejected by the verifier (a bug in this phase)";
      makespan_report.candidates.back().note_kind = CandidateNote::Text;
    }
  }
  if (!chosen) return;
  report.best = restored(*chosen->schedule, request);
  makespan_report.shape = chosen->summary.shape;
  makespan_report.construction = chosen->summary.name;
  makespan_report.makespan = *chosen->summary.makespan;
  if (!best_offered || makespan_report.makespan < *best_offered)
    progress.improved(*report.best, makespan_report.shape, makespan_report.makespan);
  makespan_report.bubble_ratio = checked.bubble_ratio;
  makespan_report.peak_memory = peak_in_placement_ticks(checked, request.placement);
  makespan_report.bound = built.ends_settled(makespan_report.makespan)
                              ? built.bound
                              : bound_at(placement, request.total_micros, input.options, makespan_report.makespan,
                                         proven_by_candidate.value_or(0), built.closed, &*chosen->at_total);
  // Recomputation or offload offered: the memory arguments and the full
  // search's proof assume every activation is kept, so only the bound that
  // ignores memory still holds (it allows the cheapest choice).
  if (offers_memory_choice(placement)) {
    makespan_report.bound = makespan_bound(placement, request.total_micros);
    proven_by_candidate.reset();
  }
  makespan_report.proven_lower_bound = std::max(makespan_report.bound.value, proven_by_candidate.value_or(0));
  makespan_report.proven_optimal = makespan_report.makespan == makespan_report.proven_lower_bound;
  makespan_report.gap = candidates_gap(makespan_report, result, options.boundary_seconds);
  if (offers_memory_choice(placement)) unproven_gap(makespan_report.gap, makespan_report.construction);
  report.makespan = makespan_report;
}

// Strategy full: its schedule is the answer at N = --nmicros.
void full_makespan(const SearchRequest& request, const Placement& placement, const SearchResult& result,
                   const SearchOptions& options, SearchReport& report, Progress& progress) {
  if (!result.schedule) return;
  report.best = restored(*result.schedule, request);
  verify::Report checked = verified(*report.best, "schedule of the full search");
  MakespanReport makespan_report;
  makespan_report.total_micros = report.best->nmicros;
  makespan_report.shape = Shape::Aperiodic;
  makespan_report.construction = "full";
  makespan_report.makespan = makespan(*report.best);
  makespan_report.bound = result.makespan_bound ? *result.makespan_bound
                                                : bound_at(placement, makespan_report.total_micros, options,
                                                           makespan_report.makespan, result.proven_lower_bound,
                                                           makespan_bound(placement, makespan_report.total_micros,
                                                                          options.memory_limit),
                                                           &*result.schedule);
  makespan_report.proven_lower_bound = std::max(result.proven_lower_bound, makespan_report.bound.value);
  // Recomputation or offload offered: the bound that holds is the one
  // without memory (it allows the cheapest choice). The full search's
  // refutations bound schedules that trade memory only when its encoding
  // chose them all (a recompute per micro-batch wherever memory can bind,
  // no offload offered there): then its proven bound stands.
  const bool trading = offers_memory_choice(placement);
  if (trading) {
    makespan_report.bound = makespan_bound(placement, makespan_report.total_micros);
    makespan_report.proven_lower_bound =
        result.refutes_traded ? std::max(result.proven_lower_bound, makespan_report.bound.value)
                              : makespan_report.bound.value;
  }
  makespan_report.proven_optimal =
      result.status == SearchStatus::Found && makespan_report.makespan == makespan_report.proven_lower_bound;
  makespan_report.bubble_ratio = checked.bubble_ratio;
  makespan_report.peak_memory = peak_in_placement_ticks(checked, request.placement);
  makespan_report.candidates.push_back({"full", Shape::Aperiodic, makespan_report.makespan, CandidateNote::Text, {},
                                        trading ? choices_summary(*report.best) : "", 0});
  GapFacts facts{true, &result, 0, makespan_report.total_micros, makespan_report.makespan, makespan_report.bound};
  makespan_report.gap = explain_gap(facts);
  if (trading && !result.refutes_traded) unproven_gap(makespan_report.gap, makespan_report.construction);
  progress.improved(*report.best, Shape::Aperiodic, makespan_report.makespan);
  report.makespan = makespan_report;
}

// Verifying the answer is not optional, and its cost grows with its
// instances: the repetend schedule holds blocks x micro-batches in flight
// (about the critical path over L), the full search's N x blocks. The
// budget keeps verify_seconds_per_instance for each (solver/solve/budget.hpp).
double answer_instances(const SearchRequest& request, const Placement& placement, const SearchOptions& options) {
  if (placement.blocks.empty()) return 0;
  const double blocks = static_cast<double>(placement.blocks.size());
  if (request.strategy == Strategy::Full) return blocks * options.total_micros;
  const double bound = std::max<Time>(1, period_lower_bound(placement));
  const double in_flight = std::min<double>(options.in_flight.value_or(placement.blocks.size()),
                                            std::ceil(static_cast<double>(critical_path(placement)) / bound));
  return blocks * std::max(1.0, in_flight);
}

// Near the time limit the answer at N is optional work whose cost grows
// with its instances: unrolling reads every instance of the repetend
// schedule and writes N x blocks, then the verifier reads them again, and
// -o writes them. Its cost per instance is measured on the repetend
// schedule's own verification (same machine, same load; blocks count as
// items too, the placement is part of the document), never taken below
// the budget's constant. The budget grants it only when it ends within the
// grace past the limit: else the verified repetend schedule is the answer,
// and the search counts as timed out.
double seconds_per_instance(const Tuning& tuning, double verify_seconds, size_t verified_items) {
  return std::max(tuning.verify_seconds_per_instance,
                  verify_seconds / static_cast<double>(std::max<size_t>(verified_items, 1)));
}

// The seconds the answer at N would take, or nothing when the budget grants it.
std::optional<double> answer_overrun(Budget& budget, double per_instance, const Schedule& repetend,
                                     const Placement& placement, int total_micros) {
  if (budget.limit.unlimited()) return std::nullopt;
  const double at_total = static_cast<double>(placement.blocks.size()) * total_micros;
  const double seconds = per_instance * (static_cast<double>(repetend.instances.size()) + 2 * at_total);
  if (grant_answer(budget, seconds)) return std::nullopt;
  return seconds;
}

// The repetend schedule stands for the answer at N when building that was
// skipped: it is verified, -o writes it (once, at the end: the caller's
// copy carries the provenance), `tessel unroll` extends it.
void skip_answer_at_total(const SearchRequest& request, double seconds, SearchReport& report) {
  report.best = report.repetend;
  SearchNote note{SearchNoteKind::AnswerNearLimit};
  note.total_micros = request.total_micros;
  note.seconds = seconds;
  note.headline = report.outcome == Outcome::Found;
  report.notes.push_back(note);
  if (report.outcome == Outcome::Found)
    report.outcome = request.deadline.stopped() ? Outcome::Interrupted : Outcome::Timeout;
}

// With --resolution the search ran on the rounded times; the real ones may
// be beyond what the searches of the answer at N represent (their starts
// and makespans pass 2^31 ticks: a window period read as -727379967, or a
// tabu search allocating per tick). Then the lifted repetend schedule is the
// answer, verified on the real times; `tessel unroll` extends it.
void answer_off_the_search_range(const SearchRequest& request, SearchReport& report) {
  report.best = report.repetend;
  SearchNote note{SearchNoteKind::AnswerBeyondRange};
  note.total_micros = request.total_micros;
  note.ticks = kLargestSearchTime;
  report.notes.push_back(note);
}

// An interrupt (Ctrl-C, SIGTERM) during the period search asks for the
// best schedule now: the answer at N is not built (its candidates, bounds
// and verification took 15 s on the 1024-device finetune case), and the
// verified repetend schedule is the answer; `tessel unroll` extends it.
void answer_after_interrupt(const SearchRequest& request, SearchReport& report) {
  report.best = report.repetend;
  report.outcome = Outcome::Interrupted;
  SearchNote note{SearchNoteKind::InterruptedBeforeAnswer};
  note.total_micros = request.total_micros;
  report.notes.push_back(note);
}

// A search that ran into its limit gave up, whatever it answered before:
// the work after the limit (the answer at N) was cut short.
void mark_time_out(const Deadline& deadline, SearchReport& report) {
  if (report.outcome != Outcome::Found || !deadline.expired()) return;
  report.outcome = deadline.stopped() ? Outcome::Interrupted : Outcome::Timeout;
  SearchNote note{SearchNoteKind::StoppedBuildingAnswer};
  note.headline = true;
  note.interrupted = deadline.stopped();
  report.notes.push_back(note);
}

Outcome outcome_of(const SearchResult& result, const Deadline& deadline) {
  if (result.status == SearchStatus::Found) return Outcome::Found;
  if (result.status == SearchStatus::Infeasible) return Outcome::Infeasible;
  return deadline.stopped() ? Outcome::Interrupted : Outcome::Timeout;
}

// The report of a request whose static memory alone passes a limit.
SearchReport static_memory_infeasible(const SearchRequest& request, const std::string& over, double seconds) {
  SearchReport report;
  report.strategy = request.strategy;
  report.backend = request.backend;
  report.outcome = Outcome::Infeasible;
  report.message = over;
  report.seconds = seconds;
  return report;
}

// The repetend schedule (strategies repetend and fast) restored to the
// user's placement and verified: false when the verifier rejects it, which
// drops it like any rejected candidate (the constructions at N may still
// give a valid answer). Its verification time sizes `per_instance`.
bool verify_repetend(const SearchRequest& request, SearchResult& result, SearchReport& report,
                     double& per_instance) {
  if (!result.schedule || request.strategy == Strategy::Full) return true;
  report.repetend = restored(*result.schedule, request);
  const auto verify_begin = std::chrono::steady_clock::now();
  if (std::optional<std::string> violation = first_violation(*report.repetend)) {
    reject(report.rejected, {"repetend schedule", *violation});
    report.repetend.reset();
    result.schedule.reset();
    return false;
  }
  per_instance = seconds_per_instance(request.tuning, seconds_since(verify_begin),
                                      report.repetend->instances.size() + request.placement.blocks.size());
  return true;
}

// Memory traded first (traded_start.hpp): an answer at N that no period
// search, however long, keeps from being reached. Built on the real times,
// for the strategies whose search keeps every activation.
TradedStart traded_first(const SearchRequest& request, const SearchOptions& options, Budget& budget) {
  if (request.strategy == Strategy::Full || !offers_memory_choice(request.placement)) return {};
  Placement real = request.placement;
  real.static_memory.clear();
  return traded_start(real, options.memory_limit, request.total_micros, options.deadline, budget);
}

// The phases trading memory after the makespan phases, in order: the
// choice inside the repetend, the recompute-all search, the traded answer's
// shifts and windows, and the answer where keeping everything is
// infeasible. Under the plan they share what is left of the whole plan
// (solve/budget.hpp grant_traded); the choice's build beyond its share
// moves that end for the phases after it.
void trade_memory_after(const SearchRequest& request, const SearchedPeriods& searched, const Placement& placement,
                        const SearchOptions& options, Budget& budget, SearchReport& report, Progress& progress) {
  const double late = consider_choosing_recompute(request, searched, options, budget, report, progress);
  if (budget.whole_plan_seconds > 0) budget.whole_plan_seconds += late;
  consider_recomputing_all(request, budget, report, progress, solve);
  shift_traded_answer(request, placement, options, budget, report, progress);
  improve_traded_answer_by_windows(request, placement, options, budget, report, progress);
  answer_infeasible_by_recomputing(request, budget, report, progress, solve);
}

}  // namespace

SearchReport solve(const SearchRequest& request, Progress& progress) {
  const auto begin = std::chrono::steady_clock::now();
  check_request(request);
  if (std::optional<std::string> over = static_memory_over_limit(request))
    return static_memory_infeasible(request, *over, seconds_since(begin));
  SearchOptions options = options_from_tuning(request.tuning);
  options.backend = request.backend;
  if (request.resolution < 0) throw InputError("", "--resolution", "must be a positive time");
  // With a resolution the search sees rounded times (and the size check is
  // theirs); the answer is read back on the real ones below.
  const Placement searched =
      request.resolution > 0 ? quantise_times(request.placement, request.resolution) : request.placement;
  options.memory_limit = unit_step_limits(searched, request.memory_limit);
  options.in_flight = request.in_flight;
  options.total_micros = request.total_micros;
  // With recomputation offered the derived search follows: it shares the plan.
  Budget budget = make_budget(request.deadline, begin, tuning_beside_recomputing_all(request),
                              answer_instances(request, searched, options));
  if (planned(request.tuning)) budget.whole_plan_seconds = request.tuning.plan_seconds;
  options.deadline = grant_strategy(budget);
  const double reserve = budget.answer_reserve;
  options.threads = resolve_threads(request.threads);
  options.micros_per_window = request.strategy == Strategy::Repetend ? request.micros_per_window : 1;
  if (request.strategy == Strategy::Fast) options.boundary_seconds = request.tuning.fast_boundary_seconds;
  // The solved bounds (exact ends, one-device relaxation) refute makespans
  // with every activation kept: with recomputation or offload offered they
  // bound nothing (and would refute the traded schedules in hand).
  if (offers_memory_choice(searched)) options.ends_seconds = options.relaxation_seconds = 0;
  // Phases on other threads (the period race, the improvements side by
  // side) report too: `progress` gets one line at a time.
  std::mutex progress_mutex;
  options.progress = [&progress, &progress_mutex](const std::string& text) {
    std::lock_guard<std::mutex> lock(progress_mutex);
    progress.line(text);
  };
  Placement placement = searched;
  placement.static_memory.clear();

  SearchReport report;
  report.strategy = request.strategy;
  report.backend = request.backend;
  const TradedStart traded = traded_first(request, options, budget);
  SearchResult result = run_strategy(request, placement, options, budget);
  // The choice inside the repetend decides where the period search did (rounded times under --resolution).
  const std::optional<Placement> rounded = request.resolution > 0 ? std::optional<Placement>(placement) : std::nullopt;
  const SearchedPeriods searched_periods{rounded ? &*rounded : &placement, result.period, result.lower_bound,
                                         request.resolution};
  if (request.resolution > 0) {
    placement = request.placement;
    placement.static_memory.clear();
    result = lift_quantised_result(std::move(result), placement, options.memory_limit, request.resolution);
    report.resolution_note = resolution_error_text(placement, request.resolution, result);
  }
  report.outcome = outcome_of(result, request.deadline);
  report.message = result.message;
  if (result.status == SearchStatus::Timeout && reserve >= 0.1 && !request.deadline.stopped()) {
    SearchNote note{SearchNoteKind::StoppedToVerify};
    note.seconds = reserve;
    report.notes.push_back(note);
  }
  if (result.status != SearchStatus::Infeasible && request.strategy != Strategy::Full)
    report.period = period_report(result, request.strategy, request.placement);
  double per_instance = request.tuning.verify_seconds_per_instance;
  const bool repetend_rejected = !verify_repetend(request, result, report, per_instance);
  if (request.strategy == Strategy::Full) {
    full_makespan(request, placement, result, options, report, progress);
  } else if (result.schedule && request.deadline.stopped()) {
    answer_after_interrupt(request, report);
  } else if (result.schedule && !times_searchable(request.placement)) {
    answer_off_the_search_range(request, report);
  } else if (result.schedule) {
    const std::optional<double> overrun =
        answer_overrun(budget, per_instance, *report.repetend, request.placement, request.total_micros);
    if (overrun) skip_answer_at_total(request, *overrun, report);
    else choose_best(request, placement, result, options, budget, report, progress);
  } else if (result.status != SearchStatus::Infeasible || offers_memory_choice(placement)) {
    // No repetend schedule (rejected, none fits its warmup, or none keeping
    // every activation where recomputation is offered): the other
    // candidates at N still may.
    choose_best(request, placement, result, options, budget, report, progress);
    if (report.best && report.outcome == Outcome::Infeasible) {
      report.outcome = Outcome::Found;
      report.notes.push_back(SearchNote{SearchNoteKind::MemoryTraded});
    }
  }
  if (repetend_rejected && !report.best)
    throw std::logic_error("the verifier REJECTS the repetend schedule (a bug in tessel's search) and no other "
                           "candidate at N is valid: " + report.rejected.front().violation);
  if (traded.schedule) consider_traded_start(request, traded, restored(*traded.schedule, request), report, progress);
  trade_memory_after(request, searched_periods, placement, options, budget, report, progress);
  mark_time_out(request.deadline, report);
  report.calls = std::move(result.calls);
  report.phases = std::move(result.phases);
  report.budget = std::move(budget.log.granted);
  report.seconds = seconds_since(begin);
  return report;
}

}  // namespace tessel
