// The minimal period decided on cyclic orders (see the header for the loop).
//
// Learning: a positive cycle's clause holds for every period below its
// ratio, so it is never retracted, and the descent's questions only ever
// tighten. From one Boolean answer several cycles are learned (each found
// with the guarded edges of the earlier ones removed), because a SAT call
// costs more than a Bellman-Ford pass on a graph of a few hundred edges.
#include "solver/period/order_period_search.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <ctime>
#include <map>
#include <optional>
#include <tuple>
#include <sstream>

#include "model/input_error.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/cyclic_order_encoding.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/period/difference_logic_period.hpp"

namespace tessel {
namespace {

// The effort of the questions, developer knobs (solver/knobs/tuning.hpp), read
// from the search's Tuning:
//  - order_cycles_per_answer (32): cycles learned from one Boolean answer
//    at most. Measured on nnshape at 8 devices, spans x1000: 32 rather than
//    8 saves a tenth of the SAT calls of the optimality proof (832 against
//    945); an answer rarely yields more.
//  - order_floor_question_calls (300): SAT calls the first question (period
//    L) may take before the descent from the top starts. Why: where L is
//    reachable it is found within a few hundred calls (xshape, 16 devices:
//    269); where it is not, proving so costs about what the whole descent
//    costs, and until then no schedule is at hand for a time limit to fall
//    back on (nnshape, 16 devices, spans x10^5: all of 5 s).
//    order_floor_question_seconds (2) is the same for a question asked as
//    guarded differences in one call.
//  - order_hand_over_seconds (0.5): processor seconds a later question may
//    take on CaDiCaL before it is handed to the guarded differences on Z3
//    (PeriodQuestions says why). Time, not SAT calls: near the optimum each
//    call costs more (nnshape, 16 devices: 2 ms in the descent, 36 ms in the
//    refutation), and the descent's questions take well under this.
//    Processor time of this thread, not wall time, so that a loaded machine
//    does not hand over the descent's questions too (measured: under load 8
//    on 2 cores, a 0.5 s wall-time cap sent most of mllm 16's descent to Z3,
//    3x slower); the wall time is capped too, at order_hand_over_wall_seconds
//    (4), in case the thread gets almost no processor.

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

//------------------------------------------------------------------------------
// Literals [P >= r] for the ratios met so far, each implying the next lower
// one, so that assuming "not [P >= r]" for the lowest r above t says P <= t.

class PeriodLadder {
 public:
  explicit PeriodLadder(Backend& backend) : backend_(backend) {}

  Lit at_least(const Ratio& ratio) {
    auto found = ladder_.find(ratio);
    if (found != ladder_.end()) return found->second;
    const Lit lit = backend_.new_bool();
    auto [at, inserted] = ladder_.emplace(ratio, lit);
    if (at != ladder_.begin()) backend_.add_clause({~lit, std::prev(at)->second});
    if (std::next(at) != ladder_.end()) backend_.add_clause({~std::next(at)->second, lit});
    return lit;
  }

  // The assumptions saying P <= period.
  std::vector<Lit> at_most(Time period) const {
    auto above = ladder_.upper_bound(Ratio{period, 1});
    if (above == ladder_.end()) return {};
    return {~above->second};
  }

 private:
  Backend& backend_;
  std::map<Ratio, Lit> ladder_;
};

//------------------------------------------------------------------------------
// Difference atoms [t(v) - t(u) >= c - P h] between anchors (the window's
// start and the blocks on several devices), created as cycles pass through
// them. Why: the blocks that run on every device cut each device's window
// into stretches, and a cycle that is too long says "the stretches from
// fs to fs2 and from fs2 to bs hold these devices' blocks". Learned as it
// stands, the clause names one device per stretch, and the solver must
// learn it again for every combination of devices; with the stretch
// between two anchors replaced by its atom ("fs2 - fs >= 4"), one clause
// covers them all, and each device's blocks only imply the atom. Atoms of
// one (u, v, h) are chained by c, strongest first, like the period ladder.

class SegmentAtoms {
 public:
  explicit SegmentAtoms(Backend& backend) : backend_(backend) {}

