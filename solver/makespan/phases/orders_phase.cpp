// The best's device orders changed one move at a time (improvements/
// order_moves.hpp: a tabu search); listed only when it shortened the best.
// With two threads or more it runs early, on the side thread, beside the
// solver phases that follow the constructions (the solved bounds, the shift
// search, the end transfer keep one core busy and leave the other idle; 16
// ranks: 2-3 s of a default search's 4.5): from a copy of the best, for at
// least its budget and until the portfolio reaches its place in the list.
#include <chrono>

#include "solver/makespan/improvements/order_moves.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

std::optional<BuiltCandidate> order_candidate(const CandidateInput& input, const Schedule& start, Time bound,
                                              const Deadline& deadline, const OnShorter& on_shorter) {
  const auto begin = std::chrono::steady_clock::now();
  if (input.options.progress)
    input.options.progress("device orders: tabu search from the best (" + std::to_string(makespan(start)) + ")");
  OrderMovesStats stats;
  Schedule improved = improve_by_order_moves(start, input.options.memory_limit, deadline, bound, &stats, on_shorter,
                                             input.options.tuning);
  if (makespan(improved) >= makespan(start)) return std::nullopt;
  BuiltCandidate found = aperiodic_candidate("improve: device orders", std::move(improved), begin, "");
  found.summary.note_kind = CandidateNote::OrderMoves;
  found.summary.note_numbers = {makespan(start), stats.improvements, stats.steps, stats.evaluations, stats.restarts};
  return found;
}

Deadline own_deadline(const CandidateInput& input) {
  return input.options.deadline.within_budget(input.options.tuning.order_seconds, input.options.tuning.order_share);
}

}  // namespace

Phase orders_phase() {
  Phase phase;
  phase.name = "improve: device orders";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    return input.options.tuning.order_seconds > 0 && !input.options.deadline.expired() &&
           order_moves_apply(*portfolio.start());
  };
  phase.run = [](Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    const Schedule& start = *portfolio.start();
    const Deadline deadline = portfolio.grant_improvement(BudgetPhase::Orders, input.options.tuning.order_seconds,
                                                         input.options.tuning.order_share);
    std::optional<BuiltCandidate> built = order_candidate(input, start, portfolio.bound(), deadline,
                                                          portfolio.offer_below(makespan(start), "improve: device orders"));
    if (built) portfolio.take(std::move(*built), true);
  };
  // Beside: until stopped (the portfolio's deadline or the side's flag).
  phase.beside = [](const SideCall& call) {
    return order_candidate(*call.input, call.start, call.bound, call.input->options.deadline, {});
  };
  phase.early = true;
  phase.side_seconds = [](const CandidateInput& input) { return own_deadline(input).seconds_left(); };
  phase.side_note = " (beside the solver phases)";
  return phase;
}

}  // namespace tessel
