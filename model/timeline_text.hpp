// The text timeline of a schedule (`tessel show`, and what `search` prints):
// one row per device, a cell per step, `|` at the repetend's edges.
#pragma once

#include <string>

#include "model/schedule.hpp"

namespace tessel {

// `max_steps` > 0 cuts long schedules (with a note saying so).
std::string render_timeline(const Schedule& schedule, int max_steps = 0);

}  // namespace tessel
