// Recompute every offered forward, searched by solve() itself
// (recompute_search.hpp).
#include "solver/solve/recompute_search.hpp"

#include <algorithm>
#include <chrono>

#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/recompute_all.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/solve/resolution.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// The nested search's answer at N micro-batches, mapped back; nullopt with
// `why` set when there is none.
// The derived search runs under limits lowered by what a running forward
// holds beyond its checkpoint (recompute_all.hpp): stricter than the real
// ones, so what it refutes is refuted there only.
const std::string kUnderLoweredLimits =
    "under the limits lowered by what a running forward holds beyond its checkpoint (stricter than the real "
    "ones, so nothing is proven impossible under those): ";

std::optional<Schedule> answer_at_total(const SearchRequest& request, const RecomputedPlacement& derived,
                                        const SearchReport& nested, std::string& why) {
  if (!nested.best) {
    // What the nested search proved holds under its lowered limits only.
    why = kUnderLoweredLimits + (nested.message.empty() ? std::string("no schedule") : nested.message);
    return std::nullopt;
  }
  Schedule best = *nested.best;
  if (best.nmicros != request.total_micros) best = unroll(best, request.total_micros);
  best.repetend.reset();
  std::optional<Schedule> mapped = schedule_with_recomputes(best, derived, request.placement, request.memory_limit);
  if (!mapped) why = "its answer uses fused units, which do not map back";
  return mapped;
}


}  // namespace

namespace {

// The derived search, its answer mapped back and judged.
struct DerivedAnswer {
  Candidate candidate;
  std::optional<Schedule> schedule;  // valid, with the choices marked
  verify::Report checked;
};

// `seconds`: what the derived search was granted; under the plan its phases
// plan for that, and `deadline` (the hard stop) is the answer's grace later.
DerivedAnswer search_recomputing_all(const SearchRequest& request, const RecomputedPlacement& derived,
                                     const Deadline& deadline, double seconds, SearchReport& report,
                                     NestedSolve solve) {
  const auto begin = std::chrono::steady_clock::now();
  SearchRequest sub = request;
  sub.placement = derived.placement;
  // Under the plan its phases end a floor (traded_least_seconds) before
  // `seconds`, at least that floor after its period search, leaving its
  // answer at N the rest and the grace before the hard stop: with `seconds`
  // as a time limit the nested search may skip building its answer at N
  // (too close to the limit) and hand back its repetend unrolled (nnshape
  // 8/8: 1200, not the 1186 of its answer at N). Its repetend's refinements,
  // which no plan bounds (latency, wider windows, warmup and cooldown), get
  // at most a quarter of `seconds` each: its period is usually decided at
  // once, and those took a second of the default search's second there.
  sub.deadline = deadline;
  if (planned(request.tuning)) {
    const double least = request.tuning.traded_least_seconds;
    sub.tuning.plan_seconds = std::max(least, seconds - least);
    sub.tuning.least_plan_seconds = std::min(sub.tuning.least_plan_seconds, least);
    for (double Tuning::*refinement : {&Tuning::latency_min_seconds, &Tuning::window_seconds, &Tuning::boundary_seconds})
      sub.tuning.*refinement = std::min(sub.tuning.*refinement, seconds / 4);
  }
  for (size_t d = 0; d < sub.memory_limit.size(); ++d) sub.memory_limit[d] -= derived.limit_cut[d];
  DerivedAnswer answer;
  Candidate& candidate = answer.candidate;
  candidate.name = "recompute every offered forward";
  candidate.shape = Shape::Aperiodic;
  std::optional<Schedule> mapped;
  try {
    Progress quiet;
    const SearchReport nested = solve(sub, quiet);
    mapped = answer_at_total(request, derived, nested, candidate.note);
    if (nested.makespan) candidate.name += " (" + nested.makespan->construction + ")";
  } catch (const InputError& error) {
    candidate.note = kUnderLoweredLimits + error.reason;  // e.g. one micro-batch no longer fits the lowered limit
  }
  candidate.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!mapped) return answer;
  answer.checked = verify::check_schedule(schedule_to_json(*mapped));
  if (!answer.checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(answer.checked)});
    return answer;
  }
  candidate.makespan = makespan_in_placement_ticks(answer.checked, mapped->placement);
  candidate.note = choices_summary(*mapped) + "; searched as a placement of its own under the limit lowered by "
                   "what a running forward holds beyond its checkpoint";
  answer.schedule = std::move(mapped);
  return answer;
}

}  // namespace

