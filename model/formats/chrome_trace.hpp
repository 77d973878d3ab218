// A schedule as a Chrome / Perfetto trace (Trace Event Format JSON). Each
// device is a process with one thread, its compute track: a complete ("X")
// event per instance named `BLOCK:MICRO` (block id and micro-batch, as the
// text timeline), the kind as its category. Beside it the device's memory
// over time and its limit are counter ("C") events, so Perfetto draws them
// as graphs under the track. A first process, "schedule", holds the phases:
// warmup, steady (with one slice per copy of the repetend nested in it) and
// cooldown. One step, or one unit of a measured file, is one microsecond.
// Opens in https://ui.perfetto.dev or chrome://tracing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

nlohmann::json chrome_trace(const Schedule& schedule);

}  // namespace tessel
