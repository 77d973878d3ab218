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

// One list in words: "f0, f2 recomputed (2 of 4 offering forwards)".
std::string chosen_text(const std::vector<ChosenRecompute>& list, int offers, int k, const char* verb) {
  std::string words;
  int choices = 0;
  for (const ChosenRecompute& chosen : list) {
    words += (words.empty() ? "" : ", ") + chosen.block;
    choices += static_cast<int>(chosen.positions.size());
    if (k > 1) words += positions_text(chosen.positions);
  }
  words += std::string(" ") + verb + " (" + std::to_string(list.size()) + " of " + std::to_string(offers) +
           " offering forwards";
  if (k > 1)
    words += ", " + std::to_string(choices) + " of " + std::to_string(offers * k) + " choices in windows of " +
             std::to_string(k);
  return words + ")";
}

}  // namespace

std::string recompute_choice_text(const PeriodReport& period) {
  if (period.recompute_chosen.empty() && period.offload_chosen.empty())
    return period.offload_offers > 0 ? "nothing recomputed or offloaded" : "nothing recomputed";
  const int k = period.micros_per_window;
  std::string words;
  if (!period.recompute_chosen.empty())
    words = chosen_text(period.recompute_chosen, period.recompute_offers, k, "recomputed");
  if (!period.offload_chosen.empty())
    words += (words.empty() ? "" : "; ") + chosen_text(period.offload_chosen, period.offload_offers, k, "offloaded");
  return words;
}

}  // namespace tessel
