// Large-neighbourhood search on a schedule of N micro-batches
// (docs/algorithms.md, "The makespan at N"): the whole-problem full search
// grows with N x the makespan and is out of reach at 16 devices x 128
// micro-batches, yet the losses of a good schedule sit in a few places (the
// warmup, the cooldown, a stall in the middle). So we free some instances,
// keep every other one where it is, and let the solver re-place the free
// ones to end as early as possible (solver/makespan/improvements/window_resolve.hpp).
// After every accepted move the schedule is compacted: each instance starts
// as early as its dependencies and its devices' previous instances allow, in
// the same order per device, which cannot raise any memory peak (a device's
// memory levels depend only on the order of its instances) and lets the
// time won reach the end.
//
// The search runs until its budget ends or the bound is reached, in rounds.
// A round tries the tail and the head (a slice of time, then the last or
// first micro-batches), bands of a few devices at the tail, windows around
// instances on the critical path, then slices sliding towards the head. A
// move that ends its window earlier without lengthening the schedule is
// taken even when the makespan stays: it leaves slack the next window can
// use. A round without a shorter makespan doubles the windows' size (up to
// what one encoding may hold); past that size the search restarts from the
// next start schedule given, then cycles back with other random choices.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct NeighbourhoodStats {
  int windows = 0;       // windows solved (sat, unsat or out of time)
  int timeouts = 0;      // windows whose time ran out before the last answer
  int moves = 0;         // windows accepted (their end earlier, the makespan no longer)
  int improvements = 0;  // accepted windows that shortened the makespan
  int rounds = 0;
  int restarts = 0;      // switches to another start schedule
};

// Called with every schedule shorter than all before (valid, N micro-batches).
using OnShorter = std::function<void(const Schedule&)>;

// A schedule no longer than the shortest of `starts` (valid schedules of the
// placement's N micro-batches, no fused units, shortest first is not
// required), valid (checked with schedule_fits), by options.deadline; uses
// options.backend and options.memory_limit. Stops early when the makespan
// reaches `bound`.
Schedule improve_by_neighbourhoods(const std::vector<Schedule>& starts, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats = nullptr, const OnShorter& on_shorter = {});
Schedule improve_by_neighbourhoods(const Schedule& start, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats = nullptr, const OnShorter& on_shorter = {});

// Every instance as early as dependencies and the order on its devices
// allow (exposed for the tests; the memory peaks stay the same).
Schedule compacted(const Schedule& schedule);

}  // namespace tessel
