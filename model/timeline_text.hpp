// The text timeline of a schedule (`tessel show`, and what `search` prints):
// one row per device, a cell per step, `|` at the repetend's edges, and a
// key under the rows naming every block.
#pragma once

#include <string>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

struct TimelineOptions {
  int max_steps = 0;  // cells at most (0 = all); with measured times, the width in cells
  Time from = 0;      // ticks: the first time shown
  Time to = 0;        // ticks: shown up to here (0 or past the makespan: to the end)
};

std::string render_timeline(const Schedule& schedule, const TimelineOptions& options);

// `max_steps` > 0 cuts long schedules (with a note saying so).
std::string render_timeline(const Schedule& schedule, int max_steps = 0);

// How cells name blocks: the block ids when every id is short and plain
// (at most 6 letters, digits, `_` or `-`), else the block indices 0, 1, ...
// (which the key maps to the ids). Either way no tag contains `:`, `+`,
// `.` or `#`, the characters the cells use for other things.
std::vector<std::string> block_tags(const Placement& placement);

// The claim in words: "repetend [10, 22) period 12 per micro-batch", or for
// a window of k > 1 micro-batches "... period 12 per 2 micro-batches (k = 2,
// average period 6 per micro-batch)". Times at `time_decimals` (the
// placement's) are written as decimals.
std::string repetend_summary(const Repetend& repetend, int time_decimals = 0);

}  // namespace tessel
