// The one-device relaxation bound (see the header).
//
// Why it is a lower bound. Take any schedule of N micro-batches with
// makespan T, its copies of each block sorted into micro-batch order. Copy
// n of block b starts after copy n - 1 of b ends (they share a device) and
// after each predecessor's copy n ends plus the edge's delay, so by
// induction no earlier than head(b, n), the longest such chain from time 0.
// Mirror image: from its start to T there is room for tail(b, n), its span
// and the longest chain of later copies and successors after it. Two copies
// of blocks of the kept device in one micro-batch are at least the longest
// chain between them apart. The kept device's no-overlap and memory hold
// as in the schedule. So the schedule's starts of the kept device's copies
// answer "makespan <= T" here, and a refuted T is one no schedule has.
//
// The encoding: a start per copy of the kept device in [head, target -
// tail] (order literals), the lags as differences, the copies of a block in
// order, the no-overlap as at most one occupant per step, the memory level
// after every step (memory changes when a block starts, as the verifier
// counts it) within the limit, and one guard literal per question T that
// cuts every start to T - tail. The windows [head, T - tail] are narrowed
// first by the device's work and memory (solver/makespan/bounds/relaxed_windows).
// The least T is searched on one incremental solver: the target first
// (satisfiable: the schedule in hand is one), then target - 1 (refuted,
// it proves the schedule in hand optimal, the usual case where this bound
// is asked), then bisection between the floor and the shortest model.
#include "solver/makespan/bounds/device_relaxation.hpp"

#include "solver/makespan/bounds/device_ends.hpp"
#include "solver/makespan/bounds/exact_ends.hpp"
#include "solver/makespan/bounds/relaxed_windows.hpp"
#include "solver/knobs/encoding_budget.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace tessel {
namespace {

// One device's relaxation on one incremental solver.
class Relaxation {
 public:
  Relaxation(const DeviceRelaxationInput& in, int device) : in_(in), device_(device) {}

  // TargetIsLeast: some copy's head and tail alone pass target - 1 (the
  // target is the least makespan); TooLarge: past the literal budget;
  // OutOfTime: the deadline struck while encoding.
  enum class Built { Ok, TargetIsLeast, TooLarge, OutOfTime };
  Built build() {
    const Placement& placement = *in_.placement;
    const CopyWindows times =
        relaxed_windows(placement, in_.total_micros, device_, in_.limits.empty() ? -1 : in_.limits[device_]);
    long long literals = 0;
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      if (!on_device(placement.blocks[b], device_)) continue;
      for (long long n = 0; n < in_.total_micros; ++n) {
        const Time hi = in_.target - times.tail[b][n];
        if (hi <= times.head[b][n]) return Built::TargetIsLeast;
        copies_.push_back({static_cast<int>(b), n, times.head[b][n], hi, times.tail[b][n], {}});
        literals += hi - times.head[b][n] + 1;
      }
    }
    if (literals > in_.most_literals) return Built::TooLarge;
    // Its order literals past what the time left affords (knobs/encoding_budget.hpp): not built.
    if (!affords_encoding(in_.terms_per_second, static_cast<double>(literals), in_.deadline)) {
      if (in_.progress)
        in_.progress("relaxation: device " + std::to_string(device_) + " skipped: " + std::to_string(literals) +
                     " literals, more than " + std::to_string(in_.deadline.seconds_left()) + " s afford");
      return Built::TooLarge;
    }
    return encode() ? Built::Ok : Built::OutOfTime;
  }

  // The makespan of the last model: its latest start plus tail.
  Time model_makespan() {
    Time makespan = 0;
    for (const Copy& copy : copies_) makespan = std::max(makespan, backend_->value(copy.start) + copy.tail);
    return makespan;
  }

  // Is there a schedule of makespan <= T? (T <= target.)
  Answer ask(Time makespan, const Deadline& deadline) {
    const auto begin = std::chrono::steady_clock::now();
    const Answer answer = decide(makespan, deadline);
    if (in_.progress)
      in_.progress("relaxation: device " + std::to_string(device_) + " alone, makespan <= " +
                   std::to_string(makespan) + ": " + answer_name(answer) + " (" +
                   std::to_string(seconds_since(begin)) + " s)");
    return answer;
  }

