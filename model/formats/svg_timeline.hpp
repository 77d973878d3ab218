// A schedule as an SVG picture, written by hand: one row per device, one box
// per instance coloured by kind with its micro-batch inside, the repetend
// window shaded and bounded by dashed lines, a legend and a step axis. Box
// width scales with the makespan so that 60-step and 500-step schedules both
// fit a page; labels are dropped where boxes are too narrow for them.
#pragma once

#include <string>

#include "model/schedule.hpp"

namespace tessel {

struct SvgOptions {
  int width = 1200;  // target drawing width in pixels (the timeline part)
  std::string title;  // default: placement name, micro-batches and makespan
};

std::string svg_timeline(const Schedule& schedule, const SvgOptions& options = {});

}  // namespace tessel
