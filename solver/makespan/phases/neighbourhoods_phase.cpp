// Windows of the candidates re-solved one at a time (improvements/
// neighbourhood.hpp), from the shortest once each is compacted (a longer
// one may hide more slack), the others as restarts; listed only when it
// shortened the best. Given a time limit and `lns_share`, it may use a share
// of what is left: the neighbourhoods keep finding shorter schedules long
// after their default half second (interleaved 1F1B, 4 ranks, N 32: 332 ->
// 331 in 10 s), and they stop at the bound.
#include <chrono>

#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

void run_neighbourhoods(Portfolio& portfolio) {
  const CandidateInput& input = portfolio.input();
  const auto begin = std::chrono::steady_clock::now();
  std::optional<Time> before;
  std::vector<Schedule> starts;
  for (const BuiltCandidate& built : portfolio.so_far().built) {
    if (!built.at_total) continue;
    starts.push_back(*built.at_total);
    starts.back().repetend.reset();
    if (!before || makespan(*built.at_total) < *before) before = makespan(*built.at_total);
  }
  if (starts.empty()) return;
  SearchOptions options = input.options;
  const Tuning& tuning = input.options.tuning;
  options.deadline = portfolio.grant_improvement(BudgetPhase::Neighbourhoods, tuning.lns_seconds, tuning.lns_share);
  NeighbourhoodStats stats;
  // A line as it starts: the heartbeat repeats the last one, which would
  // otherwise still name the shift search's last question.
  if (options.progress)
    options.progress("neighbourhoods: re-solving windows of " + std::to_string(starts.size()) +
                     " candidates, from the shortest (" + std::to_string(*before) + ")");
  Schedule improved = improve_by_neighbourhoods(starts, options, portfolio.bound(), &stats,
                                                portfolio.offer_below(*before, "improve: neighbourhoods"));
  if (improved.instances.empty() || makespan(improved) >= *before) return;
  BuiltCandidate built = aperiodic_candidate("improve: neighbourhoods", std::move(improved), begin, "");
  built.summary.note_kind = CandidateNote::WindowsResolved;
  built.summary.note_numbers = {stats.improvements, stats.moves,  stats.windows,
                                stats.timeouts,     stats.rounds, stats.restarts};
  portfolio.take(std::move(built), true);
}

}  // namespace

Phase neighbourhoods_phase() {
  Phase phase;
  phase.name = "improve: neighbourhoods";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    return portfolio.input().options.tuning.lns_seconds > 0 && !portfolio.input().options.deadline.expired();
  };
  phase.run = run_neighbourhoods;
  return phase;
}

}  // namespace tessel
