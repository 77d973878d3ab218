// Re-placing a few instances of a schedule with every other one fixed
// (docs/algorithms.md, "The makespan at N"): the step of the
// large-neighbourhood search. The whole problem at 16 devices x 128
// micro-batches is far out of the full solver's reach, but a few hundred
// free instances inside a window of time, with the rest of the schedule as
// constants that occupy their devices and hold their memory, make a small
// encoding. The solver then ends the free instances as early as it can: for
// a window at the tail that is the makespan itself.
#pragma once

#include <optional>
#include <vector>

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// The instances set free (indices into schedule.instances) and the time they
// may use: each starts at or after `begin` and ends by `end`, which is at
// least their latest end in the schedule given (so the schedule given is
// one answer).
struct FreeWindow {
  std::vector<int> free;
  Time begin = 0;
  Time end = 0;
};

// The window of `free`: from their earliest start, moved back by
// `lead_fraction` of the window's length (the idle steps before a tail are
// what it can use), to their latest end.
FreeWindow window_around(const Schedule& schedule, std::vector<int> free, double lead_fraction = 0.5);

// The size of the window's encoding in order literals (free instances x the
// window's steps); windows past a budget are not built.
long long window_literals(const FreeWindow& window);

struct WindowAnswer {
  // New starts for window.free (in its order) whose latest end is strictly
  // below window.end, the earliest found; nothing when none was found.
  std::optional<std::vector<Time>> starts;
  bool timed_out = false;  // the deadline ended the building or a solver call
};

// The window's end lowered as far as the solver gets by the deadline (one
// below the end first, then bisection). Dependencies, devices and memory
// (schedule.memory_limit, the blocks' own memory) hold with every other
// instance where it is. `schedule` has no fused units.
WindowAnswer resolve_window(const Schedule& schedule, const FreeWindow& window, const SearchOptions& options,
                            const Deadline& deadline);

}  // namespace tessel
