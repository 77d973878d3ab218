// The CaDiCaL backend (docs/algorithms.md, "Backends"): the facade of backend.hpp
// compiled to CNF for one incremental CaDiCaL instance.
//
//  - integers: the order encoding (order_encoding.hpp), so start steps and
//    phases are chains of literals [x <= v];
//  - differences (dependencies): one binary clause per value, plus the guard;
//  - exclusivity on a line or on the repetend's circle: an occupancy literal
//    per (interval, step) forced by two order literals, then at most one
//    occupant per step (at_most_one.hpp); modulo a period the occupancy of a
//    phase collects every multiple of the period the start may take. On a
//    line, when smaller (no_overlap_size.hpp: long spans on narrow domains),
//    an order literal per pair that may meet instead, selecting one of two
//    differences;
//  - linear sums: of a few integers (a tie s = q P + tau) by enumeration
//    (linear_order_cnf.hpp), else (memory) pseudo_boolean_cnf.hpp, totalizers
//    by default.
//
// Incrementality: this object IS one solver instance. Clauses are only ever
// added, and every bound a search moves (period slot, makespan, latency,
// offsets) arrives as an assumption to solve(), so CaDiCaL keeps its learned
// clauses, its phases and its scores from one bound to the next; guarded
// constraints (the guard enters the final clause only) let the same encoded
// counters serve every bound. A new instance is built only by whoever calls
// make_backend() again — the repetend search does so per chunk of periods
// (repetend_search.cpp says why), the period-dependent constraints of a
// chunk (no_overlap_modulo, one dependency case) guarded by its selectors.
//
// Time limits: a CaDiCaL::Terminator polls the Deadline inside the search,
// so a call stops within milliseconds of the limit (or of an interrupt: the
// deadline carries the stop flag) and answers Unknown.
//
// Cubes (split_into_cubes): CaDiCaL's own lookahead cubing
// (generate_cubes), on this instance, which keeps everything it learned; the
// terminator bounds the lookahead, and past it the remaining levels split on
// the most frequent literals (cheap), so the depth asked is always reached.
//
// Measured alternatives (cardinality encoding, configuration) arrive as
// BackendSettings from the search's tuning table (solver/knobs/tuning.hpp).
#include <cadical.hpp>

#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "sat/at_most_one.hpp"
#include "sat/backend.hpp"
#include "sat/background_free.hpp"
#include "sat/cnf_sink.hpp"
#include "sat/linear_order_cnf.hpp"
#include "sat/no_overlap_size.hpp"
#include "sat/order_encoding.hpp"
#include "sat/pseudo_boolean_cnf.hpp"

namespace tessel {

namespace {

class DeadlineTerminator : public CaDiCaL::Terminator {
 public:
  explicit DeadlineTerminator(const Deadline& deadline) : deadline_(deadline) {}
  bool terminate() override { return deadline_.expired(); }