 private:
  Answer decide(Time makespan, const Deadline& deadline) {
    if (makespan >= in_.target && !hint_.empty()) {
      // The schedule in hand, assumed whole: answered at once, and its
      // values (every auxiliary literal's too) become the solver's saved
      // phases for the refutations that follow. Asked without it, the
      // target alone was not answered in 200 s at 128 micro-batches
      // (V-Min, 16 stages), the order literals' preferred phases
      // notwithstanding.
      const std::vector<Lit> assumed = std::move(hint_);
      hint_.clear();
      if (backend_->solve(assumed, deadline) == Answer::Sat) return Answer::Sat;
    }
    const Lit guard = backend_->new_bool();
    for (const Copy& copy : copies_) {
      const Time latest = makespan - copy.tail;
      if (latest < copy.lo) {
        backend_->add_clause({~guard});
        break;
      }
      if (latest < copy.hi) backend_->add_clause({~guard, backend_->at_most(copy.start, static_cast<int>(latest))});
    }
    return backend_->solve({guard}, deadline);
  }

  struct Copy {
    int block = 0;
    long long micro = 0;
    Time lo = 0, hi = 0;  // start domain
    Time tail = 0;
    IntVar start;
  };

  // False when the deadline struck first (checked per copy and per step).
  bool encode() {
    const Placement& placement = *in_.placement;
    backend_ = make_backend(in_.backend, in_.settings);
    for (Copy& copy : copies_) copy.start = backend_->new_int(static_cast<int>(copy.lo), static_cast<int>(copy.hi));
    // Copies of one block in order; blocks of one micro-batch at their lag.
    std::vector<std::vector<Time>> distance;  // within one micro-batch, start to start (-1: no chain)
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      distance.push_back(start_distances_from(placement, static_cast<int>(b)));
    std::vector<int> previous(placement.blocks.size(), -1);
    for (size_t i = 0; i < copies_.size(); ++i) {
      if (in_.deadline.expired()) return false;
      const Copy& copy = copies_[i];
      if (previous[copy.block] >= 0)
        backend_->add_difference(copy.start, copies_[previous[copy.block]].start,
                                 static_cast<int>(placement.blocks[copy.block].span));
      previous[copy.block] = static_cast<int>(i);
      for (const Copy& other : copies_)
        if (other.micro == copy.micro && distance[other.block][copy.block] > 0)
          backend_->add_difference(copy.start, other.start, static_cast<int>(distance[other.block][copy.block]));
    }
    std::vector<IntVar> starts;
    std::vector<int> spans;
    for (const Copy& copy : copies_) {
      starts.push_back(copy.start);
      spans.push_back(static_cast<int>(placement.blocks[copy.block].span));
    }
    backend_->add_no_overlap(starts, spans);
    if (in_.hint) prefer_hint();
    return in_.limits.empty() || encode_memory();
  }

  // The hint's starts of each block of the device, sorted: copy n of a block
  // is its n-th earliest instance (the copies in micro-batch order). Each
  // is the start's preferred value, and, when every copy has one inside its
  // window, the literals of the first question's assumptions.
  void prefer_hint() {
    std::vector<std::vector<Time>> starts(in_.placement->blocks.size());
    for (const Instance& instance : in_.hint->instances)
      if (instance.block >= 0 && instance.block < static_cast<int>(starts.size()))
        starts[instance.block].push_back(instance.start);
    for (std::vector<Time>& block_starts : starts) std::sort(block_starts.begin(), block_starts.end());
    bool whole = true;
    for (const Copy& copy : copies_) {
      const std::vector<Time>& block_starts = starts[copy.block];
      if (copy.micro >= static_cast<long long>(block_starts.size())) {
        whole = false;
        continue;
      }
      const Time start = block_starts[copy.micro];
      backend_->prefer(copy.start, static_cast<int>(start));
      if (start < copy.lo || start > copy.hi) {
        whole = false;
        continue;
      }
      if (start < copy.hi) hint_.push_back(backend_->at_most(copy.start, static_cast<int>(start)));
      if (start > copy.lo) hint_.push_back(~backend_->at_most(copy.start, static_cast<int>(start) - 1));
    }
    if (!whole) hint_.clear();
  }

