// The Z3 backend (docs/algorithms.md, "Backends"): the facade's verbs as SMT over
// linear integer arithmetic, the paper's own approach and the baseline the
// SAT backend must beat. Integers are Z3 integer constants with their domain
// asserted; `[x <= v]` literals are the comparison terms themselves (cached),
// so the solver sees arithmetic rather than an order encoding; memory bounds
// are sums of if-then-else terms; intervals on a circle get an explicit
// quotient and phase per variable. Bounds that a search moves arrive as
// assumption literals, so one solver instance keeps its lemmas across them.
//
// A backend whose solver gave up on the deadline is abandoned, not torn down:
// freeing a large Z3 context takes seconds (3-5 s measured on the gpt2-large
// partition at 8 stages), which would overrun the --time-limit the user
// asked for; a time-out ends the command soon after, so the memory is
// reclaimed by the process exit.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include <z3++.h>

#include "sat/backend.hpp"

namespace tessel {
namespace {

class Z3Backend final : public Backend {
 public:
  Z3Backend() = default;
  Z3Backend(const Z3Backend&) = delete;
  Z3Backend& operator=(const Z3Backend&) = delete;
  ~Z3Backend() override {
    if (gave_up_) (void)state_.release();
  }

  std::string name() const override { return "z3"; }

  Lit true_lit() override {
    if (true_code_ == 0) true_code_ = register_bool(context_.bool_val(true));
    return {true_code_};
  }

  Lit new_bool() override {
    return {register_bool(context_.bool_const(("b" + std::to_string(bools_.size() + 1)).c_str()))};
  }

  IntVar new_int(int lo, int hi) override {
    if (lo > hi) throw std::invalid_argument("z3 backend: empty integer domain");
    z3::expr var = context_.int_const(("x" + std::to_string(ints_.size())).c_str());
    solver_.add(var >= lo && var <= hi);
    ints_.push_back(var);
    domains_.push_back({lo, hi});
    return {static_cast<int>(ints_.size()) - 1};
  }

  Lit at_most(IntVar x, int value) override {
    auto [lo, hi] = domains_.at(x.index);
    if (value >= hi) return true_lit();
    if (value < lo) return ~true_lit();
    auto key = std::make_pair(x.index, value);
    auto found = at_most_cache_.find(key);
    if (found != at_most_cache_.end()) return {found->second};
    int code = register_bool(ints_[x.index] <= value);
    at_most_cache_.emplace(key, code);
    return {code};
  }

  void add_clause(const std::vector<Lit>& lits) override {
    z3::expr_vector terms(context_);
    for (Lit lit : lits) terms.push_back(expr_of(lit));
    solver_.add(terms.empty() ? context_.bool_val(false) : z3::mk_or(terms));
  }

  void add_difference(IntVar x, IntVar y, int c, const std::vector<Lit>& guard) override {
    add_guarded(guard, ints_.at(x.index) - ints_.at(y.index) >= c);
  }

  void add_linear_at_most(const LinearSum& sum, long long bound, const std::vector<Lit>& guard) override {
    z3::expr total = context_.int_val(0);
    for (const auto& [coef, lit] : sum.bools) {
      if (coef == 0) continue;
      total = total + z3::ite(expr_of(lit), context_.int_val(static_cast<int64_t>(coef)), context_.int_val(0));
    }
    for (const auto& [coef, var] : sum.ints) total = total + context_.int_val(static_cast<int64_t>(coef)) * ints_.at(var.index);
    add_guarded(guard, total <= context_.int_val(static_cast<int64_t>(bound)));
  }

  void add_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans) override {
    for (size_t i = 0; i < starts.size(); ++i) {
      if (building_stopped()) return;  // incomplete: the builder drops it (Backend::stop_building_at)
      for (size_t j = i + 1; j < starts.size(); ++j) {
        const z3::expr& a = ints_.at(starts[i].index);
        const z3::expr& b = ints_.at(starts[j].index);
        solver_.add(a + spans[i] <= b || b + spans[j] <= a);
      }
    }
  }