 private:
  Deadline deadline_;
};

cnf::CardinalityEncoding cardinality_of(const BackendSettings& settings) {
  return settings.cardinality == 1 ? cnf::CardinalityEncoding::SequentialCounter
                                   : cnf::CardinalityEncoding::Totalizer;
}

long long floor_div(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

//------------------------------------------------------------------------------

class CadicalBackend final : public Backend, public cnf::Sink {
 public:
  // Linear sums with at most this many terms try the enumeration encoding.
  static constexpr size_t kEnumerationTerms = 4;

  explicit CadicalBackend(const BackendSettings& settings) : pb_(*this, cardinality_of(settings)) {
    truth_ = new_var();
    solver_->set("quiet", 1);
    if (settings.configuration == 1) solver_->configure("sat");
    if (settings.configuration == 2) solver_->configure("unsat");
    if (settings.no_overlap == 1) no_overlap_ = NoOverlapEncoding::TimeIndexed;
    if (settings.no_overlap == 2) no_overlap_ = NoOverlapEncoding::Pairwise;
    solver_->add(truth_.code);
    solver_->add(0);
  }

  // A solver cut short by its deadline is freed off the critical path
  // (sat/background_free.hpp): the caller is out of time.
  ~CadicalBackend() override {
    if (!abandoned_) return;
    if (learner_) solver_->disconnect_learner();
    free_in_background(std::move(solver_));
  }

  std::string name() const override { return "cadical"; }

  // cnf::Sink ---------------------------------------------------------------
  Lit new_var() override { return Lit{++variables_}; }
  Lit truth() const override { return truth_; }
  std::optional<std::pair<int, long long>> order_literal(Lit lit) const override {
    auto found = order_literals_.find(std::abs(lit.code));
    if (found == order_literals_.end()) return std::nullopt;
    return found->second;
  }
  void add_clause(const std::vector<Lit>& lits) override {
    buffer_.clear();
    for (Lit l : lits) {
      check(l);
      if (l == truth_) return;
      if (l == ~truth_) continue;
      buffer_.push_back(l.code);
    }
    for (int code : buffer_) solver_->add(code);
    solver_->add(0);
  }

  // Backend -----------------------------------------------------------------
  Lit true_lit() override { return truth_; }
  Lit new_bool() override { return new_var(); }

  IntVar new_int(int lo, int hi) override {
    if (lo > hi) throw std::invalid_argument("cadical backend: empty integer domain");
    ints_.push_back(cnf::make_order_var(*this, lo, hi));
    const cnf::OrderVar& x = ints_.back();
    for (int v = lo; v < hi; ++v) order_literals_[x.le[v - lo].code] = {(int)ints_.size() - 1, v};
    return IntVar{(int)ints_.size() - 1};
  }

  Lit at_most(IntVar x, int value) override { return cnf::order_at_most(*this, order(x), value); }

  // Every literal [x <= v] of the chain gets the phase `value` gives it.
  void prefer(IntVar x, int value) override {
    const cnf::OrderVar& chain = order(x);
    for (size_t i = 0; i < chain.le.size(); ++i) {
      const Lit le = chain.le[i];
      if (le == truth_ || le == ~truth_) continue;
      const bool holds = value <= chain.lo + static_cast<int>(i);
      solver_->phase(holds ? le.code : -le.code);
    }
  }

  void add_difference(IntVar x, IntVar y, int c, const std::vector<Lit>& guard) override {
    cnf::add_order_difference(*this, order(x), order(y), c, guard);
  }

  // An integer enters the sum as lo + sum over v in [lo, hi) of not [x <= v]
  // (x exceeds v): a whole order chain, which the totalizer takes as one
  // ready-made unary counter.
  void add_linear_at_most(const LinearSum& sum, long long bound, const std::vector<Lit>& guard) override {
    // A few integers (a tie like s = q P + tau): clauses by enumeration.
    if (sum.ints.size() + sum.bools.size() <= kEnumerationTerms) {
      std::vector<std::pair<long long, cnf::OrderVar>> terms;
      for (const auto& [coefficient, var] : sum.ints) terms.push_back({coefficient, order(var)});
      for (const auto& [coefficient, lit] : sum.bools) {
        check(lit);
        terms.push_back({coefficient, cnf::OrderVar{0, 1, {~lit}}});  // [b <= 0] is not b
      }
      if (cnf::add_linear_by_enumeration(*this, terms, bound, guard)) return;
    }
    std::vector<cnf::WeightedLit> terms;
    for (const auto& [coefficient, lit] : sum.bools) terms.push_back({coefficient, lit});
    long long constant = 0;
    for (const auto& [coefficient, var] : sum.ints) {
      const cnf::OrderVar& x = order(var);
      constant += coefficient * x.lo;
      for (Lit le : x.le) terms.push_back({coefficient, ~le});
    }
    pb_.add_at_most(terms, bound - constant, guard);
  }

  // The smaller of the two encodings (sat/no_overlap_size.hpp), unless the
  // settings force one.
  void add_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans) override {
    check_sizes(starts, spans);
    std::vector<NoOverlapInterval> intervals;
    for (size_t i = 0; i < starts.size(); ++i) {
      const cnf::OrderVar& s = order(starts[i]);
      intervals.push_back({s.lo, s.hi, std::max(0, spans[i])});
    }
    const NoOverlapSize size = no_overlap_.has_value() ? no_overlap_size(intervals, *no_overlap_)
                                                       : no_overlap_size(intervals);
    if (size.encoding == NoOverlapEncoding::Pairwise) add_no_overlap_pairwise(starts, intervals);
    else add_no_overlap_time_indexed(starts, spans);
  }

  // An occupancy literal per interval and step, at most one per step.
  void add_no_overlap_time_indexed(const std::vector<IntVar>& starts, const std::vector<int>& spans) {
    exclusive_on_line(starts, spans, nullptr);
  }

  // Presence enters each interval's occupancy definitions as a guard: an
  // absent interval forces no occupancy literal and so occupies nothing.
  // Always time-indexed: a pairwise order literal would need the guard too.
  void add_optional_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                               const std::vector<Lit>& present) override {
    check_sizes(starts, spans);
    if (present.size() != starts.size())
      throw std::invalid_argument("cadical backend: starts and presence literals differ in size");
    exclusive_on_line(starts, spans, &present);
  }