  // The level after every step at which an allocating copy may start.
  bool encode_memory() {
    const Placement& placement = *in_.placement;
    Time first = 0, last = -1;
    for (const Copy& copy : copies_)
      if (placement.blocks[copy.block].memory > 0) {
        if (last < first) first = copy.lo, last = copy.hi;
        first = std::min(first, copy.lo);
        last = std::max(last, copy.hi);
      }
    for (Time t = first; t <= last; ++t) {
      if (in_.deadline.expired()) return false;
      LinearSum sum;
      long long fixed = 0;  // copies surely started by t
      for (const Copy& copy : copies_) {
        const Memory memory = placement.blocks[copy.block].memory;
        if (memory == 0 || t < copy.lo) continue;
        if (t >= copy.hi) fixed += memory;
        else sum.bools.push_back({memory, backend_->at_most(copy.start, static_cast<int>(t))});
      }
      backend_->add_linear_at_most(sum, in_.limits[device_] - fixed);
    }
    return true;
  }

  const DeviceRelaxationInput& in_;
  const int device_;
  std::vector<Copy> copies_;  // grouped by block, each block's copies in micro-batch order
  std::vector<Lit> hint_;     // the hint's value of every start, as literals (until assumed once)
  std::unique_ptr<Backend> backend_;
};

}  // namespace

namespace {

struct Least {
  long long value = 0;
  bool decided = false;  // every question asked was answered
};

Least least_of(const DeviceRelaxationInput& input, int device) {
  const long long floor = std::max<long long>(input.floor, 1);
  if (input.target <= floor) return {input.target, true};
  Relaxation relaxation(input, device);
  switch (relaxation.build()) {
    case Relaxation::Built::TargetIsLeast: return {input.target, true};
    case Relaxation::Built::TooLarge:
    case Relaxation::Built::OutOfTime: return {floor, false};
    case Relaxation::Built::Ok: break;
  }
  // Least feasible makespan in (low, high]: low refuted (or the floor's
  // predecessor), high feasible. The target is (the schedule in hand is a
  // schedule of the relaxation), and asked first: its model is a start for
  // the solver, and the refutations below it then come far sooner (V-Half,
  // 16 stages, 16 micro-batches, device 15: makespan 135 refuted within
  // seconds after the target's model, 129 alone took 4 s and 132 was not
  // decided in 15 s). Then one step below the shortest model: where this
  // bound is asked the schedule in hand is often optimal, and one
  // refutation proves it (V-Min, 16 stages, 32 micro-batches: 250 refuted
  // in 0.4 s where bisection asked four questions for 3.5 s). Then
  // bisection between the floor and the shortest model; an undecided
  // question only lowers the ceiling of the next ones.
  const Answer first = relaxation.ask(input.target, input.deadline);
  if (first == Answer::Unknown) return {floor, false};
  if (first == Answer::Unsat)
    throw std::logic_error("device relaxation: the makespan " + std::to_string(input.target) +
                           " of a schedule in hand refuted on device " + std::to_string(device));
  long long low = floor - 1, high = std::min<long long>(input.target, relaxation.model_makespan());
  long long ceiling = high;  // questions from here up were satisfiable or undecided
  bool just_below = true;      // the first question: one step below the shortest model
  while (high - low > 1 && !input.deadline.expired()) {
    const long long question = just_below ? high - 1 : low + (ceiling - low) / 2;
    if (question <= low) break;  // every question left went undecided
    // Half the time left per question (a quarter for the one just below):
    // an undecided one is not the end, a question closer to what is proven
    // may still be decided.
    const Deadline slice = input.deadline.unlimited()
                               ? input.deadline
                               : input.deadline.within(input.deadline.seconds_left() / (just_below ? 4 : 2));
    just_below = false;
    const Answer answer = relaxation.ask(question, slice);
    if (answer == Answer::Unsat) low = question;
    else if (answer == Answer::Sat) high = ceiling = std::min<long long>(question, relaxation.model_makespan());
    else ceiling = question;
  }
  return {low + 1, high - low <= 1};
}

// The two ends (solver/makespan/bounds/device_ends) first, then the whole
// relaxation. The ends are small problems whatever N, and with a schedule
// in hand one refutation at each end usually settles them (V-Half, 8
// stages, F=2 B=2 W=1, 16 micro-batches: 203 proven in 0.01 s, where the
// whole relaxation left 202 undecided for 14 s; V-Min, 16 stages, 128
// micro-batches: 827 in 0.4 s, the whole one undecided in 4 minutes).
// The whole relaxation sees more on a short run (V-Min at 16
// micro-batches: 155 against the ends' 147), so there the ends get a
// quarter of the time, on a long one three quarters.
Least device_least(const DeviceRelaxationInput& input, int device) {
  const bool long_run = input.floor > 8 * critical_path(*input.placement);
  DeviceRelaxationInput ends = input;
  if (!input.deadline.unlimited())
    ends.deadline = input.deadline.within(input.deadline.seconds_left() * (long_run ? 0.75 : 0.5));
  const long long by_ends = device_ends_bound(ends, device);
  if (by_ends >= input.target) return {input.target, true};
  DeviceRelaxationInput whole = input;
  whole.floor = std::max(input.floor, by_ends);
  const Least least = least_of(whole, device);
  return {std::max(least.value, by_ends), least.decided};
}

}  // namespace

