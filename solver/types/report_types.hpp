// What a search reports, as plain data: the kinds of answer, the schedules
// considered, the questions put to the solver, the phases' times. Shared by
// the facade (solver/search.hpp) and the strategies and phases that fill it
// in, so that no part of solver/ includes the facade it sits below.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/answer.hpp"

namespace tessel {

// Which kind of schedule is the answer at N micro-batches.
enum class Shape {
  Repetend,   // warmup + window x r + cooldown: unrolls to any N
  Staged,     // memory-free all-device blocks batched at both ends: this N only
  Aperiodic,  // any other schedule of exactly N micro-batches
};

const char* shape_name(Shape shape);

// How a candidate was built, or why there is none, as data: the kind and
// the numbers behind it (Candidate::note_numbers, in the order listed;
// those marked "time" are in the placement's ticks, as the makespans);
// tools/candidate_note_text.hpp says it in words for the command line and
// the Python module. Text: the note is words the phase could not give as
// numbers (a reason from elsewhere, a verifier's violation), `note` says it all.
enum class CandidateNote {
  Text,
  RepetendUnrolled, // warmup, the window repeated, cooldown
  RepetendNone,     // the period search left no repetend schedule
  ModuloCompacted,  // the repetend's pattern for every micro-batch, compacted
  VariantBestOf,    // windows built: another window of the same period and latency
  StagedNotShorter, // bound (time), best (time): no staged schedule could be shorter
  StagedNoTime,     // no time left for the staged search
  StagedNone,       // no memory-free all-device block to batch, or nothing found in time
  StagedBuilt,      // blocks batched first, last, the middle repetend's period (time)
  ShiftsFound,      // start's makespan (time), widest shift (time), shorter schedules, encodings, questions out of time
  WindowsResolved,  // shorter schedules, moves, windows, windows out of time, rounds, restarts
  FullSearchFrom,   // start's makespan (time), proven optimal for N (0 or 1)
  ListOutOfTime,    // no list schedule within the memory limits before list_seconds ran out
  ListNoRuleFits,   // no list-scheduling rule fits the memory limits
  ListBestOfRuns,   // runs: the best of that many runs within the memory limits
  TradingNoRun,     // no memory-trading run finished within the limits
  ReplayBestOf,     // families: the family's own order, best of that many fitting ones
  EndsTransferred,  // best (time), smaller N, its shortened makespan (time), its start's (time), spliced orders fitted, tried
  OrderMoves,       // start's makespan (time), shorter schedules, steps, orders run, restarts
  RecomputeChosen,  // recomputes chosen, choices offered (offering forwards x k), k, compacted (0 or 1)
};
const char* candidate_note_name(CandidateNote note);

// One schedule of N micro-batches the search considered.
struct Candidate {
  std::string name;           // "repetend", "staged", "1f1b rule", ...
  Shape shape = Shape::Aperiodic;
  std::optional<Time> makespan;  // at N, when it produced a valid schedule
  CandidateNote note_kind = CandidateNote::Text;
  std::vector<long long> note_numbers;  // the kind's numbers
  // Text: why none, or how it was built; another kind: words that follow
  // the kind's (a phase run beside another says so).
  std::string note;
  double seconds = 0;
};

// A schedule a phase built that the verifier rejected: a bug in that phase.
// It is dropped (never offered, never chosen) and the search goes on with the
// valid ones; the report lists it so the bug is seen. With the environment
// variable TESSEL_STRICT_CANDIDATES=1 (the test suite sets it) a rejection
// is an internal error instead, so that no test passes over one.
struct RejectedCandidate {
  std::string phase;      // the candidate's name ("replay: zb-v", "repetend schedule", ...)
  std::string violation;  // the verifier's first violation, in words
};

// What the search learned about one window size k (repetend strategy).
enum class WindowStatus {
  Found,      // a window of this k was found
  NotBetter,  // no window of this k beats the best average so far
  Infeasible, // no window of this k fits (proven)
  Timeout,    // the time limit struck while deciding it
  Undecided,  // k > 1 out of its share of the time: the decided answer stands
};
const char* window_status_name(WindowStatus status);

struct WindowAttempt {
  int k = 1;
  WindowStatus status = WindowStatus::Found;
  Time period = 0;              // P_k found (0 when none)
  Time proven_lower_bound = 0;  // every window shorter than this is impossible
  Time latency = 0;             // of one window of k micro-batches
  double seconds = 0;
};

// One question put to the solver and its answer, for the report.
struct SolverCall {
  std::string what;  // "period 6", "latency <= 20", "makespan <= 30"
  Answer answer = Answer::Unknown;
  double seconds = 0;
};

struct PhaseTime {
  std::string phase;  // "period", "latency", "warmup/cooldown", "full"
  double seconds = 0;
};

// Why the makespan at N stays more than 1% above its bound, as data: the
// cause and the numbers behind it. solver/ decides it (from what the search
// proved: "proven" only where an UNSAT answer or a completed minimisation
// stands behind it); tools/gap_text.hpp says it in words for the command
// line and the Python module.
enum class GapCause {
  None,           // within 1% of the bound
  ProvenOptimal,  // the full solver proved the makespan optimal: the bound is not tight here
  FullStopped,    // the full solver stopped before proving it (proven_lower_bound so far)
  Period,         // the repetend's period is above k L; `boundary` says what else adds
  Boundary,       // the period is k L; warmup and cooldown make the gap (`boundary`)
  NotTight,       // another construction won and nothing proves the bound tight
};
enum class BoundaryCause {
  None,          // not part of the gap (within 1% once the period's share is taken off)
  NotShortened,  // the solver did not shorten warmup/cooldown (boundary_seconds 0)
  ProvenMinimal, // proven minimal around this repetend's window
  OutOfBudget,   // the shortening ran out of its boundary_seconds
};
const char* gap_cause_name(GapCause cause);
const char* boundary_cause_name(BoundaryCause cause);

// The gap as a fraction of the bound (0 when the bound is 0).
inline double relative_gap(long long makespan, long long bound) {
  return bound <= 0 ? 0 : double(makespan - bound) / double(bound);
}

struct MakespanGap {
  GapCause cause = GapCause::None;
  BoundaryCause boundary = BoundaryCause::None;
  long long total_micros = 0;   // N
  Time makespan = 0;            // at N
  Time bound = 0;               // the closed bound at N
  Time proven_lower_bound = 0;  // FullStopped: the makespan's; Period: the period's (every shorter one impossible)
  // Period: the repetend's period P_k for k micro-batches, k L, and the
  // steps (P_k - k L) N / k it alone adds at N.
  Time period = 0;
  Time period_lower_bound = 0;
  int micros_per_window = 1;
  Time period_excess = 0;
  double boundary_seconds = 0;  // the budget the boundary solver had
  std::string construction;     // NotTight: the candidate that won
};

// The fast construction's account of itself.
struct Construction {
  std::string name;             // "packing", "list scheduling", "one at a time"
  Time constructed_period = 0;  // before the solver shortened the window
  bool window_shortened = false;
};

}  // namespace tessel
