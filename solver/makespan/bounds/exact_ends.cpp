// The exact ends bound (see the header).
//
// Why it is a lower bound. Take any schedule of N micro-batches with
// makespan T, its copies of each block sorted into micro-batch order (the
// full search's symmetry: this keeps every dependency and memory curve). The
// head window [0, w): its instances that start before w are a feasible
// answer of the window problem below (each is there, its predecessors
// started before it, so before w; the no-overlap and memory hold at every
// step; memory changes only when a block starts, so the level at a step
// before w counts only instances that started before w). The device's busy
// steps in [0, w) are those of its instances cut at w, so its idle there is
// at least the window problem's least idle. The tail window [T - w, T), read
// backwards (time T - t, an instance of span s started at t starts at
// T - t - s), is the same problem on the reversed dependencies: an instance
// is in it when it ends after T - w; the memory at step T - 1 - u is the
// level after all N micro-batches (N x the device's net memory, known)
// minus what the instances starting after it allocate, which are exactly
// those that, reversed, end by u. With 2w <= T the two windows are
// disjoint, so T >= N load(d) + idle in the head + idle in the tail.
//
// The window problem: copy m of block b has a start in [lo, w], w meaning
// "not in the window" (copies whose earliest start is w or later are left
// out: they cannot be in it). Its dependencies and micro-batch order hold
// when it is in the window; an occupancy literal per device step it could
// cover, at most one per device step; the memory of each device at each
// step within its limit; and an idle literal per step of the device asked,
// true when no occupancy is, counted under a guard. The least idle is
// searched under assumptions on one incremental solver per end and window.
//
// The windows grow by half from a quarter of the critical path (the small
// ones are decided in milliseconds and already raise most ends) up to half
// the known bound, while the time lasts: a larger window never lowers an
// end's least idle, and each device keeps the best found.
#include "solver/makespan/bounds/exact_ends.hpp"

#include "solver/knobs/encoding_budget.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <memory>

namespace tessel {
namespace {

// One end of the schedule as a forward problem: per block, its earliest
// start in this direction and its predecessors with the distance to them;
// the memory terms (weight x [start <= step - shift]) and budget per device.
struct EndView {
  std::vector<std::vector<std::pair<int, Time>>> preds;  // (block, start distance)
  std::vector<int> order;                                 // preds before their blocks
  std::vector<Time> earliest;
  std::vector<Memory> weight;
  std::vector<Time> shift;
  std::vector<Memory> budget;  // per device; empty: no memory limits
  std::vector<std::vector<char>> reach;  // reach[a][b]: a precedes b in one micro-batch
};

void fill_reach(EndView& view) {
  const size_t n = view.preds.size();
  view.reach.assign(n, std::vector<char>(n, 0));
  for (int b : view.order)
    for (const auto& [pred, distance] : view.preds[b]) {
      view.reach[pred][b] = 1;
      for (size_t x = 0; x < n; ++x)
        if (view.reach[x][pred]) view.reach[x][b] = 1;
    }
}

EndView head_view(const ExactEndsInput& in) {
  const Placement& placement = *in.placement;
  EndView view;
  view.preds.resize(placement.blocks.size());
  for (const Edge& edge : placement.edges)
    view.preds[edge.to].push_back({edge.from, placement.blocks[edge.from].span + edge.delay});
  view.order = topological_order(placement);
  view.earliest = earliest_starts(placement);
  for (const Block& block : placement.blocks) {
    view.weight.push_back(block.memory);
    view.shift.push_back(0);
  }
  view.budget = in.limits;
  fill_reach(view);
  return view;
}

// Time reversed: an edge a -> b becomes b -> a at distance span(b) + delay;
// an instance counts against memory once it has ended (reversed), with its
// memory negated, against the limit minus the level after all N.
EndView tail_view(const ExactEndsInput& in) {
  const Placement& placement = *in.placement;
  EndView view;
  view.preds.resize(placement.blocks.size());
  for (const Edge& edge : placement.edges)
    view.preds[edge.from].push_back({edge.to, placement.blocks[edge.to].span + edge.delay});
  view.order = topological_order(placement);
  std::reverse(view.order.begin(), view.order.end());
  view.earliest.assign(placement.blocks.size(), 0);
  for (int b : view.order)
    for (const auto& [pred, distance] : view.preds[b])
      view.earliest[b] = std::max(view.earliest[b], view.earliest[pred] + distance);
  for (const Block& block : placement.blocks) {
    view.weight.push_back(-block.memory);
    view.shift.push_back(block.span);
  }
  fill_reach(view);
  if (in.limits.empty()) return view;
  const std::vector<Memory> net = memory_balance(placement);
  for (int d = 0; d < placement.ndevs; ++d) view.budget.push_back(in.limits[d] - in.total_micros * net[d]);
  return view;
}

struct Instance {
  int block = 0;
  long long micro = 0;  // the copy's index in micro-batch order
  Time lo = 0;  // earliest start
  IntVar start;
  Lit in;  // [start <= w - 1]
};

// The window problem of one end on one incremental solver.
class EndProblem {
 public:
  EndProblem(const ExactEndsInput& in, const EndView& view, Time window)
      : in_(in), view_(view), w_(window), backend_(make_backend(in.backend, in.settings)) {}