  // Per pair that may meet: the order the domains leave, or a literal
  // choosing one of the two (b starts after a ends, or a after b).
  void add_no_overlap_pairwise(const std::vector<IntVar>& starts, const std::vector<NoOverlapInterval>& intervals) {
    for (size_t i = 0; i < starts.size(); ++i) {
      if (building_stopped()) return;  // incomplete: the builder drops it (Backend::stop_building_at)
      for (size_t j = i + 1; j < starts.size(); ++j) {
        const NoOverlapInterval& a = intervals[i];
        const NoOverlapInterval& b = intervals[j];
        if (a.span <= 0 || b.span <= 0) continue;
        switch (pair_order(a, b)) {
          case PairOrder::Apart: break;
          case PairOrder::Impossible: add_clause({}); return;
          case PairOrder::FirstBefore: add_difference(starts[j], starts[i], (int)a.span, {}); break;
          case PairOrder::SecondBefore: add_difference(starts[i], starts[j], (int)b.span, {}); break;
          case PairOrder::Either: {
            const Lit a_first = new_var();
            add_difference(starts[j], starts[i], (int)a.span, {a_first});
            add_difference(starts[i], starts[j], (int)b.span, {~a_first});
            break;
          }
        }
      }
    }
  }

  // The guard enters the occupancy definitions only: without it no
  // occupancy literal is forced and the at-most-one constraints hold vacuously.
  void add_no_overlap_modulo(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                             int period, const std::vector<Lit>& guard) override {
    check_sizes(starts, spans);
    if (period <= 0) throw std::invalid_argument("cadical backend: period must be positive");
    for (size_t i = 0; i < starts.size(); ++i) {
      // An interval longer than the circle overlaps its own next copy.
      if (spans[i] > period) {
        add_clause(cnf::guarded_clause(guard, {}));
        return;
      }
    }
    for (int phase = 0; phase < period; ++phase) {
      std::vector<Lit> occupants;
      for (size_t i = 0; i < starts.size(); ++i) {
        if (spans[i] <= 0) continue;
        const cnf::OrderVar& s = order(starts[i]);
        // Every t = phase + j * period the start can reach [t - span + 1, t].
        std::vector<long long> ends;
        for (long long j = floor_div(s.lo - phase, period); phase + j * period - spans[i] + 1 <= s.hi; ++j)
          if (phase + j * period >= s.lo) ends.push_back(phase + j * period);
        if (!ends.empty()) occupants.push_back(occupancy(s, spans[i], ends, guard));
      }
      if (occupants.size() >= 2) cnf::add_at_most_one(*this, occupants);
    }
  }

