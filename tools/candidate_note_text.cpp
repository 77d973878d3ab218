// The candidates' notes in words (see the header). Times are in the
// placement's ticks, as the search counts them.
#include "tools/candidate_note_text.hpp"

namespace tessel {
namespace {

std::string number(const std::vector<long long>& numbers, size_t index) {
  return index < numbers.size() ? std::to_string(numbers[index]) : "?";
}

// The repetend's choice: "2 of 4 offered recomputes chosen", with offloads
// beside when offered (numbers 4 and 5), alone when only they were.
std::string chosen_counts(const std::vector<long long>& n) {
  const bool offloads = n.size() > 5 && n[5] > 0;
  const std::string recomputes = number(n, 0) + " of " + number(n, 1) + " offered recomputes chosen";
  if (!offloads) return recomputes;
  const std::string copies = number(n, 4) + " of " + number(n, 5) + " offered offloads chosen";
  return number(n, 1) == "0" ? copies : recomputes + ", " + copies;
}

std::string kind_text(CandidateNote kind, const std::vector<long long>& n) {
  switch (kind) {
    case CandidateNote::Text: return "";
    case CandidateNote::ListOutOfTime:
      return "none within the memory limits before its time ran out (--tune list_seconds)";
    case CandidateNote::ListNoRuleFits: return "no rule fits the memory limits";
    case CandidateNote::ListBestOfRuns:
      return "best of " + number(n, 0) + " list-scheduling runs within the memory limits";
    case CandidateNote::TradingNoRun: return "no run finished within the memory limits";
    case CandidateNote::ReplayBestOf:
      return "the family's own order run on this placement (best of " + number(n, 0) + " fitting families)";
    case CandidateNote::EndsTransferred:
      return "the best (" + number(n, 0) + ") with the warmup or cooldown of a " + number(n, 1) +
             "-micro-batch schedule shortened to " + number(n, 2) + " (from " + number(n, 3) + "), " + number(n, 4) +
             " of " + number(n, 5) + " spliced orders shorter and within the limits";
    case CandidateNote::OrderMoves:
      return "the best's (" + number(n, 0) +
             ") device orders, one instance moved per step along the longest path (tabu search): " + number(n, 1) +
             " shorter schedules in " + number(n, 2) + " steps, " + number(n, 3) + " orders run, " + number(n, 4) +
             " restarts";
    case CandidateNote::RecomputeChosen:
      return chosen_counts(n) +
             (number(n, 2) == "1" ? ", every micro-batch one period apart"
                                  : " (per position in windows of " + number(n, 2) + "), every window one period apart") +
             (number(n, 3) == "1" ? ", compacted" : "");
  }
  return "";
}

}  // namespace

std::string candidate_note_text(const Candidate& candidate) {
  return kind_text(candidate.note_kind, candidate.note_numbers) + candidate.note;
}

}  // namespace tessel
