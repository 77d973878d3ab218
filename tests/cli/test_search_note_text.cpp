// solve()'s notes are data (solver/types/search_types.hpp, SearchNote) said in
// words by tools/search_note_text: the message the command line prints is
// the strategy's, then each note in the order taken, and a note that turned
// a found answer into a time-out leads with what was said in parentheses.
// The sentences are the ones solve() used to write itself, word for word.
#include <catch2/catch.hpp>

#include "solver/search.hpp"
#include "tools/search_note_text.hpp"

using namespace tessel;

namespace {

SearchNote note_of(SearchNoteKind kind, long long total_micros = 0, double seconds = 0) {
  SearchNote note;
  note.kind = kind;
  note.total_micros = total_micros;
  note.seconds = seconds;
  return note;
}

}  // namespace

TEST_CASE("search notes: the answer near the limit leads or follows", "[search-notes]") {
  SearchReport report;
  report.message = "time limit reached while deciding period 9";
  report.notes.push_back(note_of(SearchNoteKind::StoppedToVerify, 0, 0.26));
  CHECK(search_message_text(report) ==
        "time limit reached while deciding period 9 (stopped up to 0.3 s before the limit, the time to verify an "
        "answer of that size)");
  SearchNote near = note_of(SearchNoteKind::AnswerNearLimit, 128, 4.04);
  report.notes.push_back(near);
  const std::string words =
      "too close to the time limit to build and verify the schedule at 128 micro-batches (about 4.0 s): the answer "
      "is the repetend schedule (tessel unroll extends it)";
  CHECK(search_message_text(report) ==
        "time limit reached while deciding period 9 (stopped up to 0.3 s before the limit, the time to verify an "
        "answer of that size); " + words);
  report.message = "windows of k >= 2 were not decided";
  report.notes = {near};
  report.notes.back().headline = true;
  CHECK(search_message_text(report) == words + " (windows of k >= 2 were not decided)");
  report.message.clear();
  CHECK(search_message_text(report) == words);
}

TEST_CASE("search notes: interrupts, the time limit and the search's range", "[search-notes]") {
  SearchReport report;
  report.notes.push_back(note_of(SearchNoteKind::InterruptedBeforeAnswer, 32));
  CHECK(search_message_text(report) ==
        "interrupted before the schedule at 32 micro-batches was built: the answer is the repetend schedule (tessel "
        "unroll extends it)");
  SearchNote beyond = note_of(SearchNoteKind::AnswerBeyondRange, 16);
  beyond.ticks = 2147483647;
  report.notes = {beyond};
  report.message = "a note";
  CHECK(search_message_text(report) ==
        "a note; the real times are beyond the search's range of 2147483647 ticks per schedule, so the schedule at 16 "
        "micro-batches was not searched: the answer is the repetend schedule found at --resolution (tessel unroll "
        "extends it)");
  SearchNote stopped = note_of(SearchNoteKind::StoppedBuildingAnswer);
  stopped.headline = true;
  report.notes = {stopped};
  CHECK(search_message_text(report) == "time limit reached while building the answer at N (a note)");
  report.notes.back().interrupted = true;
  CHECK(search_message_text(report) == "interrupted while building the answer at N (a note)");
}

TEST_CASE("search notes: memory traded and recomputing wrap what was said", "[search-notes]") {
  SearchReport report;
  report.message = "no repetend fits";
  report.notes.push_back(note_of(SearchNoteKind::MemoryTraded));
  CHECK(search_message_text(report) ==
        "no schedule keeps every activation within the limit (no repetend fits); the answer trades memory for time");
  report.notes = {note_of(SearchNoteKind::RecomputingAnswers)};
  CHECK(search_message_text(report) ==
        "every schedule that keeps every activation is proven impossible (no repetend fits); the answer recomputes "
        "every offered forward");
  SearchNote none = note_of(SearchNoteKind::RecomputingFoundNone);
  none.candidate = Candidate{};
  none.candidate->note = "no schedule";
  report.notes = {none};
  CHECK(search_message_text(report) ==
        "no schedule that keeps every activation exists (no repetend fits), and recomputing every offered forward "
        "found none (no schedule); schedules that mix the choices per micro-batch are not searched, so none is "
        "proven impossible");
  SearchNote block = note_of(SearchNoteKind::BlockAboveLimit);
  block.block = "f1";
  block.device = 2;
  report.notes = {block};
  CHECK(search_message_text(report) ==
        "no repetend fits; block f1 alone needs more than device 2's memory limit, under any choice of keeping, "
        "recomputing or offloading");
  for (SearchNoteKind kind : {SearchNoteKind::StoppedToVerify, SearchNoteKind::MemoryTraded,
                              SearchNoteKind::RecomputingAnswers, SearchNoteKind::BlockAboveLimit})
    CHECK_FALSE(std::string(search_note_name(kind)).empty());
}