namespace {

bool offers_recompute(const Placement& placement) {
  for (const Block& block : placement.blocks)
    if (block.recompute) return true;
  return false;
}

}  // namespace

namespace {

// Whether even the choice's cheapest question, the load L alone in windows
// of one, is estimated to build within recompute_choice_seconds at
// encoding_terms_per_second (consider_choosing_recompute says why); on the
// rounded times under --resolution, as the choice decides there.
bool choice_affordable(const SearchRequest& request) {
  std::optional<Placement> rounded;
  if (request.resolution > 0) rounded = quantise_times(request.placement, request.resolution);
  const Placement& searched = rounded ? *rounded : request.placement;
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(searched);
  if (!choice) return false;  // offers only on forwards holding nothing
  RecomputeChoiceQuestion question;
  question.placement = &searched;
  const int load = static_cast<int>(std::max<Time>(1, period_lower_bound(searched)));
  question.periods = {load, load};
  question.max_in_flight = request.in_flight.value_or(static_cast<int>(searched.blocks.size()));
  return choice_encoding_terms(*choice, question) <=
         request.tuning.encoding_terms_per_second * request.tuning.recompute_choice_seconds;
}

}  // namespace

bool choice_follows(const SearchRequest& request) {
  return request.strategy != Strategy::Full && request.tuning.recompute_choice_seconds > 0 &&
         offers_memory_choice(request.placement) && choice_affordable(request);
}

Tuning tuning_beside_recomputing_all(const SearchRequest& request) {
  Tuning tuning = request.tuning;
  if (request.strategy == Strategy::Full || !planned(tuning)) return tuning;
  double shared = 0;
  if (tuning.recompute_all_seconds > 0 && offers_recompute(request.placement)) {
    shared = tuning.recompute_all_seconds;
    // Fast's own phases are short, and the choice before the derived search
    // took its time (mllm 16/16 offering recomputation: its list schedule
    // 1212 became 1226 with the choice's 0.6 s gone): both shared.
    if (request.strategy == Strategy::Fast && choice_follows(request)) shared += tuning.recompute_choice_seconds;
  } else if (choice_follows(request)) {
    shared = tuning.recompute_choice_seconds;  // offload only: the choice inside the repetend follows alone
  }
  if (shared <= 0) return tuning;
  // The phases keeping every activation are one candidate of three here
  // (beside the choice and the derived search, which end with the whole
  // plan: solve/budget.hpp grant_traded), so their floor after a slow
  // period search is the traded phases' floor, not a second of its own
  // (nnshape 16/16 offering recomputation: the staged schedule used that
  // second for 1354 against the choice's 1223, and the search took 5.4 s).
  tuning.least_plan_seconds = std::min(tuning.least_plan_seconds, tuning.traded_least_seconds);
  tuning.plan_seconds = std::max(tuning.least_plan_seconds, tuning.plan_seconds - shared);
  return tuning;
}

void consider_recomputing_all(const SearchRequest& request, Budget& budget, SearchReport& report, Progress& progress,
                              NestedSolve solve) {
  // The derived search's own budget (--tune recompute_all_seconds): its
  // period is usually decided fast (no memory binds once every forward
  // recomputes), and the default search on 16 devices should not take twice
  // as long because forwards offer recomputation (nnshape 16/16: the 1227
  // of its derived search within 0.5 s). Under the plan it ends when the
  // plan does (grant_traded), its answer at N within the answer's grace.
  if (request.strategy == Strategy::Full || !report.makespan || !report.best || request.deadline.expired() ||
      request.tuning.recompute_all_seconds <= 0 || report.makespan->makespan <= report.makespan->proven_lower_bound)
    return;
  const std::optional<RecomputedPlacement> derived = recompute_every_offer(request.placement);
  if (!derived) return;
  const Deadline granted = grant_traded(budget, BudgetPhase::RecomputeAll, request.deadline,
                                        request.tuning.recompute_all_seconds, request.tuning.traded_least_seconds);
  const double seconds = granted.seconds_left();
  if (seconds <= 0) return;
  const Deadline deadline =
      planned(request.tuning) ? request.deadline.within(seconds + request.tuning.answer_grace_seconds) : granted;
  DerivedAnswer answer = search_recomputing_all(request, *derived, deadline, seconds, report, solve);
  if (answer.schedule &&
      makespan_in_placement_ticks(answer.checked, answer.schedule->placement) < report.makespan->makespan)
    take_as_answer(*answer.schedule, answer.checked, answer.candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(answer.candidate));
}