  Answer solve(const std::vector<Lit>& assumptions, const Deadline& deadline) override {
    last_answer_ = Answer::Unknown;
    if (deadline.expired()) {
      abandoned_ = true;
      return Answer::Unknown;
    }
    for (Lit l : assumptions) {
      check(l);
      solver_->assume(l.code);
    }
    DeadlineTerminator terminator(deadline);
    solver_->connect_terminator(&terminator);
    int result = solver_->solve();
    solver_->disconnect_terminator();
    if (result == 20) return last_answer_ = Answer::Unsat;
    if (result != 10) {
      abandoned_ = abandoned_ || deadline.expired();
      return Answer::Unknown;
    }
    // Keep the model: callers may add clauses before they read it, which
    // would leave CaDiCaL's satisfied state.
    model_.assign(variables_ + 1, false);
    for (int v = 1; v <= variables_; ++v) model_[v] = solver_->val(v) > 0;
    return last_answer_ = Answer::Sat;
  }

  CubeSplit split_into_cubes(int depth, const Deadline& deadline, const std::vector<Lit>& assumptions) override {
    CubeSplit split;
    split.offered = true;
    last_answer_ = Answer::Unknown;
    for (Lit l : assumptions) {
      check(l);
      solver_->assume(l.code);
    }
    DeadlineTerminator terminator(deadline);
    solver_->connect_terminator(&terminator);
    CaDiCaL::Solver::CubesWithStatus generated = solver_->generate_cubes(depth, depth);
    // A terminator that fired inside the lookahead leaves CaDiCaL 1.5.3's
    // "termination forced" flag set, which would end the next solve() at
    // once (measured: the first cube answered unknown in 30 us); a
    // simplification of no rounds goes through the same reset and clears it
    // (and the assumptions generate_cubes leaves behind).
    solver_->simplify(0);
    solver_->disconnect_terminator();
    // Status 20, or every cube refuted by the lookahead (none returned).
    if (generated.status == 20 || (generated.status == 0 && generated.cubes.empty())) {
      split.answer = Answer::Unsat;
      return split;
    }
    // Solved while simplifying (status 10): no split, the question as it was.
    if (generated.status != 0) {
      split.cubes.push_back(assumptions);
      return split;
    }
    for (const std::vector<int>& cube : generated.cubes) {
      std::vector<Lit> lits;
      for (int code : cube) lits.push_back(Lit{code});
      split.cubes.push_back(lits);
    }
    return split;
  }

  void share_learned(int longest) override {
    if (learner_) solver_->disconnect_learner();
    learner_.reset();
    if (longest <= 0) return;
    learner_ = std::make_unique<ShortClauses>(longest);
    solver_->connect_learner(learner_.get());
  }

  std::vector<std::vector<int>> take_learned() override {
    return learner_ ? learner_->take() : std::vector<std::vector<int>>{};
  }

  // Between calls only (CaDiCaL adds clauses to a solver at rest). A clause
  // naming a variable this solver never created is skipped: only the
  // encodings' own variables are shared.
  void add_learned(const std::vector<std::vector<int>>& clauses) override {
    for (const std::vector<int>& clause : clauses) {
      bool known = true;
      for (int code : clause) known = known && code != 0 && std::abs(code) <= variables_;
      if (!known) continue;
      for (int code : clause) solver_->add(code);
      solver_->add(0);
    }
  }

  bool value(Lit lit) override {
    if (last_answer_ != Answer::Sat) throw std::logic_error("cadical backend: value() without a Sat answer");
    check(lit);
    int variable = std::abs(lit.code);
    if (variable >= (int)model_.size()) return false;  // created after the last solve: unconstrained then
    return model_[variable] == (lit.code > 0);
  }

  int value(IntVar x) override {
    return cnf::order_value(order(x), [&](Lit l) { return value(l); });
  }

