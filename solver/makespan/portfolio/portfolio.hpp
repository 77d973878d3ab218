// The makespan portfolio (docs/architecture.md): runs a plain list
// of phases (phase.hpp) and owns what they share: the candidates built so
// far, the best (the improvements' start), the closed bound at N, the
// anytime offers (each schedule shorter than all offered before goes to the
// caller as soon as it exists), the judge's verdict on each candidate before
// anything sees it, stop-at-bound (no improvement runs once the best is at
// the bound), the deadline, and the side thread that runs a phase beside the
// others on two threads or more. The phases only build.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/makespan/portfolio/candidates.hpp"
#include "solver/makespan/portfolio/phase.hpp"
#include "solver/makespan/portfolio/placement_facts.hpp"

namespace tessel {

class SideThread;

class Portfolio {
 public:
  Portfolio(const CandidateInput& input, const PlacementFacts& facts);
  ~Portfolio();
  // Runs the phases in order and returns every candidate with the bound.
  Candidates run(const std::vector<Phase>& phases);

  // What the phases read. input(): the current phase's (its deadline may
  // carry a sibling's stop flag).
  const CandidateInput& input() const { return *input_; }
  const PlacementFacts& facts() const { return facts_; }
  const Candidates& so_far() const { return result_; }
  Time bound() const { return result_.bound.value; }
  // The repetend's makespan at N (the first candidate), if it unrolled.
  std::optional<Time> repetend_makespan() const;
  // The shortest makespan offered so far.
  std::optional<Time> shortest() const { return shortest_; }
  // The improvements' start: the best schedule without fused units,
  // recomputes or copies (the shift search may start from a traded one:
  // phases/shift_phase.cpp).
  const Schedule* start() const { return start_; }
  bool above_bound() const { return start_ && makespan(*start_) > bound(); }

  // What the phases hand over. add: judged, listed and offered when shorter
  // than all before; whether the judge admitted it.
  bool add(BuiltCandidate built);
  // An improvement's candidate: admitted, it becomes the start; its gains
  // were offered as found (offer_below) when `offered_as_found`.
  void take(BuiltCandidate built, bool offered_as_found);
  // Offers each schedule an improvement finds as it comes, those shorter
  // than `below` only, and counts each as a gain of the phase running
  // (gained()). One found within offer_interval_seconds of the last offer
  // is held, and offered with the next after that or when the phase
  // returns: each offer is verified, and the device orders find gains ten
  // steps in a row.
  OnShorter offer_below(Time below, const char* phase);
  // A candidate a phase judged itself and found rejected (e.g. built at
  // another N on the way).
  void reject(RejectedCandidate rejected) { result_.rejected.push_back(std::move(rejected)); }
  // The solved bounds raised the bound for a best of `asked_at`.
  void raise(const MakespanBound& bound, Time asked_at, bool ends_ran);

  // The deadline of the improvement phase now running, `phase` in the
  // budget's log: `seconds`, or with a time limit `share` of the time left
  // if more, ended early after improve_stall_seconds without a gain or when
  // the phase's own progress rule gives up (solver/types/budget_log.hpp);
  // its return is logged when run() gets it back.
  // `stalls` false: no stall (the shift search, whose questions take longer
  // than a stretch and which gives its time back by its own rule).
  Deadline grant_improvement(BudgetPhase phase, double seconds, double share, bool stalls = true);
  // The improvement phase now running found a shorter schedule (restarts
  // its stretch; offer_below's callbacks call it too).
  void gained();

 private:
  bool begin_improvements(const std::vector<Phase>& phases);
  void run_phase(const std::vector<Phase>& phases, size_t& index);
  void run_pair(const Phase& main, const Phase& side);
  void start_early(const Phase& phase);
  void collect_early();
  void end_grant();
  void offer_or_hold(const Schedule& shorter, const char* phase);
  void offer_held();
  bool side_allowed() const;
  std::unique_ptr<SideThread> start_side(const Phase& phase, std::function<void(bool)> stops_main);

  const CandidateInput& own_input_;
  const CandidateInput* input_;
  const PlacementFacts& facts_;
  Candidates result_;
  std::optional<Time> shortest_;
  const Schedule* start_ = nullptr;
  bool improving_ = false;
  // The improvement phase running on this thread: its stall, deadline and
  // log entry (one at a time).
  std::unique_ptr<Stall> stall_;
  Deadline granted_;
  std::optional<size_t> grant_entry_;
  // The latest gain held back (offer_below) and when the last went out.
  struct Held {
    Schedule schedule;
    const char* phase;
  };
  std::optional<Held> held_;
  std::chrono::steady_clock::time_point last_offer_{};
  // The phase started early on the side thread, and what it needs.
  struct Early;
  std::unique_ptr<Early> early_;
};

// An aperiodic schedule at N, listed as a candidate named `name`.
BuiltCandidate aperiodic_candidate(std::string name, Schedule schedule,
                                   std::chrono::steady_clock::time_point begin, std::string note);

// The shortest schedule at N among `candidates` without fused units,
// recomputes or copies (the full search's encoding has no fused units, and
// the improvements after the shift search move instances only).
const Schedule* best_plain(const std::vector<BuiltCandidate>& candidates);

// The verdict of input.judge on `built` (see CandidateInput::judge): a
// rejected one keeps its name, loses its schedule, and is recorded in
// `rejected`. Whether it was admitted.
bool admitted(const CandidateInput& input, BuiltCandidate& built, std::vector<RejectedCandidate>& rejected);

}  // namespace tessel
