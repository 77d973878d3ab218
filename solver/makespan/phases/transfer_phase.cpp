// The ends of a schedule of transfer_micros (a developer knob, 16) shortened there and moved into
// the best at N (improvements/end_transfer.hpp): list schedules and
// replays at that N, the shift search from the best of them (most of the
// budget), then the splice. Listed only when it shortened the best.
#include <algorithm>
#include <chrono>

#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/improvements/end_transfer.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

// The smaller N: the developer knob transfer_micros (solver/knobs/tuning.hpp).
int transfer_micros(const CandidateInput& input) { return static_cast<int>(input.options.tuning.transfer_micros); }

// The constructions at the smaller N, judged; the shortest plain one kept
// in `kept` (rejected ones reported to the portfolio).
const Schedule* smaller_start(Portfolio& portfolio, const CandidateInput& small, std::vector<BuiltCandidate>& kept) {
  std::vector<RejectedCandidate> rejected;
  for (auto build : {list_candidate, replay_candidate}) {
    std::optional<BuiltCandidate> built = build(small);
    if (!built) continue;
    admitted(small, *built, rejected);
    kept.push_back(std::move(*built));
  }
  for (RejectedCandidate& bad : rejected)
    portfolio.reject({bad.phase + " (ends of N " + std::to_string(small.total_micros) + ")", std::move(bad.violation)});
  return best_plain(kept);
}

// The problem at the smaller N within the phase's grant `deadline`.
CandidateInput smaller_input(const CandidateInput& input, const Deadline& deadline) {
  CandidateInput small = input;
  small.total_micros = transfer_micros(input);
  small.options.deadline = deadline;
  small.options.total_micros = small.total_micros;
  small.options.progress = nullptr;
  small.options.tuning.list_seconds = std::min(input.options.tuning.list_seconds, deadline.granted_seconds_left() / 4);
  small.offer = nullptr;
  small.budget_log = nullptr;
  return small;
}

void run_transfer(Portfolio& portfolio) {
  const CandidateInput& input = portfolio.input();
  const Schedule& start = *portfolio.start();
  const auto begin = std::chrono::steady_clock::now();
  const Tuning& tuning = input.options.tuning;
  const CandidateInput small = smaller_input(
      input, portfolio.grant_improvement(BudgetPhase::Transfer, tuning.transfer_seconds, tuning.transfer_share));
  if (input.options.progress)
    input.options.progress("ends: shortening a schedule of " + std::to_string(small.total_micros) +
                           " micro-batches to move its warmup or cooldown into the best (" +
                           std::to_string(makespan(start)) + ")");
  std::vector<BuiltCandidate> smaller;
  const Schedule* small_start = smaller_start(portfolio, small, smaller);
  if (!small_start) return;
  const Time small_bound = makespan_lower_bound(*input.placement, small.total_micros, input.options.memory_limit);
  SearchOptions shifting = small.options;
  shifting.deadline = small.options.deadline.within(0.8 * small.options.deadline.granted_seconds_left());
  // A shorter schedule at the smaller N is the phase's gain (its stretch restarts).
  const Schedule small_best =
      improve_by_shifts(*small_start, shifting, small_bound, nullptr, [&portfolio](const Schedule&) { portfolio.gained(); });
  TransferStats stats;
  std::optional<Schedule> spliced = transfer_ends(start, small_best, small.options.deadline, &stats);
  if (!spliced) return;
  BuiltCandidate found =
      aperiodic_candidate("improve: ends of N " + std::to_string(small.total_micros), std::move(*spliced), begin, "");
  found.summary.note_kind = CandidateNote::EndsTransferred;
  found.summary.note_numbers = {makespan(start),        small.total_micros, makespan(small_best),
                                makespan(*small_start), stats.fitted,       stats.tried};
  portfolio.take(std::move(found), false);
}

}  // namespace

Phase transfer_phase() {
  Phase phase;
  phase.name = "improve: ends of a smaller N";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    return input.options.tuning.transfer_seconds > 0 && input.total_micros >= 2 * transfer_micros(input) &&
           !input.options.deadline.expired();
  };
  phase.run = run_transfer;
  return phase;
}

}  // namespace tessel