long long device_relaxation_least(const DeviceRelaxationInput& input, int device) {
  return least_of(input, device).value;
}

DeviceRelaxation device_relaxation_bound(const DeviceRelaxationInput& input) {
  const Placement& placement = *input.placement;
  const std::vector<Time> load = device_load(placement);
  std::vector<int> devices(placement.ndevs);
  for (int d = 0; d < placement.ndevs; ++d) devices[d] = d;
  std::stable_sort(devices.begin(), devices.end(), [&](int a, int b) {
    if ((a == input.first_device) != (b == input.first_device)) return a == input.first_device;
    return load[a] > load[b];
  });
  // The time shared: half of it to the device of the bound known (where the
  // closed argument binds, the relaxation usually does too), the rest
  // evenly, so that one device's hard question does not take all of it.
  DeviceRelaxation best;
  best.complete = true;
  for (size_t i = 0; i < devices.size(); ++i) {
    const int device = devices[i];
    if (input.deadline.expired()) {
      best.complete = false;
      break;
    }
    DeviceRelaxationInput own = input;
    if (!input.deadline.unlimited()) {
      const bool favoured = i == 0 && device == input.first_device;
      own.deadline = input.deadline.within(input.deadline.seconds_left() / (favoured ? 2 : devices.size() - i));
    }
    const Least least = device_least(own, device);
    best.complete = best.complete && least.decided;
    if (least.value > std::max(best.value, input.floor)) {
      best.value = least.value;
      best.device = device;
    }
    if (best.value >= input.target) break;
  }
  return best;
}

// Less time than this is not worth the encoding: it is built before the
// first question sees the deadline, and on 16 ranks at N 128 building it
// took 0.8 s past a default search's plan, for no answer.
// (the developer knob least_relaxation_seconds, solver/knobs/tuning.hpp)

MakespanBound raised_by_device_relaxation(const Placement& placement, long long total_micros, const SearchOptions& options,
                                          long long best, const MakespanBound& bound, double left_share,
                                          const Schedule* hint) {
  const double seconds = std::min(options.relaxation_seconds, options.deadline.seconds_left() * left_share);
  if (seconds < options.tuning.least_relaxation_seconds || !exact_ends_ask(placement, best, bound.value)) return bound;
  DeviceRelaxationInput input;
  static_cast<BoundQuestion&>(input) = bound_question(placement, total_micros, options, options.deadline.within(seconds));
  input.floor = bound.value;
  input.target = best;
  input.first_device = bound.device;
  if (hint && hint->nmicros == total_micros && makespan(*hint) <= best) input.hint = hint;
  const DeviceRelaxation relaxed = device_relaxation_bound(input);
  MakespanBound raised = bound;
  if (relaxed.value > bound.value) raise_bound(raised, relaxed.value, BoundArgument::DeviceRelaxation, relaxed.device);
  return raised;
}

}  // namespace tessel
