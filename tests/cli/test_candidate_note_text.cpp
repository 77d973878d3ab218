// The candidates' notes are data (solver/types/report_types.hpp, CandidateNote and
// its numbers) said in words by tools/candidate_note_text: each kind's words
// carry its numbers and end with the candidate's own note; a search's list
// candidate comes back as the kind with its count of runs.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/search.hpp"
#include "tools/candidate_note_text.hpp"
#include "tools/recompute_choice_text.hpp"

using namespace tessel;

TEST_CASE("candidate notes: each kind in words with its numbers", "[candidate-notes]") {
  Candidate candidate;
  candidate.note = "as built";
  CHECK(candidate_note_text(candidate, 0) == "as built");
  candidate.note_kind = CandidateNote::EndsTransferred;
  candidate.note_numbers = {120, 16, 40, 44, 3, 5};
  candidate.note = " (side by side)";
  CHECK(candidate_note_text(candidate, 0) ==
        "the best (120) with the warmup or cooldown of a 16-micro-batch schedule shortened to 40 (from 44), 3 of 5 "
        "spliced orders shorter and within the limits (side by side)");
  candidate.note.clear();
  candidate.note_kind = CandidateNote::OrderMoves;
  candidate.note_numbers = {90, 2, 300, 1200, 1};
  CHECK(candidate_note_text(candidate, 0) ==
        "the best's (90) device orders, one instance moved per step along the longest path (tabu search): 2 shorter "
        "schedules in 300 steps, 1200 orders run, 1 restarts");
  candidate.note_kind = CandidateNote::ReplayBestOf;
  candidate.note_numbers = {7};
  CHECK(candidate_note_text(candidate, 0) == "the family's own order run on this placement (best of 7 fitting families)");
  for (CandidateNote kind : {CandidateNote::ListOutOfTime, CandidateNote::ListNoRuleFits,
                             CandidateNote::ListBestOfRuns, CandidateNote::TradingNoRun}) {
    candidate.note_kind = kind;
    CHECK_FALSE(candidate_note_text(candidate, 0).empty());
    CHECK(std::string(candidate_note_name(kind)) != "text");
  }
}

// Every kind has its words and its name; the times among the numbers are
// said in the placement's units, as the makespans beside them: at one
// decimal 495 ticks is 49.5 (the notes said 495, 100x the makespan of
// 4.95... in a placement of two decimals, before they were data).
TEST_CASE("candidate notes: every kind in words, its times in the placement's units", "[candidate-notes]") {
  Candidate candidate;
  for (int kind = 1; kind <= static_cast<int>(CandidateNote::FullSearchFrom); ++kind) {
    candidate.note_kind = static_cast<CandidateNote>(kind);
    candidate.note_numbers = {495, 500, 505, 510, 1, 2};
    CAPTURE(kind);
    CHECK_FALSE(candidate_note_text(candidate, 1).empty());
    CHECK(std::string(candidate_note_name(candidate.note_kind)) != "text");
  }
  candidate.note_kind = CandidateNote::StagedNotShorter;
  candidate.note_numbers = {495, 500};
  CHECK(candidate_note_text(candidate, 1) == "not built: no staged schedule is shorter than 49.5, the best has 50");
  candidate.note_kind = CandidateNote::StagedBuilt;
  candidate.note_numbers = {1, 2, 45};
  CHECK(candidate_note_text(candidate, 1) == "1 block(s) batched first, 2 last, the rest a repetend of period 4.5");
  candidate.note_kind = CandidateNote::OrderMoves;
  candidate.note_numbers = {33025, 3, 22991, 185900, 119};
  CHECK(candidate_note_text(candidate, 2).rfind("the best's (330.25) device orders", 0) == 0);
  candidate.note_kind = CandidateNote::ShiftsFound;
  candidate.note_numbers = {33025, 100, 2, 5, 0};
  CHECK(candidate_note_text(candidate, 2) ==
        "every instance of the best (330.25) free within 1 of its start, all at once: 2 shorter schedules in 5 "
        "encodings");
  candidate.note_numbers = {33025, 100, 2, 5, 1};
  CHECK(candidate_note_text(candidate, 2).find("(1 questions out of their share)") != std::string::npos);
  candidate.note_kind = CandidateNote::EndsTransferred;
  candidate.note_numbers = {1205, 16, 405, 445, 3, 5};
  CHECK(candidate_note_text(candidate, 1).rfind("the best (120.5) with the warmup or cooldown of a 16-micro-batch "
                                                "schedule shortened to 40.5 (from 44.5)", 0) == 0);
  candidate.note_kind = CandidateNote::FullSearchFrom;
  candidate.note_numbers = {1205, 1};
  CHECK(candidate_note_text(candidate, 1) == "the full encoding started from the best candidate (120.5), optimal for this N");
}

