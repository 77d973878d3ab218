// The palette: a hue family per stage (or per stage-less block), a lightness
// per kind, HSL turned into RGB by the usual formula.
#include "model/formats/block_palette.hpp"

#include <cmath>
#include <map>
#include <set>

namespace tessel {

namespace {

double lightness_of(BlockKind kind) {
  switch (kind) {
    case BlockKind::Forward: return 0.66;
    case BlockKind::Backward: return 0.38;
    case BlockKind::BackwardInput: return 0.44;
    case BlockKind::BackwardWeight: return 0.84;
    case BlockKind::Other: return 0.55;
  }
  return 0.55;
}

std::string hex_of(double hue_degrees, double saturation, double lightness) {
  const double c = (1 - std::fabs(2 * lightness - 1)) * saturation;
  const double h = std::fmod(hue_degrees, 360.0) / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1) r = c, g = x;
  else if (h < 2) r = x, g = c;
  else if (h < 3) g = c, b = x;
  else if (h < 4) g = x, b = c;
  else if (h < 5) r = x, b = c;
  else r = c, b = x;
  const double m = lightness - c / 2;
  static const char* digits = "0123456789abcdef";
  std::string out = "#";
  for (double channel : {r, g, b}) {
    const int value = static_cast<int>(std::lround((channel + m) * 255));
    out += digits[value / 16];
    out += digits[value % 16];
  }
  return out;
}

// Relative luminance (sRGB weights, no gamma: enough to pick black or white).
bool is_dark(const std::string& hex) {
  auto channel = [&](int at) { return std::stoi(hex.substr(at, 2), nullptr, 16) / 255.0; };
  return 0.299 * channel(1) + 0.587 * channel(3) + 0.114 * channel(5) < 0.55;
}

}  // namespace

std::vector<BlockColour> block_palette(const Placement& placement) {
  // Families in a fixed order: the stages by number, then stage-less blocks
  // (and repeated stage-kind pairs) by block index.
  std::map<int, int> stage_family;
  for (const Block& block : placement.blocks)
    if (block.stage) stage_family.emplace(*block.stage, 0);
  int families = 0;
  for (auto& [stage, family] : stage_family) family = families++;
  std::set<std::pair<int, BlockKind>> taken;
  std::set<std::string> used;
  std::vector<BlockColour> colours;
  for (const Block& block : placement.blocks) {
    int family = block.stage ? stage_family[*block.stage] : -1;
    if (family < 0 || !taken.insert({family, block.kind}).second) family = families++;
    std::string fill;
    // The golden angle keeps hues apart; a rounding clash moves on (a
    // placement of thousands of blocks runs out of hues: then give up).
    for (int attempt = 0; fill.empty() || (used.count(fill) && attempt < 64); ++attempt)
      fill = hex_of(20.0 + 137.508 * (family + attempt * 0.37), 0.62, lightness_of(block.kind));
    used.insert(fill);
    colours.push_back({fill, is_dark(fill) ? "#ffffff" : "#000000"});
  }
  return colours;
}

}  // namespace tessel