  Lit atom(const DifferenceEdge& edge) {
    auto& ladder = ladders_[{edge.from, edge.to, edge.crossings}];
    auto found = ladder.find(edge.constant);
    if (found != ladder.end()) return found->second;
    const Lit lit = backend_.new_bool();
    auto [at, inserted] = ladder.emplace(edge.constant, lit);
    if (at != ladder.begin()) backend_.add_clause({~lit, std::prev(at)->second});
    if (std::next(at) != ladder.end()) backend_.add_clause({~std::next(at)->second, lit});
    edges_.push_back(edge);
    literals_.push_back(lit);
    by_code_.emplace(lit.code, edge);
    return lit;
  }

  // The difference an atom literal stands for, or none for other literals.
  std::optional<DifferenceEdge> edge_of(Lit lit) const {
    auto found = by_code_.find(lit.code);
    if (found == by_code_.end()) return std::nullopt;
    return found->second;
  }

  // The atoms true in the last answer, as differences.
  void add_true(Backend& backend, std::vector<ImpliedDifference>& differences) const {
    for (size_t i = 0; i < edges_.size(); ++i)
      if (backend.value(literals_[i])) differences.push_back({edges_[i], {literals_[i]}});
  }

 private:
  Backend& backend_;
  std::map<std::tuple<int, int, long long>, std::map<long long, Lit>> ladders_;
  std::vector<DifferenceEdge> edges_;
  std::vector<Lit> literals_;
  std::map<int, DifferenceEdge> by_code_;
};

//------------------------------------------------------------------------------
// One question: an answer with period <= target (exactly target when a
// latency bound is given), learning cycles until there is one or none.

using Reply = PeriodReply;

class OrderSolver {
 public:
  OrderSolver(Backend& backend, const CyclicOrderEncoding& encoding, const Placement& window)
      : backend_(backend), encoding_(encoding), window_(window), ladder_(backend), atoms_(backend) {
    anchor_.assign(window.blocks.size() + 1, 0);
    anchor_[window_node()] = 1;
    for (size_t b = 0; b < window.blocks.size(); ++b) anchor_[block_node(b)] = window.blocks[b].devices.size() > 1;
  }

  // Cycles learned from one answer at most (order_cycles_per_answer; the
  // questions set it from the search's Tuning).
  int cycles_per_answer = static_cast<int>(kDefaultTuning.order_cycles_per_answer);

  // Unknown also when `max_calls` SAT calls or `max_cpu_seconds` of this
  // thread's processor time did not settle it (the learned
  // cycles stay: an interrupted question is not lost work).
  Reply ask(Time target, const std::optional<LatencyBound>& latency, const Deadline& deadline,
            long long max_calls = LLONG_MAX, double max_cpu_seconds = HUGE_VAL) {
    const double cpu_start = thread_cpu_seconds();
    for (long long call = 0;; ++call) {
      if (call >= max_calls || thread_cpu_seconds() - cpu_start > max_cpu_seconds) return {Answer::Unknown, 0, {}, {}};
      std::vector<Lit> assumptions = ladder_.at_most(target);
      if (latency) assumptions.push_back(latency->literal);
      ++solver_calls;
      const Answer answer = backend_.solve(assumptions, deadline);
      if (answer != Answer::Sat) return {answer, 0, {}, {}};
      std::vector<ImpliedDifference> differences = implied_differences(backend_, encoding_, window_, latency);
      atoms_.add_true(backend_, differences);
      if (learn_cycles(differences, target)) continue;
      Reply reply{Answer::Sat, target, {target, 1}, {}};
      if (!latency) {
        const MaxRatio exact = max_cycle_ratio(nodes(), edges_of(differences, {}), {encoding_.period_floor, 1});
        reply.ratio = exact.value;
        reply.period = exact.value.ceiling();
      }
      reply.starts = order_starts(backend_, encoding_, differences, reply.period);
      return reply;
    }
  }

  long long solver_calls = 0;
  long long cycles_learned = 0;

 private:
  int nodes() const { return static_cast<int>(window_.blocks.size()) + 1; }

