// The traded answer moved by the shift search (traded_shifts.hpp).
#include "solver/solve/traded_shifts.hpp"

#include <algorithm>
#include <chrono>

#include "model/schedule_json.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_search.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// Less than this is not worth building an encoding for.
constexpr double kLeastSeconds = 0.1;

}  // namespace

void shift_traded_answer(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                         Budget& budget, SearchReport& report, Progress& progress) {
  if (request.strategy == Strategy::Full || !report.makespan || !report.best || request.deadline.expired() ||
      request.tuning.shift_seconds <= 0 || !offers_memory_choice(placement))
    return;
  const Schedule& best = *report.best;
  if ((best.recomputes.empty() && best.transfers.empty()) || !best.fused.empty()) return;
  // Under the plan only what is left of it (the search on 16 devices stays
  // within its seconds: on nnshape 8/8 offering recomputation the derived
  // search spends the plan, and half a second more of shifts there found
  // nothing); with a time limit or a budget set by hand, shift_seconds.
  if (traded_seconds(budget, request.tuning.shift_seconds, 0) < kLeastSeconds) return;
  const Time bound = report.makespan->proven_lower_bound;
  if (report.makespan->makespan <= bound) return;
  const auto begin = std::chrono::steady_clock::now();
  // The solver's view of the answer: static memory off, its limits.
  Schedule centre = best;
  centre.placement = placement;
  centre.memory_limit = options.memory_limit;
  centre.repetend.reset();
  SearchOptions shifting = options;
  shifting.progress = nullptr;
  shifting.deadline = grant_traded(budget, BudgetPhase::Shifts, request.deadline, request.tuning.shift_seconds, 0);
  ShiftStats stats;
  Schedule improved = improve_by_shifts(centre, shifting, bound, &stats);
  if (makespan(improved) >= report.makespan->makespan) return;
  // Back on the user's placement and limits, judged by the verifier.
  improved.placement = best.placement;
  improved.memory_limit = best.memory_limit;
  improved.uniform_limit = best.uniform_limit;
  const verify::Report checked = verify::check_schedule(schedule_to_json(improved));
  Candidate candidate;
  candidate.name = "improve: shifts, memory traded";
  candidate.shape = Shape::Aperiodic;
  candidate.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(checked)});
    return;
  }
  candidate.makespan = checked.makespan;
  candidate.note = "every instance, recompute and copy of the traded answer free within a few steps, each choice "
                   "made again: " + std::to_string(stats.improvements) + " shorter schedules in " +
                   std::to_string(stats.encodings) + " encodings";
  candidate.note_kind = CandidateNote::Text;
  take_as_answer(improved, checked, candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace tessel