  void add_optional_no_overlap(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                               const std::vector<Lit>& present) override {
    for (size_t i = 0; i < starts.size(); ++i) {
      if (building_stopped()) return;  // incomplete: the builder drops it (Backend::stop_building_at)
      for (size_t j = i + 1; j < starts.size(); ++j) {
        const z3::expr& a = ints_.at(starts[i].index);
        const z3::expr& b = ints_.at(starts[j].index);
        add_guarded({present.at(i), present.at(j)}, a + spans[i] <= b || b + spans[j] <= a);
      }
    }
  }

  // Each start becomes q * period + phase with the phase in [0, period); two
  // intervals are disjoint on the circle when one lies, after the other, in
  // the gap the other leaves before it comes round again.
  void add_no_overlap_modulo(const std::vector<IntVar>& starts, const std::vector<int>& spans,
                             int period, const std::vector<Lit>& guard) override {
    for (size_t i = 0; i < starts.size(); ++i)
      if (spans[i] > period) {
        add_guarded(guard, context_.bool_val(false));
        return;
      }
    std::vector<z3::expr> phases;
    for (IntVar start : starts) phases.push_back(phase_of(start, period));
    for (size_t i = 0; i < starts.size(); ++i) {
      for (size_t j = i + 1; j < starts.size(); ++j) {
        const z3::expr& a = phases[i];
        const z3::expr& b = phases[j];
        add_guarded(guard, (a + spans[i] <= b && b + spans[j] <= a + period) ||
                               (b + spans[j] <= a && a + spans[i] <= b + period));
      }
    }
  }

  // Z3 watches its own timeout, but not our stop flag: while it searches, a
  // watcher polls the flag and interrupts the context when it rises.
  z3::check_result check_interruptibly(const z3::expr_vector& terms, const Deadline& deadline) {
    if (!deadline.stop) return check_or_unknown(terms, deadline);
    std::mutex mutex;
    std::condition_variable done_signal;
    bool done = false;
    std::thread watcher([&] {
      std::unique_lock<std::mutex> lock(mutex);
      while (!done) {
        if (deadline.stopped()) {
          context_.interrupt();
          return;
        }
        done_signal.wait_for(lock, std::chrono::milliseconds(20));
      }
    });
    auto stop_watcher = [&] {
      {
        std::lock_guard<std::mutex> lock(mutex);
        done = true;
      }
      done_signal.notify_one();
      watcher.join();
    };
    z3::check_result result = z3::unknown;
    try {
      result = check_or_unknown(terms, deadline);
    } catch (...) {
      stop_watcher();
      throw;
    }
    stop_watcher();
    return result;
  }

  // A check cut short by the timeout or an interrupt may throw ("canceled")
  // instead of answering unknown; past the deadline that is an unknown
  // answer, before it a real error.
  z3::check_result check_or_unknown(const z3::expr_vector& terms, const Deadline& deadline) {
    try {
      return solver_.check(terms);
    } catch (const z3::exception&) {
      if (deadline.stopped() || deadline.expired()) return z3::unknown;
      throw;
    }
  }

