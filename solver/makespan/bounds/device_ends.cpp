// The idle a device cannot avoid at each end of a long run (see the header).
#include "solver/makespan/bounds/device_ends.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "solver/knobs/encoding_budget.hpp"
#include "solver/makespan/bounds/relaxed_windows.hpp"

namespace tessel {
namespace {

// One copy of the kept device in an end: its start lies in [head, window]
// (window: outside the end); its memory counts at steps >= start + offset.
struct EndCopy {
  Time head = 0;
  Time span = 1;
  Memory memory = 0;
  Time memory_offset = 0;
};

// start(after) - start(before) >= lag, when `after` is inside the end (a
// copy inside has every copy it follows inside too).
struct EndPrecedence {
  int before = 0, after = 0;
  Time lag = 0;
};

struct EndProblem {
  Time window = 0;
  bool memory = false;  // a limit applies
  Memory limit = 0;     // on the sum of the memory counted by each step
  std::vector<EndCopy> copies;
  std::vector<EndPrecedence> precedences;
};

// The kept device's blocks and their copies' windows, computed once for
// every end asked of it.
struct DeviceCopies {
  KeptDevice kept;
  CopyWindows windows;
};

DeviceCopies device_copies(const DeviceRelaxationInput& in, int device) {
  const Memory limit = in.limits.empty() ? -1 : in.limits[device];
  return {kept_device(*in.placement, device), relaxed_windows(*in.placement, in.total_micros, device, limit)};
}

// The copies whose (reversed) head falls inside the end, indexed [block
// position in kept.own][micro-batch], -1 where outside; and the chains
// between them, reversed for the last steps.
EndProblem end_problem(const DeviceRelaxationInput& in, const DeviceCopies& copies, int device, Time window,
                       bool reversed) {
  const Placement& placement = *in.placement;
  const Memory limit = in.limits.empty() ? -1 : in.limits[device];
  const CopyWindows& windows = copies.windows;
  const KeptDevice& kept = copies.kept;
  EndProblem problem;
  problem.window = window;
  problem.memory = !in.limits.empty();
  problem.limit = limit;
  std::vector<std::vector<int>> index(kept.own.size(), std::vector<int>(in.total_micros, -1));
  for (size_t i = 0; i < kept.own.size(); ++i) {
    const Block& block = placement.blocks[kept.own[i]];
    for (long long n = 0; n < in.total_micros; ++n) {
      const Time head = reversed ? windows.tail[kept.own[i]][n] - block.span : windows.head[kept.own[i]][n];
      if (head >= window) continue;
      index[i][n] = static_cast<int>(problem.copies.size());
      // Reversed, the level at the end less what starts after a step: a
      // copy's change counts from its reversed start + span on, negated.
      if (reversed) problem.copies.push_back({head, block.span, -block.memory, block.span});
      else problem.copies.push_back({head, block.span, block.memory, 0});
    }
    if (reversed) problem.limit -= block.memory * in.total_micros;
  }
  // start(y) >= start(x) + lag becomes, reversed, start'(x) >= start'(y) +
  // lag + span(y) - span(x).
  auto precede = [&](int x, int y, Time lag) {
    if (x < 0 || y < 0) return;
    if (!reversed) return problem.precedences.push_back({x, y, lag});
    problem.precedences.push_back({y, x, lag + problem.copies[y].span - problem.copies[x].span});
  };
  for (size_t i = 0; i < kept.own.size(); ++i)
    for (long long n = 0; n < in.total_micros; ++n) {
      if (n > 0) precede(index[i][n - 1], index[i][n], placement.blocks[kept.own[i]].span);
      for (size_t j = 0; j < kept.own.size(); ++j)
        if (kept.before(kept.own[j], kept.own[i]))
          precede(index[j][n], index[i][n], kept.distance[kept.own[j]][kept.own[i]]);
    }
  return problem;
}

// "Can the idle inside the end be at most x?" on one incremental solver.
class EndSolver {
 public:
  EndSolver(const EndProblem& problem, const DeviceRelaxationInput& in) : problem_(problem), in_(in) {}

  bool build() {
    backend_ = make_backend(in_.backend, in_.settings);
    const int window = static_cast<int>(problem_.window);
    for (const EndCopy& copy : problem_.copies) starts_.push_back(backend_->new_int(static_cast<int>(copy.head), window));
    for (const EndPrecedence& p : problem_.precedences)
      backend_->add_difference(starts_[p.after], starts_[p.before], static_cast<int>(p.lag),
                               {backend_->at_most(starts_[p.after], window - 1)});
    for (Time step = 0; step < problem_.window; ++step) {
      if (in_.deadline.expired()) return false;
      one_at_a_time(step);
      if (problem_.memory) memory_within(step);
    }
    for (size_t c = 0; c < starts_.size(); ++c)
      for (Time k = 1; k <= problem_.copies[c].span; ++k) {
        work_.bools.push_back({1, ~backend_->at_most(starts_[c], static_cast<int>(problem_.window - k))});
        ++most_work_;
      }
    return true;
  }

