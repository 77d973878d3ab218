// A schedule as an SVG picture, written by hand: one row per device, one box
// per instance in its block's colour (model/formats/block_palette.hpp) with
// `BLOCK:MICRO-BATCH` inside where it fits (the micro-batch alone where only
// that fits), under each row the device's memory over time with its limit,
// the phases shaded (warmup, each copy of the repetend, cooldown), a legend
// naming every block, and a time axis. The timeline part is `width` pixels
// wide for the whole schedule or for the window [from, to) asked for, so a
// long schedule can be drawn wider or in parts until its labels fit.
#pragma once

#include <string>

#include "model/schedule.hpp"

namespace tessel {

struct SvgOptions {
  int width = 1200;   // drawing width in pixels of the timeline part
  std::string title;  // default: placement name, micro-batches and makespan
  Time from = 0;      // ticks: the first time drawn
  Time to = 0;        // ticks: drawn up to here (0 or past the makespan: to the end)
  // The axis in another unit of the file's: labels shifted by this many
  // decimal places (3: seconds drawn as ms) and named `axis_unit`.
  int axis_shift = 0;
  std::string axis_unit;
};

std::string svg_timeline(const Schedule& schedule, const SvgOptions& options = {});

}  // namespace tessel