  // Copies and their earliest starts, as many as memory lets into the
  // window; false when too large for the budget.
  bool enumerate() {
    list_copies(std::vector<long long>(in_.placement->blocks.size(), in_.total_micros));
    if (view_.budget.empty()) return literals_ <= in_.most_literals;
    list_copies(memory_caps());
    return literals_ <= in_.most_literals;
  }

  // False when the deadline passed first: a large window's encoding can
  // take longer than a short budget (zb-v, 16 stages, 32 micro-batches:
  // a second past the plan), so it is checked device by device.
  bool encode() {
    const std::vector<Block>& blocks = in_.placement->blocks;
    on_device_.assign(in_.placement->ndevs, {});
    for (size_t x = 0; x < instances_.size(); ++x) {
      Instance& i = instances_[x];
      i.start = backend_->new_int(static_cast<int>(i.lo), static_cast<int>(w_));
      i.in = backend_->at_most(i.start, static_cast<int>(w_ - 1));
      for (int d : blocks[i.block].devices) on_device_[d].push_back(static_cast<int>(x));
    }
    for (size_t b = 0; b < blocks.size(); ++b)
      for (size_t m = 0; m < copies_[b].size(); ++m) {
        const Instance& own = instances_[copies_[b][m]];
        for (const auto& [pred, distance] : view_.preds[b])
          backend_->add_difference(own.start, instances_[copies_[pred][m]].start, static_cast<int>(distance),
                                   {own.in});
        if (m > 0)
          backend_->add_difference(own.start, instances_[copies_[b][m - 1]].start,
                                   static_cast<int>(blocks[b].span), {own.in});
      }
    occupancy_.assign(in_.placement->ndevs, {});
    for (int d = 0; d < in_.placement->ndevs; ++d) {
      if (in_.deadline.expired()) return false;
      if (pairwise_) {
        encode_pairs(d);
        continue;
      }
      for (const std::vector<Lit>& step : occupancy_of(d))
        if (step.size() > 1) {
          LinearSum sum;
          for (Lit o : step) sum.bools.push_back({1, o});
          backend_->add_linear_at_most(sum, 1);
        }
    }
    if (view_.budget.empty()) return true;
    for (int d = 0; d < in_.placement->ndevs; ++d) {
      if (in_.deadline.expired()) return false;
      encode_memory(d);
    }
    return true;
  }

  // The least idle of `device` in the window as far as decided (a lower
  // bound on it), known to be at least `from`; -1 when the window problem
  // has no answer at all. First "idle <= from" (usually satisfiable: this
  // window raises nothing); refuted, "idle < goal" (the idle that would
  // reach the target), which refuted settles it at once. Then the bound is
  // raised in doubling strides (the answers are usually a few steps up) and
  // bisected once a question is satisfiable.
  long long least_idle(int device, long long from, long long goal = 0) {
    long long low = std::max<long long>(0, from), high = w_;
    if (low >= w_) return low;  // nothing to learn here
    bool bracketed = false;  // a satisfiable answer set `high`
    if (Answer answer = idle_at_most(device, low); answer != Answer::Unsat) return low;
    ++low;
    if (goal > low && goal <= w_) {
      const Answer answer = idle_at_most(device, goal - 1, 2);
      if (answer == Answer::Unsat) return goal;
      if (answer == Answer::Unknown) return low;
      high = true_idle(device);
      bracketed = true;
    }
    long long stride = 1;
    while (low < high) {
      const long long ask = bracketed ? low + (high - 1 - low) / 2 : std::min(high - 1, low + stride - 1);
      const Answer answer = idle_at_most(device, ask);
      if (answer == Answer::Unknown) break;
      if (answer == Answer::Sat) {
        high = true_idle(device);
        bracketed = true;
        continue;
      }
      low = ask + 1;
      stride *= 2;
    }
    if (low == w_ && backend_->solve({}, in_.deadline) == Answer::Unsat) return -1;
    return low;
  }

