// The makespan at N micro-batches (docs/algorithms.md, "The makespan at N"):
// the schedules of N micro-batches the search weighs against each other.
// The period search gives one (its repetend unrolled to N); other shapes
// may beat it at a given N: the staged schedule, and the constructions of
// this folder. Each candidate is built within the time it is given, and
// solve() verifies every one and keeps the shortest. This header is the
// data only (what is asked, what comes back), so that the portfolio and its
// phases can read it; the run is solver/makespan/build_candidates.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "solver/makespan/bounds/solved_bounds.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/budget_log.hpp"
#include "solver/types/report_types.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct CandidateInput {
  const Placement* placement = nullptr;  // static memory taken off (solver's view)
  int total_micros = 128;
  const SearchResult* period = nullptr;  // the strategy's answer, its schedule a repetend
  // Limits, backend, deadline, progress, and the knobs: each phase reads
  // its budget from options.tuning (staged_seconds, list_seconds,
  // shift_seconds and shift_share, ..., solver/knobs/tuning.hpp), no copy here.
  SearchOptions options;
  // Above this relative gap of the repetend the staged schedule is built;
  // above it for the best before the improvements, the exact ends are asked
  // first.
  double gap_to_try_others = 0.01;
  // Called with every schedule shorter at N than all offered before (the
  // unrollable form for a repetend) as soon as it is built, so that a search
  // interrupted later still has it. May be empty.
  // `phase` names the candidate or improvement that built it.
  std::function<void(const Schedule& schedule, Shape shape, Time makespan_at_total, const std::string& phase)> offer;
  // The judge of every candidate before the portfolio sees it (solve() gives
  // the verifier): the first violation when it rejects `schedule` (in the
  // solver's view, N micro-batches), nothing when valid. A rejected
  // candidate is listed in Candidates::rejected and dropped. May be empty
  // (then every candidate is taken as built).
  std::function<std::optional<std::string>(const Schedule& schedule)> judge;
  // The search budget's log (solve()'s): the portfolio logs each
  // improvement phase's grant and return there. May be null (not logged).
  BudgetLog* budget_log = nullptr;
};

struct BuiltCandidate {
  Candidate summary;
  std::optional<Schedule> schedule;  // N micro-batches (a repetend: its unrollable form)
  std::optional<Schedule> at_total;  // the same at exactly N micro-batches
  // Every schedule of N micro-batches is at least this long (the full
  // search's last unsatisfiable makespan + 1), when the candidate proves one.
  std::optional<Time> proven_lower_bound;
};

struct Candidates {
  // Every candidate tried, in a fixed order (the report lists them so); the
  // schedules are in the solver's view of the placement.
  std::vector<BuiltCandidate> built;
  // The candidates the judge rejected (their entries in `built` keep the
  // name, with no schedule and the violation as the note).
  std::vector<RejectedCandidate> rejected;
  // The closed bounds at N, raised by the exact ends (options.ends_seconds)
  // when the best schedule before the improvements is above them: computed
  // once, so the improvements stop at it and the full search starts from it.
  MakespanBound bound;
  // The closed bounds alone (the placement facts'), for whoever raises them
  // again for another schedule without computing them anew.
  MakespanBound closed;
  // The makespan the exact ends were asked to reach (none: not asked, e.g.
  // out of time or no schedule without fused units).
  std::optional<Time> ends_asked_at;
  // They ran there with their whole budget (raised_by_exact_ends' `ran`).
  bool ends_ran = false;

  // Whether the exact ends are not asked again for a schedule of makespan
  // `best`: they raised the bound already (a shorter target only stops them
  // sooner), they were asked for this very makespan, or they ran with their
  // whole budget. The last is a trade of time for strength: asking again
  // asks the same windows and raises the bound only where a question the
  // first run left undecided is decided for the narrower goal, at the cost
  // of the whole budget again (V-Min, 8 stages, N 16, F=3 B=2 W=1: 2 s
  // twice, nothing raised, where the default search has 5 s). The bound
  // stays a valid bound either way. They skip a gap above one micro-batch's
  // critical path, which an improvement may close: then they are asked
  // again.
  bool ends_settled(Time best) const {
    return ends_asked_at && (solved_bound(bound) || ends_ran || best == *ends_asked_at);
  }
};

}  // namespace tessel
