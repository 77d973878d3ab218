// The candidates' notes in words (see the header). The numbers marked
// "time" in report_types.hpp are ticks of the placement and are said in its
// units, as the makespans beside them (49.5, not 495).
#include "tools/candidate_note_text.hpp"

#include "model/quantity.hpp"

namespace tessel {
namespace {

std::string number(const std::vector<long long>& numbers, size_t index) {
  return index < numbers.size() ? std::to_string(numbers[index]) : "?";
}

// A kind's numbers with the time decimals they are said in.
struct Numbers {
  const std::vector<long long>& n;
  int time_decimals = 0;
  std::string operator[](size_t index) const { return number(n, index); }
  std::string time(size_t index) const {
    return index < n.size() ? format_ticks(n[index], time_decimals) : "?";
  }
};

std::string staged_text(CandidateNote kind, const Numbers& n) {
  switch (kind) {
    case CandidateNote::StagedNotShorter:
      return "not built: no staged schedule is shorter than " + n.time(0) + ", the best has " + n.time(1);
    case CandidateNote::StagedNoTime: return "no time left";
    case CandidateNote::StagedNone:
      return "no memory-free all-device block to batch, or its middle search found nothing in time";
    case CandidateNote::StagedBuilt:
      return n[0] + " block(s) batched first, " + n[1] + " last, the rest a repetend of period " + n.time(2);
    default: return "";
  }
}

std::string improvement_text(CandidateNote kind, const Numbers& n) {
  switch (kind) {
    case CandidateNote::ShiftsFound:
      return "every instance of the best (" + n.time(0) + ") free within " + n.time(1) +
             " of its start, all at once: " + n[2] + " shorter schedules in " + n[3] + " encodings" +
             (n[4] == "0" ? "" : " (" + n[4] + " questions out of their share)");
    case CandidateNote::WindowsResolved:
      return "candidates compacted, then windows re-solved: " + n[0] + " shortened it, " + n[1] + " moves of " + n[2] +
             " windows (" + n[3] + " out of time) in " + n[4] + " rounds, " + n[5] + " restarts";
    case CandidateNote::FullSearchFrom:
      return "the full encoding started from the best candidate (" + n.time(0) + ")" +
             (n[1] == "1" ? ", optimal for this N" : ", stopped by its time budget");
    case CandidateNote::EndsTransferred:
      return "the best (" + n.time(0) + ") with the warmup or cooldown of a " + n[1] +
             "-micro-batch schedule shortened to " + n.time(2) + " (from " + n.time(3) + "), " + n[4] + " of " + n[5] +
             " spliced orders shorter and within the limits";
    case CandidateNote::OrderMoves:
      return "the best's (" + n.time(0) +
             ") device orders, one instance moved per step along the longest path (tabu search): " + n[1] +
             " shorter schedules in " + n[2] + " steps, " + n[3] + " orders run, " + n[4] + " restarts";
    default: return "";
  }
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

std::string kind_text(CandidateNote kind, const Numbers& numbers) {
  const std::vector<long long>& n = numbers.n;
  switch (kind) {
    case CandidateNote::Text: return "";
    case CandidateNote::RepetendUnrolled: return "warmup, the window repeated, cooldown";
    case CandidateNote::RepetendNone: return "no repetend schedule";
    case CandidateNote::ModuloCompacted:
      return "the repetend's pattern for every micro-batch, each instance then as early as it can";
    case CandidateNote::VariantBestOf:
      return "another window of the same period and latency (best of " + number(n, 0) +
             " built), warmup and cooldown shortened around it";
    case CandidateNote::StagedNotShorter:
    case CandidateNote::StagedNoTime:
    case CandidateNote::StagedNone:
    case CandidateNote::StagedBuilt: return staged_text(kind, numbers);
    case CandidateNote::ShiftsFound:
    case CandidateNote::WindowsResolved:
    case CandidateNote::FullSearchFrom:
    case CandidateNote::EndsTransferred:
    case CandidateNote::OrderMoves: return improvement_text(kind, numbers);
    case CandidateNote::ListOutOfTime:
      return "none within the memory limits before its time ran out (--tune list_seconds)";
    case CandidateNote::ListNoRuleFits: return "no rule fits the memory limits";
    case CandidateNote::ListBestOfRuns:
      return "best of " + number(n, 0) + " list-scheduling runs within the memory limits";
    case CandidateNote::TradingNoRun: return "no run finished within the memory limits";
    case CandidateNote::ReplayBestOf:
      return "the family's own order run on this placement (best of " + number(n, 0) + " fitting families)";
    case CandidateNote::RecomputeChosen:
      return chosen_counts(n) +
             (number(n, 2) == "1" ? ", every micro-batch one period apart"
                                  : " (per position in windows of " + number(n, 2) + "), every window one period apart") +
             (number(n, 3) == "1" ? ", compacted" : "");
  }
  return "";
}

}  // namespace

std::string candidate_note_text(const Candidate& candidate, int time_decimals) {
  return kind_text(candidate.note_kind, Numbers{candidate.note_numbers, time_decimals}) + candidate.note;
}

}  // namespace tessel
