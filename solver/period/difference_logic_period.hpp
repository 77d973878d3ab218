// A period question of the cyclic-order search asked in one solver call
// (docs/algorithms.md, "Measured costs"): the phases become integer
// variables of the backend, and every difference the order literals may
// select (cyclic_order_encoding.hpp) is added, guarded by those literals,
// at the period asked. An arithmetic solver (Z3) then propagates cycles of
// the difference graph during its search, instead of the lazy loop's one
// Boolean answer and one learned clause per round trip; the question
// "no repetend with period <= P", where the lazy loop needs hundreds of SAT
// calls, is one refutation.
//
// Only for backends whose integers are arithmetic: on an order-encoding SAT
// backend a phase of 10^4 ticks would be 10^4 literals, the unit-step
// blow-up again. One backend holds the questions of several periods, each
// under its own literal, so what it learns carries over between questions.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/cyclic_order_encoding.hpp"
#include "solver/modulo/max_cycle_ratio.hpp"

namespace tessel {

// The answer to "a repetend with period <= target?": when Sat, the smallest
// period of the orders found (<= target), its exact ratio, and starts at it.
struct PeriodReply {
  Answer answer = Answer::Unknown;
  Time period = 0;
  Ratio ratio;
  std::vector<Time> starts;
};

// A Z3 backend of its own with the cyclic-order encoding on it, for a
// search whose own backend cannot hold the phases (CaDiCaL).
struct SideQuestions {
  std::unique_ptr<Backend> backend;
  std::unique_ptr<CyclicOrderEncoding> encoding;     // held apart: the questions refer to it
  std::unique_ptr<class PhaseQuestions> questions;  // null: the deadline struck while encoding
};
// None (questions null) also when the window has more pairs of blocks on a
// device than kMaxSidePairs: each period question adds four constraints per
// pair to Z3, and such a window is past what it answers in time.
SideQuestions side_questions(const Placement& window, const std::vector<long long>& memory_limit,
                             int max_in_flight, const ModuloRules& rules, const Deadline& deadline);
// Not a knob (solver/knobs/tuning.hpp): a size guard like encoding_budget.hpp's.
inline constexpr long long kMaxSidePairs = 200000;

class PhaseQuestions {
 public:
  // `encoding` was built on `backend` for `window`; both outlive this.
  PhaseQuestions(Backend& backend, const CyclicOrderEncoding& encoding, const Placement& window);

  // False when a constant of the question at `period` does not fit the
  // backend's integers (then the lazy loop must answer it).
  bool fits(Time period) const;

  // The literal that, assumed, says "the phases are a repetend of period
  // `period`" (created with its constraints on first use). Sat under it:
  // the order literals and quotients of the answer are feasible at period.
  // None when the deadline struck while the constraints were added.
  std::optional<Lit> at_period(Time period, const Deadline& deadline);

  // The question at `target` in one solver call (requires fits(target));
  // Unknown when the deadline strikes first.
  PeriodReply ask(Time target, const Deadline& deadline);

  long long solver_calls = 0;

 private:
  Backend& backend_;
  const CyclicOrderEncoding& encoding_;
  const Placement& window_;
  std::vector<IntVar> node_;  // per graph node (window_node, block_node): its phase
  std::map<Time, Lit> periods_;
};

}  // namespace tessel
