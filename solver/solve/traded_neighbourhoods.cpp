// The traded answer re-solved in windows (traded_neighbourhoods.hpp): the
// same gate, budget and verification as its shifts (traded_shifts.cpp).
#include "solver/solve/traded_neighbourhoods.hpp"

#include <algorithm>
#include <chrono>

#include "model/schedule_json.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/improvements/traded_windows.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_search.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// Less than this is not worth building an encoding for.
constexpr double kLeastSeconds = 0.1;

// The phase's own seconds (see the header) before the plan cuts them.
double window_seconds(const SearchRequest& request) {
  double seconds = request.tuning.lns_seconds;
  if (!request.deadline.unlimited())
    seconds = std::max(seconds, request.tuning.lns_share * request.deadline.seconds_left());
  return seconds;
}

}  // namespace

void improve_traded_answer_by_windows(const SearchRequest& request, const Placement& placement,
                                      const SearchOptions& options, Budget& budget, SearchReport& report,
                                      Progress& progress) {
  if (request.strategy == Strategy::Full || !report.makespan || !report.best || request.deadline.expired() ||
      !offers_memory_choice(placement))
    return;
  const Schedule& best = *report.best;
  if ((best.recomputes.empty() && best.transfers.empty()) || !best.fused.empty()) return;
  // Under the plan only what is left of the whole plan (grant_traded): the
  // default search on 16 devices stays within its seconds.
  const double seconds = window_seconds(request);
  const Time bound = report.makespan->proven_lower_bound;
  if (traded_seconds(budget, seconds, 0) < kLeastSeconds || report.makespan->makespan <= bound) return;
  const auto begin = std::chrono::steady_clock::now();
  // The solver's view of the answer: static memory off, its limits.
  Schedule centre = best;
  centre.placement = placement;
  centre.memory_limit = options.memory_limit;
  centre.repetend.reset();
  SearchOptions windows = options;
  windows.progress = nullptr;
  windows.deadline = grant_traded(budget, BudgetPhase::TradedNeighbourhoods, request.deadline, seconds, 0);
  TradedWindowStats stats;
  Schedule improved = improve_traded_by_windows(centre, windows, bound, &stats);
  if (makespan(improved) >= report.makespan->makespan) return;
  // Back on the user's placement and limits, judged by the verifier.
  improved.placement = best.placement;
  improved.memory_limit = best.memory_limit;
  improved.uniform_limit = best.uniform_limit;
  const verify::Report checked = verify::check_schedule(schedule_to_json(improved));
  Candidate candidate;
  candidate.name = "improve: neighbourhoods, memory traded";
  candidate.shape = Shape::Aperiodic;
  candidate.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(checked)});
    return;
  }
  candidate.makespan = checked.makespan;
  candidate.note = "windows of the traded answer re-solved, each window's recomputes and copies chosen again, the "
                   "rest held: " + std::to_string(stats.improvements) + " shorter schedules in " +
                   std::to_string(stats.windows) + " windows";
  candidate.note_kind = CandidateNote::Text;
  take_as_answer(improved, checked, candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace tessel