namespace {

// A block whose own memory (with its device's static memory) passes the
// limit cannot run under any choice: recomputing runs it again, offloading
// copies it out only after it ran. The proof that stays when offers exist.
std::optional<SearchNote> block_above_limit(const SearchRequest& request) {
  const Placement& placement = request.placement;
  for (const Block& block : placement.blocks)
    for (int device : block.devices) {
      const Memory needed = static_memory_of(placement, device) + std::max<Memory>(block.memory, 0);
      if (needed > request.memory_limit[device]) {
        SearchNote note{SearchNoteKind::BlockAboveLimit};
        note.block = block.id;
        note.device = device;
        return note;
      }
    }
  return std::nullopt;
}

}  // namespace

void answer_infeasible_by_recomputing(const SearchRequest& request, Budget& budget, SearchReport& report,
                                      Progress& progress, NestedSolve solve) {
  if (report.outcome != Outcome::Infeasible || !offers_memory_choice(request.placement)) return;
  if (std::optional<SearchNote> alone = block_above_limit(request)) {
    report.notes.push_back(*alone);
    return;
  }
  const std::optional<RecomputedPlacement> derived = recompute_every_offer(request.placement);
  DerivedAnswer answer;
  if (derived && !request.deadline.expired()) {
    const double seconds = std::max(request.tuning.recompute_all_seconds, request.tuning.recompute_all_least_seconds);
    const Deadline deadline = grant_phase(budget, BudgetPhase::RecomputeAll, request.deadline, seconds);
    answer = search_recomputing_all(request, *derived, deadline, seconds, report, solve);
  }
  if (!answer.schedule) {
    // Not proven: schedules mixing keep, recompute and offload per
    // micro-batch are not searched, so "no schedule exists" would be a guess.
    report.outcome = Outcome::Timeout;
    SearchNote note{SearchNoteKind::RecomputingFoundNone};
    note.candidate = answer.candidate;
    report.notes.push_back(note);
    return;
  }
  MakespanReport at;
  at.total_micros = request.total_micros;
  at.bound = makespan_bound(request.placement, request.total_micros);
  at.proven_lower_bound = at.bound.value;
  report.makespan = at;
  take_as_answer(*answer.schedule, answer.checked, answer.candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(answer.candidate));
  report.outcome = Outcome::Found;
  report.notes.push_back(SearchNote{SearchNoteKind::RecomputingAnswers});
}

std::string first_violation_text(const verify::Report& checked) {
  if (checked.violations.empty()) return "invalid";
  return checked.violations.front().kind + ": " + checked.violations.front().message;
}

void take_as_answer(const Schedule& schedule, const verify::Report& checked, const std::string& name,
                    SearchReport& report, Progress& progress) {
  MakespanReport& at = *report.makespan;
  at.makespan = makespan_in_placement_ticks(checked, schedule.placement);
  at.shape = Shape::Aperiodic;
  at.construction = name;
  at.bubble_ratio = checked.bubble_ratio;
  at.peak_memory = peak_in_placement_ticks(checked, schedule.placement);
  at.proven_optimal = at.makespan == at.proven_lower_bound;
  // The gap's account follows the new answer: none within 1% of the bound,
  // else the candidate that won is what stays above it.
  at.gap.makespan = at.makespan;
  if (at.makespan * 100 <= at.bound.value * 101) {
    at.gap.cause = GapCause::None;
    at.gap.boundary = BoundaryCause::None;
  } else if (at.gap.cause == GapCause::NotTight) {
    at.gap.construction = name;
  }
  report.best = schedule;
  progress.improved(schedule, Shape::Aperiodic, at.makespan);
}

}  // namespace tessel
