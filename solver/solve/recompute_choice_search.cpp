// The period decided with recomputation chosen, inside the search
// (recompute_choice_search.hpp).
#include "solver/solve/recompute_choice_search.hpp"

#include <algorithm>
#include <chrono>

#include "model/schedule_json.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/solve/recompute_search.hpp"
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
  const bool compacted = tight_checked.valid && (!checked.valid || tight_checked.makespan < checked.makespan);
  if (compacted) schedule = std::move(tight), checked = tight_checked;
  if (!checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(checked)});
    return;
  }
  candidate.makespan = checked.makespan;
  candidate.note_kind = CandidateNote::RecomputeChosen;
  candidate.note_numbers = {static_cast<long long>(std::count(answer.chosen.begin(), answer.chosen.end(), true)),
                            static_cast<long long>(choice.optional.size()), choice.micros_per_window, compacted ? 1 : 0,
                            static_cast<long long>(std::count(answer.offloaded.begin(), answer.offloaded.end(), true)),
                            static_cast<long long>(choice.offloads.size())};
  if (checked.makespan < report.makespan->makespan) take_as_answer(schedule, checked, candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace

void consider_choosing_recompute(const SearchRequest& request, const Placement& placement,
                                 const SearchOptions& options, Budget& budget, SearchReport& report,
                                 Progress& progress) {
  if (!choice_follows(request) || !report.period || request.deadline.expired()) return;
  const auto begin = std::chrono::steady_clock::now();
  PeriodReport& period = *report.period;
  RecomputeChoiceQuestion question;
  question.placement = &placement;
  question.micros_per_window = period.micros_per_window;
  question.memory_limit.assign(options.memory_limit.begin(), options.memory_limit.end());
  question.backend = options.backend;
  question.periods = {static_cast<int>(period.lower_bound), static_cast<int>(period.period) - 1};
  question.max_in_flight = options.in_flight.value_or(static_cast<int>(placement.blocks.size()));
  if (question.periods.last < question.periods.first) return;  // the period is the load already
  // Offers on forwards holding nothing leave nothing to choose.
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement, period.micros_per_window);
  if (!choice) return;
  const RecomputeChoiceAnswer answer =
      decide_periods_choosing_recompute(question, grant_traded(budget, BudgetPhase::RecomputeChoice, request.deadline,
                                                               request.tuning.recompute_choice_seconds,
                                                               request.tuning.traded_least_seconds));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  period.proven_lower_bound = std::max(period.proven_lower_bound, answer.proven_lower_bound);
  period.recompute_decided = answer.decided;
  period.recompute_offers = static_cast<int>(choice->optional.size()) / period.micros_per_window;
  period.offload_offers = static_cast<int>(choice->offloads.size()) / period.micros_per_window;
  if (period.recompute_decided && !answer.period) period.optimal = period.period == period.proven_lower_bound;
  if (!answer.period) return;
  period.optimal = false;  // a shorter period recomputes or offloads
  period.recompute_period = answer.period;
  period.recompute_chosen = chosen_recomputes(*choice, answer);
  period.offload_chosen = chosen_offloads(*choice, answer);
  if (report.makespan && report.best) offer_at_total(request, *choice, answer, seconds, report, progress);
}

}  // namespace tessel
