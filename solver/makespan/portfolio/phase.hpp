// A phase of the makespan portfolio: one way to get a schedule of N
// micro-batches (a construction) or a shorter one from the best in hand (an
// improvement), or a higher bound (a solved bound). The portfolio runs a
// plain list of them (phases/phase_list.cpp); each says whether it is
// wanted given what the portfolio holds (the best, the bound, the time left)
// and runs within its own budget, handing what it built to the portfolio.
#pragma once

#include <functional>
#include <optional>

#include "solver/makespan/portfolio/candidates.hpp"

namespace tessel {

class Portfolio;
struct PlacementFacts;

enum class Stage {
  Construction,  // builds a schedule from the placement or the period's answer; runs whatever the bound
  Improvement,   // starts from the best in hand; none runs once the best is at the bound
};

// What a phase started on the side thread gets: copies, so that the main
// thread goes on (its deadline carries the side thread's stop flag).
struct SideCall {
  const CandidateInput* input = nullptr;  // offers off, the deadline the side's own
  const PlacementFacts* facts = nullptr;
  Schedule start;                         // the best when it started
  Time bound = 0;                         // the bound when it started
  Candidates so_far;                      // its bound and exact-ends record then (no candidates)
};

struct Phase {
  const char* name = "";
  Stage stage = Stage::Construction;
  // Whether it runs, given the portfolio (its best, bound and time left).
  std::function<bool(const Portfolio&)> wanted;
  // Runs it on the portfolio's thread: builds within its budget and hands
  // its candidates to the portfolio (add or take).
  std::function<void(Portfolio&)> run;
  // With two threads or more: how it runs on the side thread instead
  // (empty: never there). `early`: started as soon as the improvements
  // begin and collected where it stands in the list; otherwise started
  // beside the phase before it and collected when that one ends.
  std::function<std::optional<BuiltCandidate>(const SideCall&)> beside;
  bool early = false;
  // Appended to its candidate's note when it ran on the side thread.
  const char* side_note = "";
  // An early one is waited for at its place until it had these seconds
  // (counted from its start), unless the best reached the bound.
  std::function<double(const CandidateInput&)> side_seconds;
  // Whether it still runs once the deadline passed (the repetend unrolled,
  // the cheap constructions that list why they built nothing).
  bool past_deadline = false;
};

}  // namespace tessel