TEST_CASE("candidate notes: a search's list candidate is a kind and its runs", "[candidate-notes]") {
  SearchRequest request;
  request.placement = make_case("xshape", 4, false);
  request.memory_limit.assign(4, 8);
  request.total_micros = 16;
  request.threads = 1;
  request.deadline = Deadline::after_seconds(20);
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.makespan);
  const Candidate* list = nullptr;
  for (const Candidate& candidate : report.makespan->candidates)
    if (candidate.name.rfind("list:", 0) == 0) list = &candidate;
  REQUIRE(list);
  CHECK(list->note_kind == CandidateNote::ListBestOfRuns);
  REQUIRE(list->note_numbers.size() == 1);
  CHECK(list->note_numbers[0] > 0);
  CHECK(candidate_note_text(*list, 0) ==
        "best of " + std::to_string(list->note_numbers[0]) + " list-scheduling runs within the memory limits");
}

TEST_CASE("the repetend's recompute choice is data said in words by tools/", "[candidate-notes][memory-choice]") {
  PeriodReport period;
  period.recompute_offers = 4;
  CHECK(recompute_choice_text(period) == "nothing recomputed");
  period.recompute_chosen = {{"f0", {0}}, {"f2", {0}}};
  CHECK(recompute_choice_text(period) == "f0, f2 recomputed (2 of 4 offering forwards)");
  period.micros_per_window = 2;
  period.recompute_chosen = {{"f0", {0, 1}}, {"f2", {1}}};
  CHECK(recompute_choice_text(period) ==
        "f0 (positions 0, 1), f2 (position 1) recomputed (2 of 4 offering forwards, 3 of 8 choices in windows of 2)");
  Candidate candidate;
  candidate.note_kind = CandidateNote::RecomputeChosen;
  candidate.note_numbers = {3, 8, 2, 1};
  CHECK(candidate_note_text(candidate, 0) ==
        "3 of 8 offered recomputes chosen (per position in windows of 2), every window one period apart, compacted");
  candidate.note_numbers = {2, 4, 1, 0};
  CHECK(candidate_note_text(candidate, 0) == "2 of 4 offered recomputes chosen, every micro-batch one period apart");
  CHECK(std::string(candidate_note_name(CandidateNote::RecomputeChosen)) == "recompute_chosen");
}

TEST_CASE("the repetend's offload choice is said beside the recomputes", "[candidate-notes][memory-choice][offload]") {
  PeriodReport period;
  period.offload_offers = 4;
  CHECK(recompute_choice_text(period) == "nothing recomputed or offloaded");
  period.offload_chosen = {{"f1", {0}}, {"f3", {0}}};
  CHECK(recompute_choice_text(period) == "f1, f3 offloaded (2 of 4 offering forwards)");
  period.recompute_offers = 4;
  period.recompute_chosen = {{"f0", {0}}};
  CHECK(recompute_choice_text(period) ==
        "f0 recomputed (1 of 4 offering forwards); f1, f3 offloaded (2 of 4 offering forwards)");
  period.micros_per_window = 2;
  period.recompute_chosen.clear();
  period.offload_chosen = {{"f1", {1}}};
  CHECK(recompute_choice_text(period) == "f1 (position 1) offloaded (1 of 4 offering forwards, 1 of 8 choices in windows of 2)");
  Candidate candidate;
  candidate.note_kind = CandidateNote::RecomputeChosen;
  candidate.note_numbers = {0, 0, 1, 0, 3, 4};
  CHECK(candidate_note_text(candidate, 0) == "3 of 4 offered offloads chosen, every micro-batch one period apart");
  candidate.note_numbers = {1, 4, 1, 0, 2, 4};
  CHECK(candidate_note_text(candidate, 0) ==
        "1 of 4 offered recomputes chosen, 2 of 4 offered offloads chosen, every micro-batch one period apart");
}