  bool complete() const { return complete_; }
  long long literals() const { return literals_; }

 private:
  // A satisfiable question can take long on a large window and raises
  // nothing, so each gets a share of the time left (the one that would
  // reach the target half, the others a quarter).
  Deadline question_deadline(int share) const {
    return in_.deadline.unlimited() ? in_.deadline : in_.deadline.within(in_.deadline.seconds_left() / share);
  }

  // The copies of each block that could start in the window, at most
  // cap[block] of them: in micro-batch order, each after its own previous
  // copy and its predecessors' copy of the same micro-batch.
  void list_copies(const std::vector<long long>& cap) {
    const std::vector<Block>& blocks = in_.placement->blocks;
    copies_.assign(blocks.size(), {});
    instances_.clear();
    literals_ = 0;
    for (int b : view_.order) {
      for (long long m = 0; m < std::min(cap[b], in_.total_micros); ++m) {
        Time lo = m > 0 ? instances_[copies_[b].back()].lo + blocks[b].span : view_.earliest[b];
        bool present = true;
        for (const auto& [pred, distance] : view_.preds[b]) {
          if (static_cast<long long>(copies_[pred].size()) <= m) {
            present = false;
            break;
          }
          lo = std::max(lo, instances_[copies_[pred][m]].lo + distance);
        }
        if (!present || lo >= w_) break;
        literals_ += w_ - lo + 1;
        copies_[b].push_back(static_cast<int>(instances_.size()));
        instances_.push_back({b, m, lo, {}, {}});
      }
    }
  }

  // Copy m of a block that uses memory on d (weight > 0) can be in the
  // window only if the memory of d at its start, where copies 0..m-1 of it
  // and 0..m of its ancestors on d that use memory count, minus all the
  // memory the listed copies that give some back could give, is within the
  // budget. The copies listed so far bound what can give back.
  std::vector<long long> memory_caps() const {
    const std::vector<Block>& blocks = in_.placement->blocks;
    std::vector<long long> cap(blocks.size(), in_.total_micros);
    std::vector<std::vector<int>> own(in_.placement->ndevs);
    for (size_t b = 0; b < blocks.size(); ++b)
      for (int d : blocks[b].devices) own[d].push_back(static_cast<int>(b));
    for (int d = 0; d < in_.placement->ndevs; ++d) {
      Memory credit = 0;
      for (int c : own[d])
        if (view_.weight[c] < 0) credit += -view_.weight[c] * static_cast<Memory>(copies_[c].size());
      const Memory room = view_.budget[d] + credit;
      for (int b : own[d]) {
        if (view_.weight[b] <= 0) continue;
        Memory ancestors = 0;  // per micro-batch
        for (int a : own[d])
          if (a != b && view_.weight[a] > 0 && view_.reach[a][b]) ancestors += view_.weight[a];
        // m weight(b) + (m + 1) ancestors <= room
        const long long most = room < ancestors ? -1 : (room - ancestors) / (view_.weight[b] + ancestors);
        cap[b] = std::min(cap[b], most + 1);
      }
    }
    return cap;
  }

  // Per step of the window, o <-> [start <= t] and not [start <= t - span]
  // for each instance of `device` that could cover it (built once).
  const std::vector<std::vector<Lit>>& occupancy_of(int device) {
    std::vector<std::vector<Lit>>& steps = occupancy_[device];
    if (!steps.empty()) return steps;
    steps.resize(w_);
    for (int x : on_device_[device]) {
      const Instance& i = instances_[x];
      const Block& block = in_.placement->blocks[i.block];
      for (Time t = i.lo; t < w_; ++t) {
        const Lit started = backend_->at_most(i.start, static_cast<int>(t));
        const Lit ended = backend_->at_most(i.start, static_cast<int>(t - block.span));
        const Lit o = backend_->new_bool();
        backend_->add_clause({~o, started});
        backend_->add_clause({~o, ~ended});
        backend_->add_clause({o, ~started, ended});
        steps[t].push_back(o);
      }
    }
    return steps;
  }

