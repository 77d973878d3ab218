// Every instance of the best moved a little at once (improvements/
// shift_search.hpp); listed only when it shortened the best.
#include <chrono>

#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

// The shift search's centre: the improvements' start, or on a placement
// offering recomputation or offload the shortest candidate without fused
// units when that one recomputes or copies (the encoding chooses again
// around it, keeping, dropping or moving its recomputes and copies).
const Schedule& shift_centre(const Portfolio& portfolio) {
  const Schedule* centre = portfolio.start();
  if (!offers_memory_choice(centre->placement)) return *centre;
  for (const BuiltCandidate& built : portfolio.so_far().built)
    if (built.at_total && built.at_total->fused.empty() && makespan(*built.at_total) < makespan(*centre))
      centre = &*built.at_total;
  return *centre;
}

void run_shifts(Portfolio& portfolio) {
  const CandidateInput& input = portfolio.input();
  const Schedule start = shift_centre(portfolio);
  const auto begin = std::chrono::steady_clock::now();
  SearchOptions options = input.options;
  const Tuning& tuning = input.options.tuning;
  // No stall: one question (with its encoding) takes longer than a stretch,
  // and the hand-made ties gain on a late one (V-Min, 4 stages, N 16,
  // F=3 B=2 W=1: 261 with a stall of 0.25 s, 260 without); a question out
  // of its share halves the shift instead (shift_search.hpp).
  options.deadline =
      portfolio.grant_improvement(BudgetPhase::Shifts, tuning.shift_seconds, tuning.shift_share, false);
  ShiftStats stats;
  Schedule improved = improve_by_shifts(start, options, portfolio.bound(), &stats,
                                        portfolio.offer_below(makespan(start), "improve: shifts"));
  if (makespan(improved) >= makespan(start)) return;
  const std::vector<long long> numbers = {makespan(start), stats.largest_shift, stats.improvements, stats.encodings,
                                          stats.questions_out_of_time};
  // A schedule that recomputes or copies is listed, not made the start: the
  // phases after this one move instances only.
  const bool traded = !improved.recomputes.empty() || !improved.transfers.empty();
  BuiltCandidate built = aperiodic_candidate("improve: shifts", std::move(improved), begin, "");
  built.summary.note_kind = CandidateNote::ShiftsFound;
  built.summary.note_numbers = numbers;
  if (traded) portfolio.add(std::move(built));
  else portfolio.take(std::move(built), true);
}

}  // namespace

Phase shift_phase() {
  Phase phase;
  phase.name = "improve: shifts";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    return portfolio.input().options.tuning.shift_seconds > 0 && !portfolio.input().options.deadline.expired();
  };
  phase.run = run_shifts;
  return phase;
}

}  // namespace tessel
