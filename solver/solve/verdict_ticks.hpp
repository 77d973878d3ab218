// The verifier's numbers in the placement's ticks.
//
// The verifier reads the written document and counts in its own ticks: the
// most decimals any time (or memory amount) of the file carries. The file
// drops trailing zeros, so a placement kept at 9 decimals whose spans are
// whole hundreds of a unit's 10^-9 is read at 7, and the verifier's makespan
// of it is a hundredth of the placement's ticks. Every number the search
// takes from a verdict and compares with its own goes through these.
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "verify/verdict.hpp"

namespace tessel {

Time makespan_in_placement_ticks(const verify::Report& report, const Placement& placement);
std::vector<Memory> peak_in_placement_ticks(const verify::Report& report, const Placement& placement);

}  // namespace tessel
