// Shift search on a schedule of N micro-batches (docs/algorithms.md, "The
// makespan at N"): every instance may move up to `shift` steps either way
// from where it is, all at once, and the solver is asked for a makespan one
// step shorter. The neighbourhoods (neighbourhood.hpp) do the opposite:
// they free a few instances completely and fix all others, so a schedule
// whose devices are busy to the end (the hand-made ones) is a local
// optimum for them when shortening it needs every device to shift a little
// (interleaved zero bubble, 16 ranks, N 16: the neighbourhoods find nothing
// below the hand-made 205 in a minute; shifts of 5 steps find 204 in 0.1 s).
// Narrow domains keep the full encoding (full_encoding.hpp) small whatever
// N: about instances x (2 shift + 1) order literals, and on long spans its
// no-overlap goes pairwise (sat/no_overlap_size.hpp) so that the spans do
// not count. No shift is below the least that lets two neighbours swap. A shift that finds
// nothing shorter doubles; a shorter schedule is compacted and becomes the
// centre of the next encoding. A question may use a quarter of the budget
// (at least half a second, or half of a shorter budget):
// one that runs out of it halves the shift for good (16 ranks, N 128: the
// first question at shift 4 is not answered in 9 s), so the time goes to a
// smaller question or back to the neighbourhoods after it.
//
// It runs in the schedule's time unit (time_unit.hpp): on a placement whose
// times are all multiples of 1000 (a unit one measured in microseconds) its
// steps are 1000 ticks, so it asks the same questions at the same cost as
// on the unit placement and reaches the same makespan times 1000.
//
// Nothing within a shift is not a proof: this search never proves a bound.
#pragma once

#include "model/schedule.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/strategies/full_encoding.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct ShiftStats {
  int encodings = 0;     // encodings built (one per centre and shift)
  int improvements = 0;  // shorter schedules found
  int questions_out_of_time = 0;  // questions given up at their share of the budget
  Time largest_shift = 0;  // the widest shift asked, in the ticks of the schedule given
  bool budget_reached = false;  // the next shift's encoding would have been past the budget
};

// The least shift that lets two neighbours on a device change places
// (b after a: b may start (b's start + span - a's start) / 2 earlier and a
// as much later), or 0 when `centre` is not compacted. Below it every
// device keeps its order, and a compacted schedule, whose starts are the
// earliest its orders allow, has nothing shorter within the shift: each
// encoding starts at least there. On measured times (spans of a thousand
// ticks, off any grid) the first shifts of a few ticks would only build
// encodings that answer no; on unit spans it is 1-3, below shift_first.
Time least_swapping_shift(const Schedule& centre);

// Per block and micro-batch, what must still run after the instance starts
// ([block][micro]): the question "makespan <= T" is every start <= T - tail.
using Tails = std::vector<std::vector<Time>>;

// The device work bounds' tails (device_work_bounds.hpp) of `schedule`'s
// placement and N: what the shift search asks with.
Tails work_tails(const Schedule& schedule);

enum class WithinAnswer {
  Shorter,     // `best` is shorter
  NoneWithin,  // decided: nothing shorter on these domains
  OutOfTime,   // options.deadline ended the building or a question
  TooLarge,    // past the encoding budget: not built
};

// The shift search's step on domains the caller chose, in the schedule's
// ticks (the traded neighbourhoods, solver/solve/traded_neighbourhoods.hpp:
// a window free, every other instance, recompute and copy held): the full
// encoding on `domains`, choosing where the placement offers, with the
// choices `held`, started from `best` (which must lie in the domains), asked
// one step shorter (every start <= the makespan asked - `tails`) until no or
// `bound`; `best` holds the shortest found. Questions run to options.deadline.
WithinAnswer shorten_within(Schedule& best, const StartDomains& domains, const HeldChoices& held, const Tails& tails,
                            const SearchOptions& options, Time bound, ShiftStats& stats);

// A schedule no longer than `start` (valid, N micro-batches, no fused
// units), valid, by options.deadline; uses options.backend and
// options.memory_limit. Stops early when the makespan reaches `bound`.
Schedule improve_by_shifts(const Schedule& start, const SearchOptions& options, Time bound,
                           ShiftStats* stats = nullptr, const OnShorter& on_shorter = {});

}  // namespace tessel
