// The text timeline of a schedule (`tessel show`, and what `search` prints):
// one row per device, a cell per step, `|` at the repetend's edges.
#pragma once

#include <string>

#include "model/schedule.hpp"

namespace tessel {

// `max_steps` > 0 cuts long schedules (with a note saying so).
std::string render_timeline(const Schedule& schedule, int max_steps = 0);

// The claim in words: "repetend [10, 22) period 12 per micro-batch", or for
// a window of k > 1 micro-batches "... period 12 per 2 micro-batches (k = 2,
// average period 6 per micro-batch)". Times at `time_decimals` (the
// placement's) are written as decimals.
std::string repetend_summary(const Repetend& repetend, int time_decimals = 0);

}  // namespace tessel
