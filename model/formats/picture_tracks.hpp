// What the pictures draw beside the instances: each device's memory over
// time, and the schedule's phases (warmup, the copies of the repetend,
// cooldown). The SVG and the Chrome trace both draw them from here, so that
// the two pictures of one schedule always agree.
//
// Memory follows the verifier's rule (docs/algorithms.md, "The problem",
// memory): a device holds its static memory from time 0, and every instance
// adds its block's memory change on each of the block's devices at its start
// (a forward allocates, its backward frees). The peak of a curve is the
// verifier's peak memory for a complete schedule. Amounts stay in the
// placement's memory ticks (the file's unit).
#pragma once

#include <vector>

#include "model/schedule.hpp"

namespace tessel {

struct MemoryPoint {
  Time at = 0;        // ticks: the level holds from here to the next point
  Memory level = 0;   // memory ticks, static memory included
};

// Per device, the level at 0 and after every time where it changes (several
// starts at one time give one point, as the verifier counts them).
std::vector<std::vector<MemoryPoint>> memory_curves(const Schedule& schedule);

// The largest level of each curve.
std::vector<Memory> curve_peaks(const std::vector<std::vector<MemoryPoint>>& curves);

enum class PhaseKind { Warmup, Repetend, Cooldown };

struct Phase {
  PhaseKind kind = PhaseKind::Warmup;
  Time start = 0;
  Time end = 0;
  int copy = 0;  // for Repetend: which period of the window (0, 1, ...)
};

// Warmup [0, repetend start), one Repetend phase per period of the window,
// cooldown [repetend end, makespan); empty phases are left out, and a
// schedule without a repetend has none.
std::vector<Phase> schedule_phases(const Schedule& schedule);

const char* phase_name(PhaseKind kind);  // "warmup", "repetend", "cooldown"

}  // namespace tessel
