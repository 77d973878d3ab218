// The solver facade (docs/algorithms.md, "Backends"): the handful of verbs every
// encoding in solver/ is written against. A backend is one file implementing
// them; Z3 (SMT, integer arithmetic) and CaDiCaL (SAT, order encoding) are
// the two today, and a third is one more file plus a line in make_backend.
//
// The model is finite-domain: Boolean literals, integer variables with a
// closed domain [lo, hi], and constraints over them. Everything a schedule
// search needs is one of: a clause, a guarded difference `x - y >= c`, a
// linear bound over literals and integers, and "these intervals do not
// overlap" on a line or on a circle. Bounds that a search moves (period,
// makespan, latency, K) are tested under assumptions so that an incremental
// backend keeps what it learned.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sat/answer.hpp"
#include "sat/deadline.hpp"

namespace tessel {

// DIMACS-style: variable v >= 1 is `v`, its negation `-v`.
struct Lit {
  int code = 0;
  Lit operator~() const { return {-code}; }
  bool operator==(const Lit&) const = default;
};

struct IntVar {
  int index = -1;
};

// sum coef * lit (lit counts 1 when true) + sum coef * value(var).
struct LinearSum {
  std::vector<std::pair<long long, Lit>> bools;
  std::vector<std::pair<long long, IntVar>> ints;
};

// A question split into cubes (sat/cube_split.hpp): conjunctions of
// literals whose disjunction holds in every solution, so that the question
// is unsatisfiable exactly when every cube is. `answer` Unsat: the split
// itself refuted the question (no cubes); Unknown: the cubes are to be
// solved. `offered` false: the backend does not split (the caller solves
// the question whole).
struct CubeSplit {
  bool offered = false;
  Answer answer = Answer::Unknown;
  std::vector<std::vector<Lit>> cubes;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;

  virtual Lit true_lit() = 0;
  virtual Lit new_bool() = 0;
  virtual IntVar new_int(int lo, int hi) = 0;  // inclusive domain, lo <= hi
  // [x <= value]; the constant true/false literal outside the domain.
  virtual Lit at_most(IntVar x, int value) = 0;

  virtual void add_clause(const std::vector<Lit>& lits) = 0;
  // guard (conjunction) implies x - y >= c.
  virtual void add_difference(IntVar x, IntVar y, int c, const std::vector<Lit>& guard = {}) = 0;
  // guard implies sum <= bound.
  virtual void add_linear_at_most(const LinearSum& sum, long long bound,
                                  const std::vector<Lit>& guard = {}) = 0;
  // The intervals [start_i, start_i + span_i) are pairwise disjoint.
  virtual void add_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans) = 0;
  // The same for optional intervals: interval i takes part only when
  // present[i] holds (true_lit() for one that always does). An absent
  // interval occupies nothing, so a run that may or may not happen (a
  // recompute chosen per micro-batch) shares the device's exclusivity.
  virtual void add_optional_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                                       const std::vector<Lit>& present) = 0;
  // guard implies the same on a circle of length `period`: intervals taken
  // modulo period (an interval may wrap past the end of the window). An
  // interval longer than the circle makes the guard false. The guard lets one
  // solver hold the circles of several periods, one selected per question.
  virtual void add_no_overlap_modulo(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                                     int period, const std::vector<Lit>& guard = {}) = 0;

  virtual Answer solve(const std::vector<Lit>& assumptions, const Deadline& deadline) = 0;
  // Up to 2^depth cubes, each extending `assumptions`, covering every
  // solution of the clauses added so far under them; the split literals
  // chosen by the backend's lookahead within the deadline. The default
  // offers none (Z3 keeps the whole question on one solver).
  virtual CubeSplit split_into_cubes(int depth, const Deadline& deadline, const std::vector<Lit>& assumptions) {
    (void)depth;
    (void)deadline;
    (void)assumptions;
    return {};
  }
  // Learned-clause sharing between solvers of the same encoding (the period
  // race, solver/period/scheduler.hpp): after share_learned(longest), the clauses
  // of at most `longest` literals the solver learns are kept (0: none), and
  // take_learned() hands over those kept since its last call; add_learned()
  // adds clauses another solver of the same encoding learned (implied by
  // the encoding, so adding them changes no answer). Literal codes as in
  // Lit. The default shares nothing.
  virtual void share_learned(int longest) { (void)longest; }
  virtual std::vector<std::vector<int>> take_learned() { return {}; }
  virtual void add_learned(const std::vector<std::vector<int>>& clauses) { (void)clauses; }
  // A hint, not a constraint: the solver's decisions on x lean towards
  // `value` (solution-guided search: started from a known schedule's values,
  // a satisfiable question close to it is answered by a schedule close to
  // it). Changes no answer. The default ignores it.
  virtual void prefer(IntVar x, int value) {
    (void)x;
    (void)value;
  }
  // Values of the last Sat answer.
  virtual bool value(Lit lit) = 0;
  virtual int value(IntVar x) = 0;

  // The large adders (add_no_overlap over many intervals: quadratic pairs
  // for Z3, a constraint per step for CaDiCaL) stop part way once `deadline`
  // passes, leaving the encoding incomplete: whoever builds with a deadline
  // checks it after building and drops the encoding when it expired (a
  // deadline never comes back), and sets none again once the encoding is
  // whole. Without one, they always finish.
  void stop_building_at(const Deadline& deadline) { build_deadline_ = deadline; }

 protected:
  bool building_stopped() const { return build_deadline_.expired(); }

 private:
  Deadline build_deadline_ = Deadline::none();
};

// Measured alternatives inside a backend (solver/knobs/tuning.hpp sets them):
// CaDiCaL's cardinality encoding for memory sums (0 totalizer, 1 sequential
// counter) and its configuration (0 default, 1 "sat", 2 "unsat"); its
// no-overlap encoding on a line (0 the smaller, sat/no_overlap_size.hpp; 1
// time-indexed, 2 pairwise: the tests compare the two).
struct BackendSettings {
  int cardinality = 0;
  int configuration = 0;
  int no_overlap = 0;
};

// "z3" or "cadical"; throws std::invalid_argument for anything else.
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendSettings& settings = {});
std::vector<std::string> backend_names();

// Frees a solver on a detached thread. Tearing down a large encoding takes
// seconds; once the time limit has passed, the answer should not wait for
// it. What is not freed by exit is still reachable from that thread (no
// leak report under LeakSanitizer) and goes back with the process.
void release_in_background(std::unique_ptr<Backend> backend);

}  // namespace tessel