  Answer idle_at_most(Time idle, const Deadline& deadline) {
    const long long not_done = most_work_ - (problem_.window - idle);  // steps of work left out, at most
    if (not_done < 0) return Answer::Unsat;
    const Lit guard = backend_->new_bool();
    backend_->add_linear_at_most(work_, not_done, {guard});
    return backend_->solve({guard}, deadline);
  }

  // The idle of the last model.
  Time model_idle() {
    Time work = 0;
    for (size_t c = 0; c < starts_.size(); ++c)
      work += std::clamp<Time>(problem_.window - backend_->value(starts_[c]), 0, problem_.copies[c].span);
    return problem_.window - work;
  }

 private:
  // At most one copy occupies the step: one starting in [step - span + 1, step].
  void one_at_a_time(Time step) {
    LinearSum occupants;
    for (size_t c = 0; c < starts_.size(); ++c) {
      const EndCopy& copy = problem_.copies[c];
      if (copy.head > step || step - copy.span + 1 >= problem_.window) continue;
      const Lit occupies = backend_->new_bool();
      backend_->add_clause({~backend_->at_most(starts_[c], static_cast<int>(step)),
                            backend_->at_most(starts_[c], static_cast<int>(step - copy.span)), occupies});
      occupants.bools.push_back({1, occupies});
    }
    if (occupants.bools.size() > 1) backend_->add_linear_at_most(occupants, 1);
  }

  // The level after the step: every copy counted once its offset has passed.
  void memory_within(Time step) {
    LinearSum level;
    for (size_t c = 0; c < starts_.size(); ++c) {
      const EndCopy& copy = problem_.copies[c];
      const Time latest = step - copy.memory_offset;
      if (copy.memory == 0 || latest < copy.head) continue;
      level.bools.push_back({copy.memory, backend_->at_most(starts_[c], static_cast<int>(latest))});
    }
    backend_->add_linear_at_most(level, problem_.limit);
  }