  static std::vector<DifferenceEdge> edges_of(const std::vector<ImpliedDifference>& differences,
                                              const std::vector<char>& removed) {
    std::vector<DifferenceEdge> edges;
    for (size_t e = 0; e < differences.size(); ++e) {
      if (!removed.empty() && removed[e]) {
        // Kept in place (so that indices match) but made harmless.
        edges.push_back({differences[e].edge.from, differences[e].edge.to, LLONG_MIN / 4, 0});
        continue;
      }
      edges.push_back(differences[e].edge);
    }
    return edges;
  }

  // Every positive cycle at `target` found (up to cycles_per_answer) becomes a
  // clause; false when there is none (the answer is feasible at target).
  bool learn_cycles(const std::vector<ImpliedDifference>& differences, Time target) {
    std::vector<char> removed(differences.size(), 0);
    int learned = 0;
    while (learned < cycles_per_answer) {
      const PeriodCheck check = check_period(nodes(), edges_of(differences, removed), {target, 1});
      if (check.feasible()) break;
      const Cycle& cycle = *check.positive_cycle;
      add_cycle_clause(differences, cycle, target);
      ++learned;
      bool any_guarded = false;
      for (int e : cycle.edges)
        if (!differences[e].because.empty()) removed[e] = 1, any_guarded = true;
      if (!any_guarded) break;  // a cycle of facts: its clause is a unit, nothing else to find
    }
    cycles_learned += learned;
    return learned > 0;
  }

  // The cycle's literals imply P >= its ratio; a cycle through the latency
  // bound (its constants read at one period) just excludes its literals.
  // Stretches between anchors with more than one literal are replaced by
  // their atoms (SegmentAtoms says why), and the atoms are weakened as far
  // as the cycle's slack at the target allows, to constants on a grid, so
  // that cycles whose stretches differ by a few ticks (measured times)
  // share their atoms: the clause then says "P > target" for them all.
  // Atoms learned before are weakened the same way (their ladder implies
  // the weaker one): on nnshape, 8 devices, spans x1000, that halved the
  // SAT calls of the descent.
  void add_cycle_clause(const std::vector<ImpliedDifference>& differences, const Cycle& cycle, Time target) {
    struct Piece {
      std::vector<Lit> because;
      DifferenceEdge sum;
      bool fixed = false;
      bool atom = false;  // one edge, an atom learned before: weakened like a new one
    };
    std::vector<Piece> pieces;
    int atom_pieces = 0;
    for (const std::vector<int>& segment : segments(differences, cycle)) {
      Piece piece{{}, {differences[segment.front()].edge.from, differences[segment.back()].edge.to, 0, 0}, false};
      for (int e : segment) {
        piece.fixed |= differences[e].fixed_period;
        piece.sum.constant += differences[e].edge.constant;
        piece.sum.crossings += differences[e].edge.crossings;
        for (Lit lit : differences[e].because)
          if (std::find(piece.because.begin(), piece.because.end(), lit) == piece.because.end())
            piece.because.push_back(lit);
      }
      piece.atom = segment.size() == 1 && piece.because.size() == 1 && atoms_.edge_of(piece.because[0]);
      if ((piece.because.size() > 1 || piece.atom) && !piece.fixed && segment.size() < cycle.edges.size())
        ++atom_pieces;
      pieces.push_back(std::move(piece));
    }
    bool fixed = false;
    for (const Piece& piece : pieces) fixed |= piece.fixed;
    // Ticks each atom may give up with the cycle still positive at target.
    long long grid = 1;
    if (!fixed && atom_pieces > 0) {
      const __int128 slack = __int128(cycle.constant) - __int128(target) * cycle.crossings - 1;
      const __int128 share = slack / atom_pieces;
      while (__int128(grid) * 2 <= share) grid *= 2;
    }
    std::vector<Lit> clause;
    auto add = [](std::vector<Lit>& to, Lit lit) {
      if (std::find(to.begin(), to.end(), ~lit) == to.end()) to.push_back(~lit);
    };
    long long constant = 0;
    for (const Piece& piece : pieces) {
      const bool as_atom = (piece.because.size() > 1 || piece.atom) && !piece.fixed && pieces.size() > 1;
      if (!as_atom) {
        constant += piece.sum.constant;
        for (Lit lit : piece.because) add(clause, lit);
        continue;
      }
      if (!piece.atom) {
        // A new stretch: its literals imply its atom. (A learned atom
        // implies every weaker one through its ladder already.)
        const Lit exact = atoms_.atom(piece.sum);
        std::vector<Lit> definition;
        for (Lit lit : piece.because) add(definition, lit);
        definition.push_back(exact);
        backend_.add_clause(definition);
      }
      DifferenceEdge weaker = piece.sum;
      weaker.constant = floor_to(piece.sum.constant, grid);
      constant += weaker.constant;
      add(clause, atoms_.atom(weaker));
    }
    if (!fixed && cycle.crossings > 0) clause.push_back(ladder_.at_least({constant, cycle.crossings}));
    backend_.add_clause(clause);
  }

