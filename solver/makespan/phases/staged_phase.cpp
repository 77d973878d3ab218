// The staged schedule as a candidate (constructions/staged_schedule.hpp):
// built when the repetend is more than gap_to_try_others above the bound,
// and only when it could beat the shortest so far (its bound is one of the
// placement facts). Its middle's repetend search takes up to staged_seconds
// (nnshape, 16 devices, memory 16: 2 s of the default search's 5.4, for 1367
// against the modulo schedule's 1348).
#include <algorithm>
#include <chrono>

#include "solver/makespan/bounds/makespan_gap.hpp"
#include "solver/makespan/constructions/staged_schedule.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

BuiltCandidate staged_candidate(const CandidateInput& input, long long bound, std::optional<Time> best) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "staged";
  built.summary.shape = Shape::Staged;
  if (best && bound >= *best) {
    built.summary.note_kind = CandidateNote::StagedNotShorter;
    built.summary.note_numbers = {bound, *best};
    return built;
  }
  SearchOptions options = input.options;
  options.deadline = input.options.deadline.within(input.options.tuning.staged_seconds);
  options.boundary_seconds = std::min(options.boundary_seconds, input.options.tuning.staged_seconds / 2);
  options.progress = nullptr;
  if (options.deadline.expired()) {
    built.summary.note_kind = CandidateNote::StagedNoTime;
    return built;
  }
  std::optional<StagedSchedule> staged = staged_schedule(*input.placement, options, input.total_micros);
  built.summary.seconds = seconds_since(begin);
  if (!staged) {
    built.summary.note_kind = CandidateNote::StagedNone;
    return built;
  }
  built.summary.makespan = makespan(staged->schedule);
  built.summary.note_kind = CandidateNote::StagedBuilt;
  built.summary.note_numbers = {staged->prefix_blocks, staged->suffix_blocks, staged->middle_period};
  built.schedule = staged->schedule;
  built.at_total = staged->schedule;
  return built;
}

}  // namespace

Phase staged_phase() {
  Phase phase;
  phase.name = "staged";
  phase.past_deadline = true;  // lists that no time was left
  phase.wanted = [](const Portfolio& portfolio) {
    const std::optional<Time> repetend = portfolio.repetend_makespan();
    return !repetend || relative_gap(*repetend, portfolio.bound()) > portfolio.input().gap_to_try_others;
  };
  phase.run = [](Portfolio& portfolio) {
    portfolio.add(staged_candidate(portfolio.input(), portfolio.facts().staged_bound, portfolio.shortest()));
  };
  return phase;
}

}  // namespace tessel