  // Two instances of the device in the window run one after the other: a
  // Boolean picks which, as guarded differences. Copies of one block and
  // blocks of one micro-batch that depend on each other are ordered already.
  void encode_pairs(int device) {
    const std::vector<Block>& blocks = in_.placement->blocks;
    const std::vector<int>& own = on_device_[device];
    for (size_t x = 0; x < own.size(); ++x)
      for (size_t y = x + 1; y < own.size(); ++y) {
        const Instance& a = instances_[own[x]];
        const Instance& b = instances_[own[y]];
        if (a.block == b.block) continue;
        if (a.micro == b.micro && (view_.reach[a.block][b.block] || view_.reach[b.block][a.block])) continue;
        const Lit first = backend_->new_bool();  // a before b
        backend_->add_difference(b.start, a.start, static_cast<int>(blocks[a.block].span), {first, b.in});
        backend_->add_difference(a.start, b.start, static_cast<int>(blocks[b.block].span), {~first, a.in});
      }
  }

  void encode_memory(int device) {
    for (Time t = 0; t < w_; ++t) {
      LinearSum sum;
      for (int x : on_device_[device]) {
        const Instance& i = instances_[x];
        const Memory weight = view_.weight[i.block];
        if (weight == 0 || t - view_.shift[i.block] < i.lo) continue;
        sum.bools.push_back({weight, backend_->at_most(i.start, static_cast<int>(t - view_.shift[i.block]))});
      }
      if (!sum.bools.empty()) backend_->add_linear_at_most(sum, view_.budget[device]);
    }
  }

  // idle_t is true when no occupancy literal of the device at t is (built
  // once per device).
  const std::vector<Lit>& idle_literals(int device) {
    auto found = std::find_if(idle_.begin(), idle_.end(), [&](const auto& p) { return p.first == device; });
    if (found != idle_.end()) return found->second;
    std::vector<Lit> idle;
    const std::vector<std::vector<Lit>>& occupancy = occupancy_of(device);
    for (Time t = 0; t < w_; ++t) {
      const Lit l = backend_->new_bool();
      std::vector<Lit> clause = occupancy[t];
      clause.push_back(l);
      backend_->add_clause(clause);
      idle.push_back(l);
    }
    idle_.push_back({device, idle});
    return idle_.back().second;
  }

  // "The device idles at most k steps of the window", under a fresh guard,
  // with 1 / `share` of the time left.
  Answer idle_at_most(int device, long long k, int share = 4) {
    LinearSum sum;
    for (Lit l : idle_literals(device)) sum.bools.push_back({1, l});
    const Lit guard = backend_->new_bool();
    backend_->add_linear_at_most(sum, k, {guard});
    const Answer answer = backend_->solve({guard}, question_deadline(share));
    if (answer == Answer::Unknown) complete_ = false;
    return answer;
  }

  // The idle of the last satisfiable answer.
  long long true_idle(int device) { return count_true(idle_literals(device)); }

  long long count_true(const std::vector<Lit>& lits) {
    long long count = 0;
    for (Lit l : lits) count += backend_->value(l);
    return count;
  }

