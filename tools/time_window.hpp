// --start T and --end T of `show` and `export --to svg`: the part of a
// schedule to draw, in the file's time unit (decimals for measured files),
// so that a long schedule can be read a piece at a time.
#pragma once

#include "model/time_window.hpp"
#include "tools/cli.hpp"

namespace tessel::cli {

void add_time_window_options(po::options_description& options);

// Throws InputError naming the option for a time that is not a number >= 0,
// has more decimals than the schedule's times, or an empty window.
TimeWindow time_window(const po::variables_map& values, const Schedule& schedule);

}  // namespace tessel::cli
