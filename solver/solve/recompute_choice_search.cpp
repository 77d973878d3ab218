// The period decided with recomputation chosen, inside the search
// (recompute_choice_search.hpp).
#include "solver/solve/recompute_choice_search.hpp"

#include <algorithm>
#include <chrono>

#include "model/schedule_json.hpp"
#include "solver/knobs/encoding_budget.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/solve/recompute_search.hpp"
#include "solver/solve/resolution.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// The answer's repetend unrolled at N with its recomputes and copies: a candidate,
// taken when shorter than the answer in hand.
void offer_at_total(const SearchRequest& request, const RecomputeChoicePlacement& choice,
                    const RecomputeChoiceAnswer& answer, double seconds, SearchReport& report, Progress& progress) {
  Candidate candidate;
  const bool offloads = std::find(answer.offloaded.begin(), answer.offloaded.end(), true) != answer.offloaded.end();
  const bool recomputes = std::find(answer.chosen.begin(), answer.chosen.end(), true) != answer.chosen.end();
  candidate.name = std::string("repetend, ") +
                   (offloads ? (recomputes ? "recompute and offload chosen" : "offload chosen") : "recompute chosen") +
                   " (period " + std::to_string(*answer.period) + ")";
  candidate.shape = Shape::Aperiodic;
  candidate.seconds = seconds;
  Schedule schedule =
      unrolled_choosing_recompute(choice, answer, request.placement, request.memory_limit, request.total_micros);
  verify::Report checked = verify::check_schedule(schedule_to_json(schedule));
  // Compacted it is usually shorter; the verifier decides whether it still fits.
  Schedule tight =
      compacted_choosing_recompute(choice, answer, request.placement, request.memory_limit, request.total_micros);
  verify::Report tight_checked = verify::check_schedule(schedule_to_json(tight));
  const bool compacted =
      tight_checked.valid && (!checked.valid || makespan_in_placement_ticks(tight_checked, tight.placement) <
                                                    makespan_in_placement_ticks(checked, schedule.placement));
  if (compacted) schedule = std::move(tight), checked = tight_checked;
  if (!checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(checked)});
    return;
  }
  candidate.makespan = makespan_in_placement_ticks(checked, schedule.placement);
  candidate.note_kind = CandidateNote::RecomputeChosen;
  candidate.note_numbers = {static_cast<long long>(std::count(answer.chosen.begin(), answer.chosen.end(), true)),
                            static_cast<long long>(choice.optional.size()), choice.micros_per_window, compacted ? 1 : 0,
                            static_cast<long long>(std::count(answer.offloaded.begin(), answer.offloaded.end(), true)),
                            static_cast<long long>(choice.offloads.size())};
  if (*candidate.makespan < report.makespan->makespan) take_as_answer(schedule, checked, candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace

namespace {

// The answer on the rounded times read back on the real ones (starts,
// period and latency times the resolution): valid there whenever it is on
// the rounded times, as the period search's repetend is (resolution.hpp).
RecomputeChoiceAnswer on_real_times(RecomputeChoiceAnswer answer, Time resolution) {
  for (int& start : answer.starts) start = static_cast<int>(start * resolution);
  if (answer.period) *answer.period *= resolution;
  answer.latency *= resolution;
  return answer;
}

// The question asked of the searched periods' placement: the periods from
// its L up to one below the period it found.
RecomputeChoiceQuestion choice_question(const SearchedPeriods& searched, const SearchOptions& options, int k) {
  RecomputeChoiceQuestion question;
  question.placement = searched.placement;
  question.micros_per_window = k;
  question.memory_limit.assign(options.memory_limit.begin(), options.memory_limit.end());
  question.backend = options.backend;
  question.periods = {static_cast<int>(searched.lower_bound), static_cast<int>(searched.period) - 1};
  question.max_in_flight = options.in_flight.value_or(static_cast<int>(searched.placement->blocks.size()));
  return question;
}

}  // namespace

double consider_choosing_recompute(const SearchRequest& request, const SearchedPeriods& searched,
                                   const SearchOptions& options, Budget& budget, SearchReport& report,
                                   Progress& progress) {
  // Where choice_follows (recompute_search.hpp) said no by the size of its
  // cheapest encoding, the size of this one says so again, in the report.
  if (request.strategy == Strategy::Full || request.tuning.recompute_choice_seconds <= 0 || !report.period ||
      !searched.placement || request.deadline.expired())
    return 0;
  const auto begin = std::chrono::steady_clock::now();
  PeriodReport& period = *report.period;
  const int k = period.micros_per_window;
  const RecomputeChoiceQuestion question = choice_question(searched, options, k);
  if (question.periods.last < question.periods.first) return 0;  // the period is the load already
  // Offers on forwards holding nothing leave nothing to choose.
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(*searched.placement, k);
  if (!choice) return 0;
  // The encoding watches its deadline only between its parts, and its
  // memory bounds grow with the square of a device's terms (fast on 64
  // devices: 4.4 s to build). Its build, estimated at
  // encoding_terms_per_second, may take at most the choice's own seconds
  // and is granted on top of them, so that the solver keeps its seconds
  // (fast on 32 devices: 0.6 s to build); larger, it is not begun.
  const double terms = choice_encoding_terms(*choice, question);
  const double build_seconds = terms / request.tuning.encoding_terms_per_second;
  const double seconds = request.tuning.recompute_choice_seconds;
  if (build_seconds > seconds) {
    period.recompute_skipped_terms = static_cast<long long>(terms);
    return 0;
  }
  // Under the plan within what is left of the whole plan, at least the
  // traded phases' floor and its build (solve/budget.hpp grant_traded).
  const Deadline deadline = grant_traded(budget, BudgetPhase::RecomputeChoice, request.deadline,
                                         seconds + build_seconds,
                                         request.tuning.traded_least_seconds + build_seconds);
  if (!affords_encoding(request.tuning.encoding_terms_per_second, terms, deadline)) {  // a time limit near
    period.recompute_skipped_terms = static_cast<long long>(terms);
    return 0;
  }
  RecomputeChoiceAnswer answer = decide_periods_choosing_recompute(question, deadline);
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const double beyond_share = std::min(build_seconds, std::max(0.0, spent - seconds));
  // Under --resolution its periods are the rounded times': read back on the real ones.
  Placement real = request.placement;
  real.static_memory.clear();
  const Time resolution = std::max<Time>(1, searched.resolution);
  const Time proven = searched.resolution > 0
                          ? real_period_bound(real, resolution, answer.proven_lower_bound, k, true)
                          : answer.proven_lower_bound;
  period.proven_lower_bound = std::max(period.proven_lower_bound, proven);
  period.recompute_decided = answer.decided;
  period.recompute_offers = static_cast<int>(choice->optional.size()) / k;
  period.offload_offers = static_cast<int>(choice->offloads.size()) / k;
  if (period.recompute_decided && !answer.period) period.optimal = period.period == period.proven_lower_bound;
  if (!answer.period) return beyond_share;
  period.optimal = false;  // a shorter period recomputes or offloads
  period.recompute_chosen = chosen_recomputes(*choice, answer);
  period.offload_chosen = chosen_offloads(*choice, answer);
  period.recompute_period = *answer.period * resolution;
  if (!report.makespan || !report.best) return beyond_share;
  answer = on_real_times(std::move(answer), resolution);
  if (searched.resolution > 0) {
    // The same blocks on the real times: its unrolled schedule is the
    // rounded one's read back, its compaction is done on the real spans.
    const std::optional<RecomputeChoicePlacement> on_real = recompute_choice_placement(real, k);
    if (on_real) offer_at_total(request, *on_real, answer, spent, report, progress);
    return beyond_share;
  }
  offer_at_total(request, *choice, answer, spent, report, progress);
  return beyond_share;
}

}  // namespace tessel
