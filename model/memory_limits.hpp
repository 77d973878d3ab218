// Memory limits as a user writes them (docs/formats.md, "Numbers"): "6",
// "1.5", "40GiB", or one per device "6,6,4,4". The command line and the
// Python module read them through here.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "model/quantity.hpp"

namespace tessel {

// One amount for every device, or one per device; InputError naming `field`
// when malformed, negative or of the wrong length.
std::vector<Decimal> parse_amounts(const std::string& text, int ndevs, const std::string& field);

// The limits in the placement's memory ticks; a limit with more decimals
// than the placement's memory raises the placement's scale.
std::vector<Memory> memory_limits_for(Placement& placement, const std::string& text, const std::string& field);

}  // namespace tessel
