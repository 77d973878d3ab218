// The candidates at N: the repetend unrolled; the cheap aperiodic ones
// always (the best list schedule of the portfolio, the best replay of a
// hand-made family's order), since the repetend's warmup and cooldown are
// built around one window and lose to them at small N; the staged schedule
// when the repetend is more than a percent above the bound.
#include "solver/makespan/candidates.hpp"

#include <chrono>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/family_replay.hpp"
#include "solver/makespan/list_scheduling.hpp"
#include "solver/makespan_bound.hpp"
#include "solver/makespan_gap.hpp"
#include "solver/staged_schedule.hpp"

namespace tessel {
namespace {

BuiltCandidate repetend_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "repetend";
  built.summary.shape = Shape::Repetend;
  const std::optional<Schedule>& schedule = input.period->schedule;
  if (!schedule || !schedule->repetend) {
    built.summary.note = "no repetend schedule";
    return built;
  }
  try {
    built.at_total = unroll(*schedule, input.total_micros);
    built.schedule = *schedule;
    built.summary.makespan = makespan(*built.at_total);
    built.summary.note = "warmup, the window repeated, cooldown";
  } catch (const InputError& error) {
    built.summary.note = "does not unroll to " + std::to_string(input.total_micros) + ": " + error.reason;
  }
  built.summary.seconds = seconds_since(begin);
  return built;
}

BuiltCandidate staged_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "staged";
  built.summary.shape = Shape::Staged;
  SearchOptions options = input.options;
  options.deadline = input.options.deadline.within(input.staged_seconds);
  options.boundary_seconds = std::min(options.boundary_seconds, input.staged_seconds / 2);
  options.progress = nullptr;
  if (options.deadline.expired()) {
    built.summary.note = "no time left";
    return built;
  }
  std::optional<StagedSchedule> staged = staged_schedule(*input.placement, options, input.total_micros);
  built.summary.seconds = seconds_since(begin);
  if (!staged) {
    built.summary.note = "no memory-free all-device block to batch, or its middle search found nothing in time";
    return built;
  }
  built.summary.makespan = makespan(staged->schedule);
  built.summary.note = std::to_string(staged->prefix_blocks) + " block(s) batched first, " +
                       std::to_string(staged->suffix_blocks) + " last, the rest a repetend of period " +
                       std::to_string(staged->middle_period);
  built.schedule = staged->schedule;
  built.at_total = staged->schedule;
  return built;
}

BuiltCandidate list_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "list";
  built.summary.shape = Shape::Aperiodic;
  std::optional<ListBest> best =
      best_list_schedule(*input.placement, input.options.memory_limit, input.total_micros);
  built.summary.seconds = seconds_since(begin);
  if (!best) {
    built.summary.note = "no rule fits the memory limits";
    return built;
  }
  built.summary.name = std::string("list: ") + list_rule_name(best->run.rule) + " rule, cap " +
                       std::to_string(best->run.cap) + (best->run.guarded ? "" : " unguarded");
  built.summary.makespan = makespan(best->schedule);
  built.summary.note = "best of " + std::to_string(best->runs) + " list-scheduling runs within the memory limits";
  built.schedule = best->schedule;
  built.at_total = best->schedule;
  return built;
}

// Only a placement of a family's stage shape gives one; otherwise nothing
// is listed.
std::optional<BuiltCandidate> replay_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  std::vector<Replay> replays = family_replays(*input.placement, input.options.memory_limit, input.total_micros);
  if (replays.empty()) return std::nullopt;
  const Replay* best = nullptr;
  for (const Replay& replay : replays)
    if (!best || makespan(replay.schedule) < makespan(best->schedule)) best = &replay;
  BuiltCandidate built;
  built.summary.name = "replay: " + best->family;
  built.summary.shape = Shape::Aperiodic;
  built.summary.makespan = makespan(best->schedule);
  built.summary.note = "the family's own order run on this placement (best of " + std::to_string(replays.size()) +
                       " fitting families)";
  built.schedule = best->schedule;
  built.at_total = best->schedule;
  built.summary.seconds = seconds_since(begin);
  return built;
}

}  // namespace

std::vector<BuiltCandidate> build_candidates(const CandidateInput& input) {
  std::vector<BuiltCandidate> candidates;
  candidates.push_back(repetend_candidate(input));
  const std::optional<Time>& repetend_makespan = candidates.front().summary.makespan;
  const Time bound = makespan_lower_bound(*input.placement, input.total_micros);
  const bool close = repetend_makespan && relative_gap(*repetend_makespan, bound) <= input.gap_to_try_others;
  if (!close) candidates.push_back(staged_candidate(input));
  if (input.options.deadline.expired()) return candidates;
  candidates.push_back(list_candidate(input));
  if (std::optional<BuiltCandidate> replay = replay_candidate(input)) candidates.push_back(std::move(*replay));
  return candidates;
}

}  // namespace tessel
