// The planned and the achieved timeline of a traced run, one above the
// other on one time axis (the plan's steps times the run's scale), for the
// first training step: where the run stretched and where it waited shows as
// the lower picture's shift against the upper one.
#pragma once

#include <string>
#include <vector>

#include "model/formats/chrome_trace_read.hpp"
#include "model/schedule.hpp"
#include "trace/trace_check.hpp"

namespace tessel {

std::string trace_svg(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace,
                      const TraceCheck& check);

}  // namespace tessel