  Answer solve(const std::vector<Lit>& assumptions, const Deadline& deadline) override {
    if (deadline.expired()) {
      gave_up_ = true;
      return Answer::Unknown;
    }
    z3::params params(context_);
    double left = deadline.seconds_left();
    // Z3 takes its timeout in milliseconds as an unsigned; "unlimited" is its maximum.
    unsigned milliseconds = left > 4.0e6 ? 4294967295u : static_cast<unsigned>(std::max(1.0, left * 1000.0));
    params.set("timeout", milliseconds);
    // Z3's own Ctrl-C handling (on by default) replaces the process's SIGINT
    // handler for the length of each check and puts back the one it found.
    // Checks on several threads (the period race, the improvements side by
    // side) interleave those swaps, so a finished check's handler, pointing
    // into a solver call that no longer exists, can stay installed: a SIGINT
    // after it crashed the process (SIGSEGV, 8 of 8 trials in the shift
    // search), and one during a check never reached the stop flag. The
    // command's own handler (tools/interrupt.hpp) raises the flag, and the
    // watcher below interrupts the context.
    params.set("ctrl_c", false);
    solver_.set(params);
    z3::expr_vector terms(context_);
    for (Lit lit : assumptions) terms.push_back(expr_of(lit));
    z3::check_result result = check_interruptibly(terms, deadline);
    if (result == z3::sat) {
      // Under a load the timeout can fire after the check said sat and
      // before the model is kept (measured in CI: "there is no current
      // model"); without a model the answer is not usable, so it is unknown.
      try {
        model_ = solver_.get_model();
      } catch (const z3::exception&) {
        gave_up_ = true;
        return Answer::Unknown;
      }
      return Answer::Sat;
    }
    if (result == z3::unsat) return Answer::Unsat;
    gave_up_ = true;
    return Answer::Unknown;
  }

  bool value(Lit lit) override { return model_.eval(expr_of(lit), true).is_true(); }

  int value(IntVar x) override { return model_.eval(ints_.at(x.index), true).get_numeral_int(); }

 private:
  int register_bool(const z3::expr& term) {
    bools_.push_back(term);
    return static_cast<int>(bools_.size());
  }

  z3::expr expr_of(Lit lit) {
    int var = lit.code > 0 ? lit.code : -lit.code;
    if (var == 0 || var > static_cast<int>(bools_.size())) throw std::invalid_argument("z3 backend: unknown literal");
    return lit.code > 0 ? bools_[var - 1] : !bools_[var - 1];
  }

  void add_guarded(const std::vector<Lit>& guard, const z3::expr& fact) {
    if (guard.empty()) {
      solver_.add(fact);
      return;
    }
    z3::expr_vector conditions(context_);
    for (Lit lit : guard) conditions.push_back(expr_of(lit));
    solver_.add(z3::implies(z3::mk_and(conditions), fact));
  }

  // The phase of x on a circle of `period`, shared by every constraint that asks.
  z3::expr phase_of(IntVar x, int period) {
    auto key = std::make_pair(x.index, period);
    auto found = phase_cache_.find(key);
    if (found != phase_cache_.end()) return found->second;
    auto [lo, hi] = domains_.at(x.index);
    std::string tag = std::to_string(x.index) + "_" + std::to_string(period);
    z3::expr quotient = context_.int_const(("q" + tag).c_str());
    z3::expr phase = context_.int_const(("t" + tag).c_str());
    auto floor_div = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    solver_.add(quotient >= floor_div(lo, period) && quotient <= floor_div(hi, period));
    solver_.add(phase >= 0 && phase < period);
    solver_.add(ints_.at(x.index) == quotient * period + phase);
    phase_cache_.emplace(key, phase);
    return phase;
  }

  // Everything that lives in the Z3 context, held together so that a
  // backend that gave up can abandon it whole (see the top of the file).
  struct State {
    z3::context context;
    z3::solver solver{context};
    z3::model model{context};
    std::vector<z3::expr> bools;  // literal code v is bools[v - 1]
    std::vector<z3::expr> ints;
    std::map<std::pair<int, int>, z3::expr> phase_cache;
  };
  std::unique_ptr<State> state_ = std::make_unique<State>();
  z3::context& context_ = state_->context;
  z3::solver& solver_ = state_->solver;
  z3::model& model_ = state_->model;
  std::vector<z3::expr>& bools_ = state_->bools;
  std::vector<z3::expr>& ints_ = state_->ints;
  std::map<std::pair<int, int>, z3::expr>& phase_cache_ = state_->phase_cache;
  std::vector<std::pair<int, int>> domains_;
  std::map<std::pair<int, int>, int> at_most_cache_;
  bool gave_up_ = false;
  int true_code_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_z3_backend() { return std::make_unique<Z3Backend>(); }

}  // namespace tessel
