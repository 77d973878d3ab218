// A colour for every block of a placement, the same on every run: blocks of
// one pipeline stage share a hue (the forward of stage 3 and its backward
// look related), the kind sets the shade (forward light, backward and input
// backward dark, weight backward pale, other in between), and blocks without
// a stage get a hue of their own. Hues step by the golden angle, so that
// neighbouring stages differ strongly whatever their number. Two blocks
// never share a colour: a second block of the same stage and kind moves to a
// hue of its own.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct BlockColour {
  std::string fill;  // "#rrggbb"
  std::string text;  // black or white, whichever reads on `fill`
};

std::vector<BlockColour> block_palette(const Placement& placement);

}  // namespace tessel