 private:
  const cnf::OrderVar& order(IntVar x) const {
    if (x.index < 0 || x.index >= (int)ints_.size()) throw std::invalid_argument("cadical backend: unknown IntVar");
    return ints_[x.index];
  }
  void check(Lit l) const {
    if (l.code == 0 || std::abs(l.code) > variables_)
      throw std::invalid_argument("cadical backend: literal " + std::to_string(l.code) + " was never created");
  }
  static void check_sizes(const std::vector<IntVar>& starts, const std::vector<int>& spans) {
    if (starts.size() != spans.size()) throw std::invalid_argument("cadical backend: starts and spans differ in size");
  }

  // At most one occupant per step over the steps any interval may cover;
  // `present` (optional) guards each interval's occupancy.
  void exclusive_on_line(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                         const std::vector<Lit>* present) {
    long long first = 0, last = -1;
    for (size_t i = 0; i < starts.size(); ++i) {
      if (spans[i] <= 0) continue;
      const cnf::OrderVar& s = order(starts[i]);
      if (last < first) first = s.lo, last = s.hi + spans[i] - 1;
      first = std::min<long long>(first, s.lo);
      last = std::max<long long>(last, (long long)s.hi + spans[i] - 1);
    }
    for (long long t = first; t <= last; ++t) {
      if (building_stopped()) return;  // incomplete: the builder drops it (Backend::stop_building_at)
      std::vector<Lit> occupants;
      for (size_t i = 0; i < starts.size(); ++i) {
        const cnf::OrderVar& s = order(starts[i]);
        if (spans[i] <= 0 || t < s.lo || t > (long long)s.hi + spans[i] - 1) continue;
        occupants.push_back(present ? occupancy(s, spans[i], {t}, {(*present)[i]}) : occupancy(s, spans[i], {t}));
      }
      if (occupants.size() >= 2) cnf::add_at_most_one(*this, occupants);
    }
  }

  // A literal forced true when the interval [s, s + span) covers any of the
  // steps `ends`: s in [t - span + 1, t] is [s <= t] and not [s <= t - span].
  Lit occupancy(const cnf::OrderVar& s, int span, const std::vector<long long>& ends,
                const std::vector<Lit>& guard = {}) {
    Lit occupied = new_var();
    for (long long t : ends)
      add_clause(cnf::guarded_clause(
          guard, {~cnf::order_at_most(*this, s, t), cnf::order_at_most(*this, s, t - span), occupied}));
    return occupied;
  }

  // What CaDiCaL learns, the clauses of at most `longest` literals kept
  // until taken (it calls learn() with each literal, then 0).
  class ShortClauses final : public CaDiCaL::Learner {
   public:
    explicit ShortClauses(int longest) : longest_(longest) {}
    bool learning(int size) override { return size <= longest_; }
    void learn(int lit) override {
      if (lit != 0) {
        current_.push_back(lit);
        return;
      }
      kept_.push_back(std::move(current_));
      current_.clear();
    }
    std::vector<std::vector<int>> take() { return std::exchange(kept_, {}); }

   private:
    int longest_;
    std::vector<int> current_;
    std::vector<std::vector<int>> kept_;
  };

  std::unique_ptr<CaDiCaL::Solver> solver_ = std::make_unique<CaDiCaL::Solver>();
  bool abandoned_ = false;  // a solve() was cut short by its deadline
  std::unique_ptr<ShortClauses> learner_;  // connected by share_learned()
  int variables_ = 0;
  Lit truth_;
  std::vector<cnf::OrderVar> ints_;
  std::optional<NoOverlapEncoding> no_overlap_;  // forced by the settings; else the smaller
  std::unordered_map<int, std::pair<int, long long>> order_literals_;  // variable -> (integer, v) of [x <= v]
  cnf::PbEncoder pb_;
  std::vector<int> buffer_;
  std::vector<bool> model_;
  Answer last_answer_ = Answer::Unknown;
};

}  // namespace

std::unique_ptr<Backend> make_cadical_backend(const BackendSettings& settings) {
  return std::make_unique<CadicalBackend>(settings);
}

}  // namespace tessel