  static long long floor_to(long long value, long long grid) {
    long long quotient = value / grid;
    if (value % grid != 0 && value < 0) --quotient;
    return quotient * grid;
  }

  // The cycle cut at its anchors into stretches of consecutive edges (the
  // whole cycle when it passes fewer than two anchors).
  std::vector<std::vector<int>> segments(const std::vector<ImpliedDifference>& differences, const Cycle& cycle) const {
    std::vector<size_t> cuts;
    for (size_t i = 0; i < cycle.edges.size(); ++i)
      if (anchor_[differences[cycle.edges[i]].edge.from]) cuts.push_back(i);
    if (cuts.size() < 2) return {cycle.edges};
    std::vector<std::vector<int>> result;
    for (size_t c = 0; c < cuts.size(); ++c) {
      std::vector<int> segment;
      const size_t end = c + 1 < cuts.size() ? cuts[c + 1] : cuts[0] + cycle.edges.size();
      for (size_t i = cuts[c]; i < end; ++i) segment.push_back(cycle.edges[i % cycle.edges.size()]);
      result.push_back(std::move(segment));
    }
    return result;
  }

  Backend& backend_;
  const CyclicOrderEncoding& encoding_;
  const Placement& window_;
  PeriodLadder ladder_;
  SegmentAtoms atoms_;
  std::vector<char> anchor_;  // per node: the window's start or a block on several devices
};

//------------------------------------------------------------------------------
// Who answers a period question: the learned cycles on the search's own
// backend, or the guarded differences (difference_logic_period.hpp) on it
// when it is Z3, else on a side Z3 backend. Automatic on CaDiCaL: the
// learned cycles, until a question takes more than order_hand_over_seconds of
// processor; that question goes to the differences and the next one back
// to CaDiCaL, whose cycles stay valid. Why: the descent's questions are
// settled by CaDiCaL in a few SAT calls each, while the last one, the
// refutation, takes it hundreds to thousands (nnshape, 16 devices, spans
// x1000: 830 calls, 30 s) and Z3's difference logic one call (3-9 s).

class PeriodQuestions {
 public:
  PeriodQuestions(OrderSolver& cycles, Backend& backend, const CyclicOrderEncoding& encoding,
                  const OrderPeriodQuestion& question, const SearchOptions& options)
      : cycles_(cycles), question_(question), options_(options) {
    cycles.cycles_per_answer = static_cast<int>(options.tuning.order_cycles_per_answer);
    const bool z3 = backend.name() == "z3";
    const OrderQuestions mode = options.order_questions;
    if (mode == OrderQuestions::LearnedCycles) return;
    if (z3) {
      own_ = std::make_unique<PhaseQuestions>(backend, encoding, *question.window);
      direct_ = own_.get();
      return;
    }
    hand_over_ = mode == OrderQuestions::Automatic;
    always_side_ = mode == OrderQuestions::Differences;
  }

  // `floor`: the first question, at L, which must not take long (see
  // order_floor_question_calls). `how` says who answered, for the progress line.
  Reply ask(Time target, bool floor, const Deadline& deadline, std::string& how) {
    how = "cycles";
    if (direct_ && direct_->fits(target)) return ask_differences(*direct_, target, floor, deadline, how);
    if (always_side_) {
      if (PhaseQuestions* side = side_questions_for(target, deadline))
        return ask_differences(*side, target, floor, deadline, how);
    }
    const Tuning& tuning = options_.tuning;
    const long long cap = floor ? static_cast<long long>(tuning.order_floor_question_calls) : LLONG_MAX;
    const bool capped = hand_over_ && !floor;
    const Deadline own = capped ? deadline.within(tuning.order_hand_over_wall_seconds) : deadline;
    Reply reply = cycles_.ask(target, std::nullopt, own, cap, capped ? tuning.order_hand_over_seconds : HUGE_VAL);
    if (reply.answer != Answer::Unknown || floor || !hand_over_ || deadline.expired()) return reply;
    // No side Z3 for this window (too large, or a constant past its
    // integers): the learned cycles go on without a cap.
    PhaseQuestions* side = side_questions_for(target, deadline);
    if (!side) return cycles_.ask(target, std::nullopt, deadline);
    return ask_differences(*side, target, false, deadline, how);
  }

