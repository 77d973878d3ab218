// One improvement of the traded answer: the gate, the grant, the verdict
// (traded_improvement.hpp).
#include "solver/solve/traded_improvement.hpp"

#include <chrono>

#include "model/schedule_json.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/solve/budget.hpp"
#include "solver/solve/recompute_search.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// Less than this is not worth building an encoding for.
constexpr double kLeastSeconds = 0.1;

bool worth_improving(const SearchRequest& request, const Placement& placement, const Budget& budget,
                     const SearchReport& report, double seconds) {
  if (request.strategy == Strategy::Full || !report.makespan || !report.best || request.deadline.expired() ||
      !offers_memory_choice(placement))
    return false;
  const Schedule& best = *report.best;
  if ((best.recomputes.empty() && best.transfers.empty()) || !best.fused.empty()) return false;
  if (report.makespan->makespan <= report.makespan->proven_lower_bound) return false;
  return traded_seconds(budget, seconds, 0) >= kLeastSeconds;
}

}  // namespace

void improve_traded_answer(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                           Budget& budget, SearchReport& report, Progress& progress,
                           const TradedImprovement& improvement) {
  if (!worth_improving(request, placement, budget, report, improvement.seconds)) return;
  const Schedule& best = *report.best;
  const auto begin = std::chrono::steady_clock::now();
  Schedule centre = best;
  centre.placement = placement;
  centre.memory_limit = options.memory_limit;
  centre.repetend.reset();
  SearchOptions within = options;
  within.progress = nullptr;
  within.deadline = grant_traded(budget, improvement.phase, request.deadline, improvement.seconds, 0);
  std::string note;
  Schedule improved = improvement.move(centre, within, report.makespan->proven_lower_bound, note);
  if (makespan(improved) >= report.makespan->makespan) return;
  improved.placement = best.placement;
  improved.memory_limit = best.memory_limit;
  improved.uniform_limit = best.uniform_limit;
  const verify::Report checked = verify::check_schedule(schedule_to_json(improved));
  Candidate candidate;
  candidate.name = improvement.name;
  candidate.shape = Shape::Aperiodic;
  candidate.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!checked.valid) {
    report.rejected.push_back({candidate.name, first_violation_text(checked)});
    return;
  }
  candidate.makespan = makespan_in_placement_ticks(checked, improved.placement);
  candidate.note = note;
  candidate.note_kind = CandidateNote::Text;
  take_as_answer(improved, checked, candidate.name, report, progress);
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace tessel