  const EndProblem& problem_;
  const DeviceRelaxationInput& in_;
  std::unique_ptr<Backend> backend_;
  std::vector<IntVar> starts_;
  LinearSum work_;  // one literal per step of work a copy may leave outside the end
  long long most_work_ = 0;
};

// least_end_idle on copies in hand.
long long least_idle(const DeviceRelaxationInput& input, const DeviceCopies& copies, int device, long long window,
                     bool reversed, const EndQuestions& questions) {
  if (window <= 0) return 0;
  const EndProblem problem = end_problem(input, copies, device, window, reversed);
  // One order literal per step of every copy's window: refused past the
  // relaxation's budget (spans of a million steps would ask for gigabytes).
  long long literals = 0;
  for (const EndCopy& copy : problem.copies) literals += window - copy.head + 1;
  if (literals > input.most_literals) return 0;
  // Its count over the window's steps is about window squared terms: past
  // what the time left affords (knobs/encoding_budget.hpp), nothing is learned here.
  const double terms = static_cast<double>(literals) + static_cast<double>(window) * static_cast<double>(window);
  // (Not a line per window skipped: every larger window is skipped too.)
  if (!affords_encoding(input.terms_per_second, terms, input.deadline)) return 0;
  EndSolver solver(problem, input);
  if (!solver.build()) return 0;
  // Least feasible idle in (low, high]: low refuted, high feasible (every
  // copy outside is a schedule of the end).
  long long low = -1, high = window;
  if (questions.known >= 0) high = std::min<long long>(high, questions.known);
  long long ceiling = high;
  bool first = questions.first >= 0 && questions.first < high;
  while (high - low > 1 && low + 1 < questions.enough && !input.deadline.expired()) {
    const long long question = first ? questions.first : low + (ceiling - low) / 2;
    if (question <= low) break;  // every question left went undecided
    // Half the time left per question (three quarters for the one asked
    // first, whose refutation is the one that matters).
    const Deadline slice = input.deadline.unlimited() ? input.deadline
                                                      : input.deadline.within(input.deadline.seconds_left() *
                                                                              (first ? 0.75 : 0.5));
    first = false;
    const auto begin = std::chrono::steady_clock::now();
    const Answer answer = solver.idle_at_most(question, slice);
    if (input.progress)
      input.progress(std::string("ends: device ") + std::to_string(device) + (reversed ? " last " : " first ") +
                     std::to_string(window) + " steps, idle <= " + std::to_string(question) + ": " +
                     answer_name(answer) + " (" + std::to_string(seconds_since(begin)) + " s)");
    if (answer == Answer::Unsat) low = question;
    else if (answer == Answer::Sat) high = ceiling = std::min<long long>(question, solver.model_idle());
    else ceiling = question;
  }
  return low + 1;
}

// The idle of `device` in the first (`reversed`: last) `window` steps of
// the schedule in hand, or -1 without one.
long long hint_end_idle(const DeviceRelaxationInput& input, int device, long long window, bool reversed) {
  if (!input.hint) return -1;
  const Placement& placement = *input.placement;
  const Time end = makespan(*input.hint);
  const Time from = reversed ? end - window : 0, to = reversed ? end : window;
  long long busy = 0;
  for (const Instance& instance : input.hint->instances) {
    if (instance.block < 0 || instance.block >= static_cast<int>(placement.blocks.size())) return -1;
    const Block& block = placement.blocks[instance.block];
    if (!on_device(block, device)) continue;
    busy += std::max<Time>(0, std::min(to, instance.start + block.span) - std::max(from, instance.start));
  }
  return window - busy;
}

// W + idle(first window) + idle(last window) of `device`, as far as decided.
long long ends_at(const DeviceRelaxationInput& input, const DeviceCopies& copies, int device, long long window,
                  long long work) {
  DeviceRelaxationInput first = input;
  if (!input.deadline.unlimited()) first.deadline = input.deadline.within(input.deadline.seconds_left() / 2);
  // The first end asked first just below the schedule in hand's idle there
  // (where the bound is asked that schedule is often optimal, its idle all
  // in the ends, and this refutation is then the one that counts); the
  // last end first for what would take the bound to the target.
  const long long known_first = hint_end_idle(input, device, window, false);
  const long long idle_first =
      least_idle(first, copies, device, window, false, {input.target - work, known_first, known_first - 1});
  const long long needed = input.target - work - idle_first;
  const long long idle_last =
      least_idle(input, copies, device, window, true, {needed, hint_end_idle(input, device, window, true), needed - 1});
  const long long bound = work + idle_first + idle_last;
  if (bound > input.target)
    throw std::logic_error("device ends: " + std::to_string(bound) + " above the makespan " +
                           std::to_string(input.target) + " of a schedule in hand on device " + std::to_string(device));
  return bound;
}

}  // namespace

long long least_end_idle(const DeviceRelaxationInput& input, int device, long long window, bool reversed,
                         const EndQuestions& questions) {
  return least_idle(input, device_copies(input, device), device, window, reversed, questions);
}

long long device_ends_bound(const DeviceRelaxationInput& input, int device) {
  const Placement& placement = *input.placement;
  const long long work = device_load(placement)[device] * input.total_micros;
  // Ends that fit within the floor (so within every makespan), from half a
  // micro-batch's chain to two, growing by a quarter. The idle of a warmup
  // or cooldown lies within a few chains of the end, and a short end is
  // decided far sooner when it holds enough (V-Min, 16 stages, 128
  // micro-batches, the last end: 24 idle steps proven in 0.1 s within 50
  // steps, 20 s within 130, undecided in a minute within 100; 40 steps
  // hold only 15). With a schedule in hand the first end tried is the
  // shortest in which its idle could reach the target.
  const long long longest = std::min<long long>(input.floor / 2, 2 * critical_path(placement));
  std::vector<long long> windows;
  for (long long window = std::max<long long>(8, critical_path(placement) / 2); window < longest;
       window += std::max<long long>(1, window / 4))
    windows.push_back(window);
  if (longest > 0) windows.push_back(longest);
  size_t from = 0;
  while (input.hint && from + 1 < windows.size() &&
         work + hint_end_idle(input, device, windows[from], false) + hint_end_idle(input, device, windows[from], true) <
             input.target)
    ++from;
  const DeviceCopies copies = device_copies(input, device);
  long long best = input.floor;
  for (size_t i = from; i < windows.size() && best < input.target && !input.deadline.expired(); ++i) {
    DeviceRelaxationInput own = input;
    if (!input.deadline.unlimited() && i + 1 < windows.size())
      own.deadline = input.deadline.within(input.deadline.seconds_left() / 2);
    best = std::max(best, ends_at(own, copies, device, windows[i], work));
  }
  return best;
}

}  // namespace tessel
