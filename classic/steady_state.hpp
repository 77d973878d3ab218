// Finding the steady state of a timed classic schedule: the longest window
// made of copies of one period P (the busiest device's work per micro-batch)
// in which every block runs once per copy and each copy is the one before
// shifted by P steps and one micro-batch (or k micro-batches in a period of
// k times that, for orders that repeat per group, like interleaved 1F1B). Written into generated and
// imported schedules as their repetend, so that `tessel verify` checks the
// claim and pictures can mark it.
#pragma once

#include <optional>

#include "model/schedule.hpp"

namespace tessel::classic {

// At least two copies, or nothing.
std::optional<Repetend> find_steady_state(const Schedule& schedule);

}  // namespace tessel::classic
