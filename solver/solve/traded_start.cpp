// The memory-trading list schedules built before the period search, and
// the answer they give when the search's is longer (traded_start.hpp).
#include "solver/solve/traded_start.hpp"

#include <chrono>
#include <stdexcept>

#include "model/schedule_json.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_search.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "verify/verify.hpp"

namespace tessel {

TradedStart traded_start(const Placement& placement, const std::vector<Memory>& limits, int total_micros,
                         const Deadline& from, Budget& budget) {
  TradedStart start;
  if (!offers_memory_choice(placement) || from.expired()) return start;
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline = grant_phase(budget, BudgetPhase::TradedStart, from, budget.tuning.full_list_seconds,
                                        budget.tuning.full_list_share);
  std::optional<TradingBest> best = best_trading_schedule(placement, limits, total_micros, deadline);
  start.seconds = seconds_since(begin);
  if (!best) return start;
  start.name = std::string("list, memory traded before the period search: ") +
               (best->run.backward_first ? "1f1b" : "zb") + " rule, cap " + std::to_string(best->run.cap) +
               ", pressure " + std::to_string(static_cast<int>(best->run.pressure * 100)) + "%";
  start.note = choices_summary(best->schedule) + " (best of " + std::to_string(best->runs) + " runs)";
  start.schedule = std::move(best->schedule);
  return start;
}

namespace {

// The report of a search that has no answer at N yet: the bound without
// memory, the only one that holds where memory is traded.
MakespanReport bare_report(const SearchRequest& request) {
  MakespanReport at;
  at.total_micros = request.total_micros;
  at.bound = makespan_bound(request.placement, request.total_micros);
  at.proven_lower_bound = at.bound.value;
  at.gap.cause = GapCause::NotTight;
  at.gap.total_micros = request.total_micros;
  at.gap.bound = at.bound.value;
  at.gap.proven_lower_bound = at.bound.value;
  return at;
}

// The notes that said the answer is the repetend schedule, not built at N.
void drop_repetend_answer_notes(SearchReport& report) {
  std::vector<SearchNote> kept;
  for (const SearchNote& note : report.notes)
    if (note.kind != SearchNoteKind::AnswerNearLimit && note.kind != SearchNoteKind::AnswerBeyondRange)
      kept.push_back(note);
  report.notes = std::move(kept);
}

}  // namespace

void consider_traded_start(const SearchRequest& request, const TradedStart& start, std::optional<Schedule> restored,
                           SearchReport& report, Progress& progress) {
  // An interrupt asks for the best schedule now, not for one more verified.
  if (!restored || request.deadline.stopped()) return;
  // The makespan phases built the same schedules when they ran: only a
  // shorter one, or the only one at N, is news.
  // (A report without a makespan at N answered the repetend schedule.)
  const bool at_n = report.makespan && report.best;
  if (at_n && report.makespan->makespan <= makespan(*restored)) return;
  const verify::Report checked = verify::check_schedule(schedule_to_json(*restored));
  if (!checked.valid) {
    const std::string violation = first_violation_text(checked);
    if (strict_candidates())
      throw std::logic_error("the verifier REJECTS the " + start.name + " (a bug in tessel's search): " + violation);
    report.rejected.push_back({start.name, violation});
    return;
  }
  if (!at_n) {
    drop_repetend_answer_notes(report);
    if (!report.makespan) report.makespan = bare_report(request);
  }
  take_as_answer(*restored, checked, start.name, report, progress);
  Candidate candidate;
  candidate.name = start.name;
  candidate.makespan = makespan_in_placement_ticks(checked, restored->placement);
  candidate.note = start.note;
  candidate.seconds = start.seconds;
  report.makespan->candidates.push_back(std::move(candidate));
  if (report.outcome == Outcome::Infeasible) {
    report.outcome = Outcome::Found;
    report.notes.push_back(SearchNote{SearchNoteKind::MemoryTraded});
  }
}

}  // namespace tessel