  long long difference_calls() const {
    return (own_ ? own_->solver_calls : 0) + (side_.questions ? side_.questions->solver_calls : 0);
  }

 private:
  Reply ask_differences(PhaseQuestions& questions, Time target, bool floor, const Deadline& deadline,
                        std::string& how) {
    how = "differences";
    return questions.ask(target, floor ? deadline.within(options_.tuning.order_floor_question_seconds) : deadline);
  }

  PhaseQuestions* side_questions_for(Time target, const Deadline& deadline) {
    if (!side_.backend) {
      side_ = side_questions(*question_.window, options_.memory_limit, question_.max_in_flight,
                             {options_.symmetry, question_.copies}, deadline);
    }
    if (!side_.questions || !side_.questions->fits(target)) return nullptr;
    return side_.questions.get();
  }

  OrderSolver& cycles_;
  const OrderPeriodQuestion& question_;
  const SearchOptions& options_;
  std::unique_ptr<PhaseQuestions> own_;
  PhaseQuestions* direct_ = nullptr;
  SideQuestions side_;
  bool hand_over_ = false;
  bool always_side_ = false;
};

// The decoded starts as a modulo solution (earliest start 0), re-checked
// from the definition: a wrong theory stops here instead of reaching the user.
ModuloSolution checked(const Placement& window, const std::vector<long long>& memory_limit, Time period,
                       const std::vector<Time>& starts, int max_in_flight) {
  const Time earliest = *std::min_element(starts.begin(), starts.end());
  Time latency = 0;
  for (size_t b = 0; b < starts.size(); ++b) latency = std::max(latency, starts[b] - earliest + window.blocks[b].span);
  if (latency > INT_MAX || period > INT_MAX)
    throw InputError("", "blocks", "the repetend spans " + std::to_string(latency) +
                                       " ticks, more than the search's 2^31; use a coarser time unit or --resolution");
  ModuloSolution solution{static_cast<int>(period), {}, static_cast<int>(latency),
                          static_cast<int>((latency + period - 1) / period)};
  for (Time start : starts) solution.starts.push_back(static_cast<int>(start - earliest));
  if (auto violation = modulo_violation(window, memory_limit, solution, max_in_flight))
    throw std::logic_error("order search: the answer for period " + std::to_string(period) +
                           " is not a valid repetend (" + *violation + "): a bug in the cyclic order encoding");
  return solution;
}

// What one order search works with, for its steps apart from the loop.
struct OrderRun {
  OrderSolver& solver;
  Backend& backend;
  const OrderPeriodQuestion& question;
  const SearchOptions& options;
  std::vector<SolverCall>& calls;
};

// The shortest latency at `period` (answer.solution holds one of it), by
// bisection from the critical path, within a budget of as long as the period
// took when options.latency_budget is set.
void shortest_latency(const OrderRun& run, Time period, const Deadline& deadline, OrderPeriodAnswer& answer) {
  Deadline latency_deadline = deadline;
  if (run.options.latency_budget) {
    Deadline own = Deadline::after_seconds(std::max(run.options.latency_min_seconds, answer.period_seconds));
    if (own.at < latency_deadline.at) latency_deadline = own;
  }
  Time low = critical_path(*run.question.window);
  while (low < answer.solution->latency) {
    const Time mid = low + (answer.solution->latency - low) / 2;
    const LatencyBound bound{period, mid, run.backend.new_bool()};
    const auto call_start = std::chrono::steady_clock::now();
    Reply reply = run.solver.ask(period, bound, latency_deadline);
    const double seconds = seconds_since(call_start);
    run.calls.push_back({run.question.label + "latency <= " + std::to_string(mid), reply.answer, seconds});
    std::ostringstream line;
    line << "repetend (orders): " << run.question.label << "latency <= " << mid << ": " << answer_name(reply.answer)
         << " (" << seconds << " s)";
    if (run.options.progress) run.options.progress(line.str());
    if (reply.answer == Answer::Sat) {
      answer.solution = checked(*run.question.window, run.options.memory_limit, period, reply.starts,
                                run.question.max_in_flight);
    } else if (reply.answer == Answer::Unsat) {
      low = mid + 1;
    } else {
      (deadline.expired() ? answer.latency_gave_up : answer.latency_unfinished) = true;
      break;
    }
  }
}

}  // namespace

OrderPeriodAnswer search_order_period(const OrderPeriodQuestion& question, const SearchOptions& options,
                                      const Deadline& deadline, std::vector<SolverCall>& calls) {
  const auto begin = std::chrono::steady_clock::now();
  const Placement& window = *question.window;
  OrderPeriodAnswer answer;
  auto report = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  std::unique_ptr<Backend> backend = make_backend(options.backend);
  const CyclicOrderEncoding encoding = encode_cyclic_order(*backend, window, options.memory_limit,
                                                           question.max_in_flight,
                                                           {options.symmetry, question.copies}, deadline);
  answer.proven_lower_bound = encoding.period_floor;
  if (!encoding.complete) {
    answer.gave_up = true;
    answer.period_seconds = seconds_since(begin);
    return answer;
  }
  OrderSolver solver(*backend, encoding, window);
  PeriodQuestions questions(solver, *backend, encoding, question, options);

  // First L (for a while), then down from the top: each answer's exact
  // period minus one.
  Time target = std::min(encoding.period_floor, question.last_period);
  bool floor_question = target < question.last_period;
  std::optional<Reply> best;
  while (target >= answer.proven_lower_bound) {
    const auto call_start = std::chrono::steady_clock::now();
    const long long calls_before = solver.solver_calls + questions.difference_calls();
    const long long cycles_before = solver.cycles_learned;
    std::string how;
    Reply reply = questions.ask(target, floor_question, deadline, how);
    const double seconds = seconds_since(call_start);
    calls.push_back({question.label + "period <= " + std::to_string(target) + " by " + how, reply.answer, seconds});
    std::ostringstream line;
    line << "repetend (orders): " << question.label << "period <= " << target << ": " << answer_name(reply.answer);
    if (reply.answer == Answer::Sat) line << ", period " << reply.period;
    line << " (" << how << ", " << seconds << " s, "
         << solver.solver_calls + questions.difference_calls() - calls_before << " solver calls, "
         << solver.cycles_learned - cycles_before << " cycles learned)";
    report(line.str());
    if (reply.answer == Answer::Unknown && floor_question && !deadline.expired()) {
      floor_question = false;  // not quickly settled: the answer is likely above L
      target = question.last_period;
      continue;
    }
    floor_question = false;
    if (reply.answer == Answer::Unknown) {
      answer.gave_up = true;
      break;
    }
    if (reply.answer == Answer::Unsat) {
      answer.proven_lower_bound = target + 1;
      target = best ? best->period - 1 : (target < question.last_period ? question.last_period : target - 1);
      continue;
    }
    best = reply;
    target = reply.period - 1;
  }
  answer.solver_calls = solver.solver_calls + questions.difference_calls();
  answer.cycles_learned = solver.cycles_learned;
  answer.period_seconds = seconds_since(begin);
  if (!best) return answer;
  answer.ratio = best->ratio;
  answer.solution = checked(window, options.memory_limit, best->period, best->starts, question.max_in_flight);
  if (answer.gave_up) return answer;  // not proven: no latency search on top

  // The shortest latency at this period, within a budget of as long as the
  // period took (as the unit-step search does, repetend_search.cpp).
  const auto latency_begin = std::chrono::steady_clock::now();
  shortest_latency({solver, *backend, question, options, calls}, best->period, deadline, answer);
  answer.latency_seconds = seconds_since(latency_begin);
  answer.solver_calls = solver.solver_calls + questions.difference_calls();
  answer.cycles_learned = solver.cycles_learned;
  return answer;
}

}  // namespace tessel
