// The traded answer re-solved in windows (traded_neighbourhoods.hpp): the
// same gate, grant and verdict as its shifts (traded_improvement.hpp).
#include "solver/solve/traded_neighbourhoods.hpp"

#include <algorithm>
#include <string>

#include "solver/makespan/improvements/traded_windows.hpp"
#include "solver/solve/traded_improvement.hpp"

namespace tessel {

namespace {

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
  TradedImprovement windows;
  windows.phase = BudgetPhase::TradedNeighbourhoods;
  windows.seconds = window_seconds(request);
  windows.name = "improve: neighbourhoods, memory traded";
  windows.move = [](const Schedule& centre, const SearchOptions& within, Time bound, std::string& note) {
    TradedWindowStats stats;
    Schedule improved = improve_traded_by_windows(centre, within, bound, &stats);
    note = "windows of the traded answer re-solved, each window's recomputes and copies chosen again, the rest "
           "held: " + std::to_string(stats.improvements) + " shorter schedules in " +
           std::to_string(stats.windows) + " windows";
    return improved;
  };
  improve_traded_answer(request, placement, options, budget, report, progress, windows);
}

}  // namespace tessel
