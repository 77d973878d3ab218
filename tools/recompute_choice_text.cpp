// The repetend's recompute choice in words (see the header).
#include "tools/recompute_choice_text.hpp"

namespace tessel {
namespace {

// " (position 1)", " (positions 0, 1)".
std::string positions_text(const std::vector<int>& positions) {
  std::string words = positions.size() == 1 ? " (position " : " (positions ";
  for (size_t i = 0; i < positions.size(); ++i) words += (i ? ", " : "") + std::to_string(positions[i]);
  return words + ")";
}

}  // namespace

std::string recompute_choice_text(const PeriodReport& period) {
  if (period.recompute_chosen.empty()) return "nothing recomputed";
  const int k = period.micros_per_window;
  std::string words;
  int choices = 0;
  for (const ChosenRecompute& chosen : period.recompute_chosen) {
    words += (words.empty() ? "" : ", ") + chosen.block;
    choices += static_cast<int>(chosen.positions.size());
    if (k > 1) words += positions_text(chosen.positions);
  }
  words += " recomputed (" + std::to_string(period.recompute_chosen.size()) + " of " +
           std::to_string(period.recompute_offers) + " offering forwards";
  if (k > 1)
    words += ", " + std::to_string(choices) + " of " + std::to_string(period.recompute_offers * k) +
             " choices in windows of " + std::to_string(k);
  return words + ")";
}

}  // namespace tessel
