// The full search (solver/strategies/full_search.hpp) started from the best, last: it
// shortens it or proves it optimal (small problems only: its encoding grows
// with N x the makespan). With two threads or more it runs on the side
// thread beside the neighbourhoods, from the same start: they find
// different schedules (on the hand-made families the neighbourhoods found
// every shorter schedule of 124 rows of papers/g_handmade, the full search
// the only shorter ones of four ties, where its first question takes 8-15 s,
// more than it gets after the neighbourhoods). Side by side it has the
// neighbourhoods' budget, and the first to settle the question stops the
// other: the neighbourhoods at the bound, the full search with its answer
// proven optimal.
#include <algorithm>
#include <chrono>

#include "model/input_error.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"
#include "solver/strategies/full_search.hpp"

namespace tessel {
namespace {

std::optional<BuiltCandidate> full_candidate(const CandidateInput& input, const Schedule& start,
                                             const Candidates& so_far) {
  if (input.options.tuning.improve_seconds <= 0 || input.options.deadline.expired()) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  SearchOptions options = input.options;
  options.total_micros = input.total_micros;
  // Given a time limit and `improve_share`, a share of what is left: the
  // full search's first question, one step below the best, can take tens of
  // seconds on 16 ranks (interleaved zero bubble, N 16: 10 s to go below
  // the hand-made 205, 41 s to prove 200 optimal).
  const Tuning& tuning = input.options.tuning;
  options.deadline = input.options.deadline.within_budget(tuning.improve_seconds, tuning.improve_share);
  options.progress = nullptr;
  // An encoding the search would refuse is not started: the solved bounds
  // it asks first would spend the budget for nothing (measured costs: kshape,
  // 8 devices, spans x1000: 3.8 s, then refused).
  if (std::optional<std::string> why =
          full_encoding_refusal(*input.placement, options, static_cast<int>(input.total_micros), makespan(start))) {
    if (input.options.progress) input.options.progress("improve: the full search skipped: " + *why);
    return std::nullopt;
  }
  Schedule plain = start;
  plain.repetend.reset();
  if (input.options.progress)
    input.options.progress("improve: the full search from the best (" + std::to_string(makespan(start)) + ")");
  SearchResult result;
  try {
    const bool settled = so_far.ends_settled(makespan(start));
    result = search_full(*input.placement, options, plain, settled ? &so_far.bound : nullptr);
  } catch (const InputError&) {
    return std::nullopt;  // an encoding past its budget: too large to improve this way
  }
  if (!result.schedule) return std::nullopt;
  const bool proven = result.status == SearchStatus::Found;
  BuiltCandidate built = aperiodic_candidate("improve: full search", std::move(*result.schedule), begin, "");
  built.summary.note_kind = CandidateNote::FullSearchFrom;
  built.summary.note_numbers = {makespan(start), proven ? 1 : 0};
  if (proven) built.proven_lower_bound = result.proven_lower_bound;
  return built;
}

}  // namespace

Phase full_search_phase() {
  Phase phase;
  phase.name = "improve: full search";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    return portfolio.input().options.tuning.improve_seconds > 0 && !portfolio.input().options.deadline.expired();
  };
  phase.run = [](Portfolio& portfolio) {
    std::optional<BuiltCandidate> built = full_candidate(portfolio.input(), *portfolio.start(), portfolio.so_far());
    if (built) portfolio.add(std::move(*built));
  };
  // Beside the neighbourhoods (the phase before it): their budget, one thread.
  phase.beside = [](const SideCall& call) {
    CandidateInput own = *call.input;
    own.options.threads = 1;
    own.options.tuning.improve_share = std::max(own.options.tuning.improve_share, own.options.tuning.lns_share);
    own.options.tuning.improve_seconds = own.options.tuning.lns_seconds;
    return full_candidate(own, call.start, call.so_far);
  };
  phase.side_note = " (side by side with the neighbourhoods)";
  return phase;
}

}  // namespace tessel
