// The constructions that need no solver and run whatever the repetend gives
// (its warmup and cooldown are built around one window and lose to them at
// small N): the best list schedule of the portfolio of rules, and the best
// replay of a hand-made family's order (staged placements of a family's
// stage shape only).
#include <chrono>

#include "solver/makespan/constructions/family_replay.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {

std::optional<BuiltCandidate> list_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "list";
  built.summary.shape = Shape::Aperiodic;
  const Deadline deadline = input.options.deadline.within(input.options.tuning.list_seconds);
  std::optional<ListBest> best =
      best_list_schedule(*input.placement, input.options.memory_limit, input.total_micros, deadline);
  built.summary.seconds = seconds_since(begin);
  if (!best) {
    // Out of time is not "nothing fits": the runs stop at the deadline.
    built.summary.note_kind = deadline.expired() ? CandidateNote::ListOutOfTime : CandidateNote::ListNoRuleFits;
    return built;
  }
  BuiltCandidate found =
      aperiodic_candidate(std::string("list: ") + list_rule_name(best->run.rule) + " rule, cap " +
                              std::to_string(best->run.cap) + (best->run.guarded ? "" : " unguarded"),
                          std::move(best->schedule), begin, "");
  found.summary.note_kind = CandidateNote::ListBestOfRuns;
  found.summary.note_numbers = {static_cast<long long>(best->runs)};
  return found;
}

// Only a placement that offers recomputation gives one (memory_trading.hpp),
// within the list schedules' budget again; its note says what it recomputed.
std::optional<BuiltCandidate> trading_candidate(const CandidateInput& input) {
  if (!offers_memory_choice(*input.placement)) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline = input.options.deadline.within(input.options.tuning.list_seconds);
  std::optional<TradingBest> best =
      best_trading_schedule(*input.placement, input.options.memory_limit, input.total_micros, deadline);
  if (!best) {
    BuiltCandidate built;
    built.summary.name = "list, memory traded";
    built.summary.shape = Shape::Aperiodic;
    built.summary.seconds = seconds_since(begin);
    built.summary.note_kind = CandidateNote::TradingNoRun;
    return built;
  }
  const std::string note = choices_summary(best->schedule) + " (best of " + std::to_string(best->runs) + " runs)";
  return aperiodic_candidate(std::string("list, memory traded: ") + (best->run.backward_first ? "1f1b" : "zb") +
                                 " rule, cap " + std::to_string(best->run.cap) + ", pressure " +
                                 std::to_string(static_cast<int>(best->run.pressure * 100)) + "%",
                             std::move(best->schedule), begin, note);
}

std::optional<BuiltCandidate> replay_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  std::vector<Replay> replays = family_replays(*input.placement, input.options.memory_limit, input.total_micros);
  if (replays.empty()) return std::nullopt;
  const Replay* best = nullptr;
  for (const Replay& replay : replays)
    if (!best || makespan(replay.schedule) < makespan(best->schedule)) best = &replay;
  BuiltCandidate found = aperiodic_candidate("replay: " + best->family, best->schedule, begin, "");
  found.summary.note_kind = CandidateNote::ReplayBestOf;
  found.summary.note_numbers = {static_cast<long long>(replays.size())};
  return found;
}

namespace {

bool holds_schedule_at_total(const Candidates& candidates) {
  for (const BuiltCandidate& built : candidates.built)
    if (built.at_total) return true;
  return false;
}

// A list construction as a phase. Past the deadline it still runs once when
// nothing at N is in hand (the period search took the whole limit on a
// loaded machine and its repetend did not unroll, e.g. its warmup was not
// checked against the memory limit in time): list scheduling costs one pass
// over the instances, so a time-out still writes a schedule. It gets
// answer_grace_seconds from now, the slack the answer at N is allowed past
// the limit, and an interrupt still ends it at once.
Phase list_construction(const char* name, std::optional<BuiltCandidate> (*build)(const CandidateInput&)) {
  Phase phase;
  phase.name = name;
  phase.past_deadline = true;
  phase.run = [build](Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    if (!input.options.deadline.expired()) {
      if (std::optional<BuiltCandidate> built = build(input)) portfolio.add(std::move(*built));
      return;
    }
    if (input.options.deadline.stopped() || holds_schedule_at_total(portfolio.so_far())) return;
    CandidateInput last_resort = input;
    last_resort.options.deadline =
        Deadline::after_seconds(input.options.tuning.answer_grace_seconds, input.options.deadline.stop);
    if (std::optional<BuiltCandidate> built = build(last_resort)) portfolio.add(std::move(*built));
  };
  return phase;
}

}  // namespace

Phase list_phase() { return list_construction("list", list_candidate); }

Phase trading_phase() { return list_construction("list, memory traded", trading_candidate); }

Phase replay_phase() {
  Phase phase;
  phase.name = "replay";
  phase.run = [](Portfolio& portfolio) {
    if (std::optional<BuiltCandidate> built = replay_candidate(portfolio.input())) portfolio.add(std::move(*built));
  };
  return phase;
}

}  // namespace tessel
