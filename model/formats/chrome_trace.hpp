// A schedule as a Chrome / Perfetto trace (Trace Event Format JSON): one
// track per device, one complete ("X") event per instance, named like "F3"
// (kind letter and micro-batch), one step written as one microsecond. Opens
// in https://ui.perfetto.dev or chrome://tracing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

// The letter of a block kind in pictures and traces: F, B, I (input
// backward), W (weight backward), or the first letter of an "other" label.

nlohmann::json chrome_trace(const Schedule& schedule);

}  // namespace tessel
