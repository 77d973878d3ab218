// solve()'s notes in words (see the header). Seconds are printed to a tenth,
// as the command line prints every duration it estimates.
#include "tools/search_note_text.hpp"

#include <cstdio>
#include <optional>

#include "tools/candidate_note_text.hpp"

namespace tessel {
namespace {

std::string tenths(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", seconds);
  return text;
}

std::string at_total(const SearchNote& note) {
  return std::to_string(note.total_micros) + " micro-batches";
}

// "what was said (the note)", "the note (what was said)", or "what was
// said; the note": each kind has one place, except AnswerNearLimit, which
// leads when it turned a found answer into a time-out.
enum class Place { Remark, Lead, After };

Place place_of(const SearchNote& note) {
  switch (note.kind) {
    case SearchNoteKind::StoppedToVerify: return Place::Remark;
    case SearchNoteKind::AnswerNearLimit: return note.headline ? Place::Lead : Place::After;
    case SearchNoteKind::StoppedBuildingAnswer: return Place::Lead;
    default: return Place::After;
  }
}

std::string joined(const std::string& said, const SearchNote& note) {
  const std::string words = search_note_text(note);
  if (said.empty()) return words;
  switch (place_of(note)) {
    case Place::Remark: return said + " (" + words + ")";
    case Place::Lead: return words + " (" + said + ")";
    case Place::After: break;
  }
  return said + "; " + words;
}

// The notes that take the whole message into their sentence.
std::optional<std::string> wrapped(const std::string& said, const SearchNote& note) {
  switch (note.kind) {
    case SearchNoteKind::MemoryTraded:
      return "no schedule keeps every activation within the limit (" + said + "); the answer trades memory for time";
    case SearchNoteKind::RecomputingFoundNone: {
      // The derived search's candidate: its note is Text (the reason it
      // found none), which holds no time to say in the placement's units.
      const std::string why = note.candidate ? candidate_note_text(*note.candidate, 0) : std::string();
      return "no schedule that keeps every activation exists (" + said +
             "), and recomputing every offered forward found none" + (why.empty() ? "" : " (" + why + ")") +
             "; schedules that mix the choices per micro-batch are not searched, so none is proven impossible";
    }
    case SearchNoteKind::RecomputingAnswers:
      return "every schedule that keeps every activation is proven impossible (" + said +
             "); the answer recomputes every offered forward";
    default: return std::nullopt;
  }
}

}  // namespace

std::string search_note_text(const SearchNote& note) {
  switch (note.kind) {
    case SearchNoteKind::StoppedToVerify:
      return "stopped up to " + tenths(note.seconds) + " s before the limit, the time to verify an answer of that size";
    case SearchNoteKind::AnswerNearLimit:
      return "too close to the time limit to build and verify the schedule at " + at_total(note) + " (about " +
             tenths(note.seconds) + " s): the answer is the repetend schedule (tessel unroll extends it)";
    case SearchNoteKind::AnswerBeyondRange:
      return "the real times are beyond the search's range of " + std::to_string(note.ticks) +
             " ticks per schedule, so the schedule at " + at_total(note) +
             " was not searched: the answer is the repetend schedule found at --resolution (tessel unroll extends it)";
    case SearchNoteKind::InterruptedBeforeAnswer:
      return "interrupted before the schedule at " + at_total(note) +
             " was built: the answer is the repetend schedule (tessel unroll extends it)";
    case SearchNoteKind::StoppedBuildingAnswer:
      return std::string(note.interrupted ? "interrupted" : "time limit reached") + " while building the answer at N";
    case SearchNoteKind::MemoryTraded: return "the answer trades memory for time";
    case SearchNoteKind::BlockAboveLimit:
      return "block " + note.block + " alone needs more than device " + std::to_string(note.device) +
             "'s memory limit, under any choice of keeping, recomputing or offloading";
    case SearchNoteKind::RecomputingFoundNone:
      return "recomputing every offered forward found none; schedules that mix the choices per micro-batch are not "
             "searched, so none is proven impossible";
    case SearchNoteKind::RecomputingAnswers: return "the answer recomputes every offered forward";
  }
  return "";
}

std::string search_message_text(const SearchReport& report) {
  std::string said = report.message;
  for (const SearchNote& note : report.notes) {
    if (std::optional<std::string> whole = wrapped(said, note)) said = *whole;
    else said = joined(said, note);
  }
  return said;
}

}  // namespace tessel