  const ExactEndsInput& in_;
  const EndView& view_;
  Time w_;
  std::unique_ptr<Backend> backend_;
  std::vector<std::vector<int>> copies_;  // [block] -> instance indices in micro-batch order
  std::vector<Instance> instances_;
  std::vector<std::vector<int>> on_device_;  // [device] -> its instances
  long long literals_ = 0;  // order literals of the starts listed
  std::vector<std::vector<std::vector<Lit>>> occupancy_;  // [device][step], built when needed
  // No-overlap by ordered pairs instead of one occupant per step: Z3 decides
  // guarded differences natively, CaDiCaL propagates the occupancy literals
  // of its order encoding better. Z3 stays far slower either way (V-Min, 2
  // ranks, 4 micro-batches: 3.8 s paired, 4.5 s by occupancy; CaDiCaL 0.05 s).
  bool pairwise_ = in_.backend == "z3";
  std::vector<std::pair<int, std::vector<Lit>>> idle_;
  bool complete_ = true;
};

// The earliest any block of `device` can start in this view: the least idle
// of any window (capped by its length).
Time first_start(const ExactEndsInput& in, const EndView& view, int device) {
  Time first = LLONG_MAX;
  for (size_t b = 0; b < in.placement->blocks.size(); ++b)
    if (on_device(in.placement->blocks[b], device)) first = std::min(first, view.earliest[b]);
  return first;
}

// Windows grow by half each round (see the top of the file).
Time next_window(Time window) { return window + std::max<Time>(1, window / 2); }

// A progress line per window: the windows of a wide gap can take seconds.
void report_window(const ExactEndsInput& input, Time window, long long literals, const ExactEnds& best) {
  if (!input.progress) return;
  const std::string found =
      best.value <= input.floor
          ? "nothing above " + std::to_string(input.floor)
          : "makespan >= " + std::to_string(best.value) + " (device " + std::to_string(best.device) + ")";
  input.progress("exact ends: windows of " + std::to_string(window) + " steps (" + std::to_string(literals) +
                 " literals): " + found + (input.deadline.expired() ? ", out of time" : ""));
}

// Whether the encodings of a window (`literals` order literals for both
// ends, and per end a count over its `window` idle steps) fit the time
// left (affords_encoding); a progress line says why not.
bool affords_window(const ExactEndsInput& input, Time window, long long literals) {
  const double terms = static_cast<double>(literals) + 2.0 * static_cast<double>(window) * static_cast<double>(window);
  if (affords_encoding(input.terms_per_second, terms, input.deadline)) return true;
  if (input.progress)
    input.progress("exact ends: windows of " + std::to_string(window) + " steps skipped: their encodings would hold " +
                   std::to_string(static_cast<long long>(terms)) + " terms (" + std::to_string(literals) +
                   " literals and the steps' counts), more than " + std::to_string(input.deadline.seconds_left()) +
                   " s afford at " + std::to_string(static_cast<long long>(input.terms_per_second)) +
                   " terms per second (--tune encoding_terms_per_second)");
  return false;
}

ExactEnds finished(ExactEnds best, bool complete) {
  best.complete = complete;
  return best;
}

}  // namespace

long long least_end_idle(const ExactEndsInput& input, int device, bool tail, Time window) {
  const EndView view = tail ? tail_view(input) : head_view(input);
  EndProblem problem(input, view, window);
  if (!problem.enumerate()) return -1;
  const Time from = std::min(window, first_start(input, view, device));
  if (!problem.encode()) return from;  // out of time: only what was known
  return problem.least_idle(device, from);
}

ExactEnds exact_ends_bound(const ExactEndsInput& input) {
  ExactEnds best;
  const Placement& placement = *input.placement;
  if (input.total_micros <= 0 || placement.blocks.empty()) return best;
  if (!input.limits.empty() && static_cast<int>(input.limits.size()) != placement.ndevs) return best;
  const Time last_window = std::min<Time>(input.window > 0 ? input.window : LLONG_MAX, input.floor / 2);
  const EndView views[2] = {head_view(input), tail_view(input)};
  const std::vector<Time> load = device_load(placement);
  // The idle proven so far per device and end (the simple bound's to start).
  std::vector<std::array<long long, 2>> idle(placement.ndevs), first(placement.ndevs);
  std::vector<int> devices;
  for (int d = 0; d < placement.ndevs; ++d) {
    if (load[d] == 0) continue;
    devices.push_back(d);
    for (int end = 0; end < 2; ++end) idle[d][end] = first[d][end] = first_start(input, views[end], d);
  }
  auto value_of = [&](int d) { return input.total_micros * load[d] + idle[d][0] + idle[d][1]; };
  auto reached = [&]() { return input.target > 0 && best.value >= input.target; };
  std::vector<Time> asked(placement.ndevs, 0);  // the last window each device was asked at
  bool complete = true;
  double seconds_per_literal = 0;  // of the last encoding
  for (Time window = std::max<Time>(2, critical_path(placement) / 4); window <= last_window && !reached();
       window = next_window(window)) {
    const auto begin = Deadline::Clock::now();
    std::unique_ptr<EndProblem> problems[2];
    long long literals = 0;
    for (int end = 0; end < 2; ++end) {
      problems[end] = std::make_unique<EndProblem>(input, views[end], window);
      if (!problems[end]->enumerate()) return finished(best, complete);  // larger windows are larger still
      literals += problems[end]->literals();
    }
    // Building takes time too: not begun when it would take half of what is
    // left, nor when its size (order literals, and each end's count over the
    // window's steps) is more than the time left affords (knobs/encoding_budget.hpp).
    if (input.deadline.expired() || seconds_per_literal * literals > input.deadline.seconds_left() / 2) {
      complete = false;
      break;
    }
    if (!affords_window(input, window, literals)) {
      complete = false;
      break;
    }
    bool encoded = true;
    for (auto& problem : problems) encoded = encoded && problem->encode();
    if (!encoded) {
      complete = false;
      report_window(input, window, literals, best);
      break;
    }
    seconds_per_literal = seconds_since(begin) / std::max<long long>(1, literals);
    // The devices closest to the target first.
    std::stable_sort(devices.begin(), devices.end(), [&](int a, int b) { return value_of(a) > value_of(b); });
    for (int d : devices) {
      // The idle counted lies in [0, max(window, first start)) and its
      // mirror image: the two must not overlap within the known bound.
      if (std::max(window, first[d][0]) + std::max(window, first[d][1]) > input.floor) continue;
      // Each end's idle grows at most by the steps its window grew: a
      // device that cannot pass the best here is not asked.
      if (value_of(d) + 2 * (window - asked[d]) <= best.value) continue;
      asked[d] = window;
      for (int end = 0; end < 2; ++end) {
        // The idle at this end that would reach the target with the other's.
        const long long goal = input.target > 0 ? input.target - input.total_micros * load[d] - idle[d][1 - end] : 0;
        const long long found = problems[end]->least_idle(d, std::min(window, idle[d][end]), goal);
        if (found < 0) return {};  // no schedule exists at all: say nothing
        idle[d][end] = std::max(idle[d][end], found);
      }
      if (value_of(d) > best.value)
        best = {value_of(d), d, idle[d][0], idle[d][1], std::max(window, first[d][0]), std::max(window, first[d][1]),
                false};
      if (reached() || input.deadline.expired()) break;
    }
    complete = complete && problems[0]->complete() && problems[1]->complete() && !input.deadline.expired();
    report_window(input, window, literals, best);
    if (input.deadline.expired()) break;
  }
  return finished(best, complete);
}

MakespanBound with_exact_ends(ExactEndsInput input, long long best, MakespanBound bound) {
  if (input.deadline.expired() || !exact_ends_ask(*input.placement, best, bound.value)) return bound;
  input.floor = bound.value;
  input.target = best;
  const ExactEnds ends = exact_ends_bound(input);
  if (ends.value <= bound.value) return bound;
  raise_bound(bound, ends.value, BoundArgument::ExactEnds, ends.device, ends.idle_head, ends.idle_tail);
  bound.head_window = ends.head_window;
  bound.tail_window = ends.tail_window;
  return bound;
}

bool exact_ends_ask(const Placement& placement, long long best, long long bound) {
  // The ends of a pipeline cost about one micro-batch's critical path; a
  // larger gap grows with N (a steady state slower than the load), which no
  // window at the ends explains, so the time is not spent.
  return best > bound && best - bound <= critical_path(placement);
}

namespace {

// The input for `placement` at `total_micros` under the search's memory limits,
// backend and settings, ending at `deadline`.
ExactEndsInput exact_ends_input(const Placement& placement, long long total_micros, const SearchOptions& options,
                                const Deadline& deadline) {
  ExactEndsInput input;
  static_cast<BoundQuestion&>(input) = bound_question(placement, total_micros, options, deadline);
  return input;
}

}  // namespace

MakespanBound raised_by_exact_ends(const Placement& placement, long long total_micros, const SearchOptions& options,
                                   long long best, const MakespanBound& bound, double left_share, bool* ran) {
  const double seconds = std::min(options.ends_seconds, options.deadline.seconds_left() * left_share);
  if (ran) *ran = seconds >= options.ends_seconds && exact_ends_ask(placement, best, bound.value);
  return with_exact_ends(exact_ends_input(placement, total_micros, options, options.deadline.within(seconds)), best,
                         bound);
}


}  // namespace tessel
