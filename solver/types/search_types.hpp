// What a search is asked and what it answers (solver/search.hpp, the one
// entry, declares solve() over these): the request, the report with its
// period and makespan parts, the budget's log and the Progress a caller
// watches. A header apart from the entry so that the units solve() calls
// (the budget, the search with recomputation) read the types without
// including the facade they sit below.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/report_types.hpp"

namespace tessel {

enum class Strategy { Repetend, Full, Fast };
enum class Outcome {
  Found,        // answered; "proven" flags say what is proven
  Infeasible,   // proven: no schedule within the limits
  Timeout,      // the time limit struck; `best` holds the best so far if any
  Interrupted,  // the stop flag was raised; likewise
};
const char* strategy_name(Strategy strategy);
const char* outcome_name(Outcome outcome);  // found | infeasible | timeout | interrupted
std::optional<Strategy> parse_strategy(const std::string& text);

struct SearchRequest {
  Placement placement;
  std::vector<Memory> memory_limit;  // per device, in the placement's memory ticks; static memory counts
  Strategy strategy = Strategy::Repetend;
  std::string backend = "cadical";   // backend_names()
  // N, the micro-batches the user runs: the makespan is judged, and the best
  // schedule built, here; strategy full schedules exactly these.
  int total_micros = 128;
  std::optional<int> in_flight;      // K, repetend/fast: most micro-batches in flight (unset: the number of blocks)
  int micros_per_window = 0;         // repetend: k, 0 = automatic (1 .. tuning.largest_window)
  Deadline deadline = Deadline::none();
  // > 0: search on times rounded up to multiples of this many ticks and read
  // the answer back on the real times (solver/solve/resolution.hpp); 0: exact.
  Time resolution = 0;
  int threads = 0;                   // 0: every core
  Tuning tuning;
};

// The period question (strategies repetend and fast).
// A forward the repetend's choice recomputes (or offloads): its block's id
// and the window positions that do (k = 1: position 0 only).
struct ChosenRecompute {
  std::string block;
  std::vector<int> positions;
};

struct PeriodReport {
  Time period = 0;              // P_k of the chosen window
  int micros_per_window = 1;    // k
  Time lower_bound = 0;         // k L
  Time proven_lower_bound = 0;  // every shorter window proven impossible (repetend)
  bool optimal = false;         // period == proven_lower_bound, decided
  int in_flight = 0;            // K
  Time latency = 0;
  bool latency_minimal = true;
  Time warmup = 0;              // of the repetend schedule
  Time cooldown = 0;
  std::vector<WindowAttempt> windows;
  std::optional<Construction> construction;  // fast
  // Offered recomputation or offload: the periods below the one found
  // decided with a recompute or an offload chosen per offering forward and
  // window position (solver/solve/recompute_choice_search.hpp).
  // `recompute_period`: the least one found there, with `recompute_chosen`
  // the forwards it recomputes (as data: tools/ says it in words) of
  // `recompute_offers` forwards offering recomputation, and
  // `offload_chosen` those it offloads of `offload_offers` offering offload.
  // `recompute_skipped_terms`: not asked, its encoding's estimated size
  // (these terms) being more than its grant affords (0: asked, or nothing
  // to decide).
  bool recompute_decided = false;
  long long recompute_skipped_terms = 0;
  std::optional<Time> recompute_period;
  std::vector<ChosenRecompute> recompute_chosen;
  int recompute_offers = 0;
  std::vector<ChosenRecompute> offload_chosen;
  int offload_offers = 0;
};

// The makespan question at N micro-batches.
struct MakespanReport {
  int total_micros = 0;
  Shape shape = Shape::Repetend;
  std::string construction;      // the candidate that won
  Time makespan = 0;
  MakespanBound bound;
  Time proven_lower_bound = 0;   // >= bound.value; strategy full raises it by refutation
  bool proven_optimal = false;   // makespan == proven_lower_bound, decided
  double bubble_ratio = 0;
  std::vector<Memory> peak_memory;  // per device, static memory included
  MakespanGap gap;               // why above the bound (cause None within 1%)
  std::vector<Candidate> candidates;
};

// What the search's budget (solver/solve/budget.hpp) granted one phase: when it
// started and when it must end, in seconds since the search began (no
// `until`: only an interrupt ends it), and what set that end.
// FullStart and FullList: strategy full's first schedule (a quick repetend,
// the list scheduling), inside the strategy's grant; TradedStart: the
// memory-trading list schedules built before the period search on a
// placement offering recomputation or offload; RecomputeChoice: the
// periods below the one found decided again with a recompute chosen per
// offering forward, after the answer; RecomputeAll: the "recompute every
// offered forward" placement's own search after that; Shifts ..
// Neighbourhoods: the makespan portfolio's improvement phases, inside the
// makespan grant (on the portfolio's thread; one beside it on the side
// thread is not logged); TradedNeighbourhoods: windows of the answer that
// trades memory re-solved, after its shifts (solver/solve/traded_neighbourhoods.hpp).
enum class BudgetPhase {
  Strategy, Makespan, Answer, FullStart, FullList, TradedStart, RecomputeChoice, RecomputeAll, Shifts, Transfer, Orders,
  Neighbourhoods, TradedNeighbourhoods
};
// PhaseSeconds: the phase's own knob; ShareOfLeft: its share of the time
// left in the deadline it is cut from.
enum class BudgetLimit {
  None, TimeLimit, AnswerReserve, TenthOfLimit, Plan, LeastAfterPeriod, Grace, PhaseSeconds, ShareOfLeft,
  TradedLeast
};
const char* budget_phase_name(BudgetPhase phase);
const char* budget_limit_name(BudgetLimit limit);
struct BudgetGrant {
  BudgetPhase phase = BudgetPhase::Strategy;
  double from = 0;
  std::optional<double> until;
  BudgetLimit limited_by = BudgetLimit::None;
  // Strategy: the seconds reserved for the answer; Answer: its estimated cost.
  double estimate = 0;
  // An improvement phase: when it returned (seconds since the search began),
  // and whether it gave back the rest of its grant after a stretch without a
  // gain (the developer knob improve_stall_seconds) or, `gave_up`, by its
  // own progress rule (steps or windows without a gain: order_stall_steps,
  // lns_stall_windows).
  std::optional<double> ended;
  bool stalled = false;
  bool gave_up = false;
};

// What solve() did after the strategy answered, as data: the words are
// the callers' (tools/search_note_text.cpp), as for the gap. Each note
// carries the numbers its words need; the notes follow the strategy's
// `message` in the order they were taken.
enum class SearchNoteKind {
  StoppedToVerify,          // the strategy stopped `seconds` before the limit, to verify its answer
  AnswerNearLimit,          // the answer at `total_micros` not built: about `seconds` to build and verify
  AnswerBeyondRange,        // the real times pass the search's range (`ticks` per schedule)
  InterruptedBeforeAnswer,  // an interrupt came before the answer at `total_micros` was built
  StoppedBuildingAnswer,    // the limit (`interrupted`: an interrupt) struck while building the answer at N
  MemoryTraded,             // no schedule keeps every activation; the answer trades memory for time
  BlockAboveLimit,          // `block` alone passes device `device`'s limit under any choice
  RecomputingFoundNone,     // none keeps every activation, and recomputing every offer found none (`candidate`)
  RecomputingAnswers,       // every schedule keeping every activation proven impossible; recomputing answers
};
const char* search_note_name(SearchNoteKind kind);
struct SearchNote {
  SearchNote() = default;
  explicit SearchNote(SearchNoteKind of) : kind(of) {}
  SearchNoteKind kind = SearchNoteKind::StoppedToVerify;
  // The note changed a found answer into a time-out: it leads, and what was
  // said before follows it (AnswerNearLimit; StoppedBuildingAnswer always).
  bool headline = false;
  long long total_micros = 0;
  double seconds = 0;
  Time ticks = 0;
  bool interrupted = false;
  std::string block;
  int device = 0;
  std::optional<Candidate> candidate;  // RecomputingFoundNone: the search that found none
};

struct SearchReport {
  Outcome outcome = Outcome::Infeasible;
  std::string message;           // the strategy's: why infeasible / what stopped / what it noted
  std::vector<SearchNote> notes;  // solve()'s, after the message (tools/search_note_text.hpp reads both)
  std::string resolution_note;   // with a resolution: what the rounding may cost
  Strategy strategy = Strategy::Repetend;
  std::string backend;
  std::optional<PeriodReport> period;
  std::optional<Schedule> repetend;  // the repetend schedule (K micro-batches, unrollable)
  std::optional<Schedule> best;      // the answer at N: what -o writes
  std::optional<MakespanReport> makespan;
  std::vector<RejectedCandidate> rejected;  // empty unless a phase has a bug
  std::vector<SolverCall> calls;
  std::vector<PhaseTime> phases;
  std::vector<BudgetGrant> budget;  // what the budget granted, in order
  double seconds = 0;
};

// The command line's --nmicros (Python's nmicros=) into the request: K, the
// micro-batches in flight, for repetend and fast; N, the micro-batches
// scheduled, for full, where it is required. Set the strategy first. Throws
// InputError for a count below 1 or a full search without one.
void apply_nmicros(SearchRequest& request, std::optional<int> nmicros);

// Whether TESSEL_STRICT_CANDIDATES asks for a rejected candidate to stop the
// search as an internal error (the tests' setting).
bool strict_candidates();

// What a caller sees while the search runs. Called from the searching
// thread(s); implementations must be thread-safe.
class Progress {
 public:
  virtual ~Progress() = default;
  // A finished step ("repetend: period 7: unsat (0.12 s)"). Phases on
  // other threads call it too, one call at a time (solve holds a lock).
  virtual void line(const std::string&) {}
  // A new best valid schedule at N micro-batches (anytime answer).
  virtual void improved(const Schedule&, Shape, Time /*makespan*/) {}
};

}  // namespace tessel
