// The shift search (see the header for the idea): the centre schedule's
// copies sorted into micro-batch order (the full encoding's symmetry; the
// device work bounds hold for such schedules), domains of +-shift around
// them cut by those bounds, then "one step shorter" asked on one solver
// until it says no.
#include "solver/makespan/improvements/shift_search.hpp"

#include <algorithm>
#include <limits>

#include "solver/makespan/bounds/device_work_bounds.hpp"
#include "solver/makespan/improvements/time_unit.hpp"
#include "solver/modulo/schedule_check.hpp"
#include "solver/strategies/full_encoding.hpp"

namespace tessel {
namespace {

// The first shift is the developer knob shift_first (4, solver/knobs/tuning.hpp):
// on the hand-made ties of papers/g_handmade a few steps already shorten
// (interleaved zero bubble, 16 ranks: 4 finds 204 of 205).

// A question may use at most this share of the phase's budget (and at
// least half a second, or half the budget when that is shorter). On 16
// ranks and N 128 the first question at shift 4 is not answered in 9 s,
// which the neighbourhoods then lack; on N 16 each question takes 0.3-1.5 s
// of 9. A question out of its share halves the shift (a smaller problem)
// and caps it below the one that timed out. Within the default plan's half
// second the first question at 4 would otherwise take it all: V-Half, 16
// ranks, N 32, F=2 B=2 W=1 needs 0.7 s at 4 for 419 of the hand-made 420,
// and 0.1 s at 2 after the first half is spent.
// (developer knobs shift_question_share, shift_least_question_seconds)

struct ShiftedDomains {
  StartDomains domains;
  bool whole = true;  // no domain cut by the shift: the full search's own
};

// Each start within `shift` of the centre's and within the device work
// bounds of a makespan of the centre's; nothing when past the budget.
std::optional<ShiftedDomains> shifted_domains(const Schedule& centre, const DeviceWorkBounds& work, Time shift,
                                              const std::vector<Memory>& memory_limit, bool with_choices) {
  const Placement& placement = centre.placement;
  const Time horizon = makespan(centre);
  ShiftedDomains shifted;
  StartDomains& domains = shifted.domains;
  domains.assign(placement.blocks.size(), std::vector<StartDomain>(centre.nmicros));
  for (const Instance& instance : centre.instances) {
    const Time head = work.head(instance.block, instance.micro);
    const Time last = horizon - work.tail(instance.block, instance.micro);
    const Time earliest = std::max(head, instance.start - shift);
    const Time latest = std::min(last, instance.start + shift);
    shifted.whole = shifted.whole && earliest == head && latest == last;
    domains[instance.block][instance.micro] = {static_cast<int>(earliest),
                                              static_cast<int>(std::max(earliest, latest))};
  }
  if (!full_encoding_size(placement, memory_limit, centre.nmicros, domains, with_choices).within_budget())
    return std::nullopt;
  return shifted;
}

enum class Centre { Shorter, NoneWithin, QuestionOutOfTime, OutOfTime };

// The answer compacted, or as it is where it recomputes or copies:
// compaction moves instances only, so a recompute run or a copy left where
// it was could then overlap or end late (schedule_fits judges both).
Schedule tightened(const Schedule& found) {
  if (found.recomputes.empty() && found.transfers.empty()) return compacted(found);
  Schedule tight = compacted(found);
  if (schedule_fits(tight) && makespan(tight) <= makespan(found)) return tight;
  return found;
}

// What every question around every centre shares.
struct ShiftRun {
  const Tails& tails;
  const SearchOptions& options;
  Time bound;
  double question_seconds;  // a share of the phase's budget (infinite without one)
  ShiftStats& stats;
  const OnShorter& on_shorter;

  Deadline question_limit() const { return options.deadline.within(question_seconds); }
};

// One encoding around `best` (every start within `shift`): asks for one
// step shorter until the answer is no; `best` holds the shortest found.
Centre shorten_around(Schedule& best, const FullEncoding& encoding, Time shift, const ShiftRun& run) {
  const SearchOptions& options = run.options;
  bool shorter = false;
  while (makespan(best) > run.bound) {
    const Time target = makespan(best) - 1;
    if (options.progress)
      options.progress("shifts: is makespan <= " + std::to_string(target) + " possible within " +
                       std::to_string(shift) + " steps of every start?");
    std::vector<Lit> assumptions;
    for (size_t b = 0; b < encoding.start.size(); ++b)
      for (int micro = 0; micro < best.nmicros; ++micro)
        assumptions.push_back(encoding.backend->at_most(
            encoding.start[b][micro], static_cast<int>(target - run.tails[b][micro])));
    const Answer answer = encoding.backend->solve(assumptions, run.question_limit());
    if (answer == Answer::Unknown) {
      if (options.deadline.expired()) return Centre::OutOfTime;
      ++run.stats.questions_out_of_time;
      return Centre::QuestionOutOfTime;  // `best` keeps what the earlier answers found
    }
    if (answer == Answer::Unsat) break;
    Schedule found = tightened(decode_schedule(encoding, best.placement, options.memory_limit, best.nmicros));
    if (!schedule_fits(found) || makespan(found) >= makespan(best)) break;  // not expected: keep what is valid
    best = std::move(found);
    shorter = true;
    ++run.stats.improvements;
    if (run.on_shorter) run.on_shorter(best);
  }
  return shorter ? Centre::Shorter : Centre::NoneWithin;
}

// The shift of the next encoding: the same after a shorter schedule, twice
// as wide after a no, half as wide (and never again as wide) after a
// question out of its share, whatever it found before; nothing when the
// search is over.
std::optional<Time> next_shift(Centre centre, Time shift, bool whole, Time& ceiling) {
  switch (centre) {
    case Centre::Shorter:
      return shift;
    case Centre::OutOfTime:
      return std::nullopt;
    case Centre::QuestionOutOfTime:
      ceiling = shift - 1;
      if (shift / 2 < 1) return std::nullopt;
      return shift / 2;
    case Centre::NoneWithin:
      if (whole || 2 * shift > ceiling) return std::nullopt;  // whole: the full search's question, answered no
      return 2 * shift;
  }
  return std::nullopt;
}

// Whether the encoding chooses recomputes and copies: on a placement
// offering them where memory can bind.
bool chooses(const Schedule& centre, const SearchOptions& options) {
  return !recompute_forwards(centre.placement, options.memory_limit, centre.nmicros).empty() ||
         !offload_forwards(centre.placement, options.memory_limit, centre.nmicros).empty();
}

// One encoding on `domains` around `best`, asked until no (shorten_around).
Centre encode_and_shorten(Schedule& best, const StartDomains& domains, const HeldChoices& held, Time shift,
                          const ShiftRun& run) {
  std::optional<FullEncoding> encoding = build_full_encoding(best.placement, run.options, best.nmicros, makespan(best),
                                                             domains, chooses(best, run.options), held);
  if (!encoding) return Centre::OutOfTime;
  ++run.stats.encodings;
  prefer_schedule(*encoding, best);
  return shorten_around(best, *encoding, shift, run);
}

}  // namespace

Tails work_tails(const Schedule& schedule) {
  const DeviceWorkBounds work(schedule.placement, schedule.nmicros);
  Tails tails(schedule.placement.blocks.size(), std::vector<Time>(schedule.nmicros, 0));
  for (size_t b = 0; b < tails.size(); ++b)
    for (int micro = 0; micro < schedule.nmicros; ++micro) tails[b][micro] = work.tail(static_cast<int>(b), micro);
  return tails;
}

WithinAnswer shorten_within(Schedule& best, const StartDomains& domains, const HeldChoices& held, const Tails& tails,
                            const SearchOptions& options, Time bound, ShiftStats& stats) {
  if (!full_encoding_size(best.placement, options.memory_limit, best.nmicros, domains, chooses(best, options), held)
           .within_budget())
    return WithinAnswer::TooLarge;
  const OnShorter none;
  const ShiftRun run{tails, options, bound, std::numeric_limits<double>::infinity(), stats, none};
  const Time before = makespan(best);
  const Centre centre = encode_and_shorten(best, domains, held, 0, run);
  if (makespan(best) < before) return WithinAnswer::Shorter;  // also when a later question ran out of time
  return centre == Centre::NoneWithin ? WithinAnswer::NoneWithin : WithinAnswer::OutOfTime;
}

// The search in the schedule's own ticks (improve_by_shifts runs it in the
// time unit).
Schedule shifts_in_ticks(const Schedule& start, const SearchOptions& options, Time bound, ShiftStats* stats,
                         const OnShorter& on_shorter) {
  ShiftStats own;
  ShiftStats& counted = stats ? *stats : own;
  Schedule best = in_micro_order(start);
  best.repetend.reset();
  const DeviceWorkBounds work(best.placement, best.nmicros);
  const Tails tails = work_tails(best);
  // On a placement offering recomputation or offload, the encoding chooses
  // them per forward and micro-batch within the same narrow domains.
  const bool with_choices = chooses(best, options);
  const double budget = options.deadline.granted_seconds_left();  // a stall does not shrink a question's share
  const double question_seconds = std::max(std::min(options.tuning.shift_least_question_seconds, budget / 2), options.tuning.shift_question_share * budget);
  const ShiftRun run{tails, options, bound, question_seconds, counted, on_shorter};
  std::optional<Time> shift = static_cast<Time>(options.tuning.shift_first);
  Time ceiling = std::numeric_limits<Time>::max();
  while (shift && makespan(best) > bound && !options.deadline.expired()) {
    const Time least = least_swapping_shift(best);
    if (least > ceiling) break;
    shift = std::max(*shift, least);
    std::optional<ShiftedDomains> domains = shifted_domains(best, work, *shift, options.memory_limit, with_choices);
    if (!domains) {
      counted.budget_reached = true;
      break;
    }
    if (options.progress)
      options.progress("shifts: building the encoding of every instance within " + std::to_string(*shift) +
                       " steps of the best (" + std::to_string(makespan(best)) + ")");
    counted.largest_shift = std::max(counted.largest_shift, *shift);
    const Centre centre = encode_and_shorten(best, domains->domains, {}, *shift, run);
    shift = next_shift(centre, *shift, domains->whole, ceiling);
  }
  return best;
}

// Neighbours on a device by start (see the header).
Time least_swapping_shift(const Schedule& centre) {
  const Placement& placement = centre.placement;
  std::vector<Time> start(placement.blocks.size() * static_cast<size_t>(centre.nmicros), 0);
  for (const Instance& instance : centre.instances)
    start[static_cast<size_t>(instance.micro) * placement.blocks.size() + instance.block] = instance.start;
  for (const Instance& instance : compacted(centre).instances)
    if (start[static_cast<size_t>(instance.micro) * placement.blocks.size() + instance.block] != instance.start)
      return 0;
  std::vector<std::vector<const Instance*>> on(placement.ndevs);
  for (const Instance& instance : centre.instances)
    for (int device : placement.blocks[instance.block].devices) on[device].push_back(&instance);
  Time least = std::numeric_limits<Time>::max();
  for (std::vector<const Instance*>& order : on) {
    std::stable_sort(order.begin(), order.end(), [](const Instance* a, const Instance* b) { return a->start < b->start; });
    for (size_t k = 1; k < order.size(); ++k) {
      const Time reach = order[k]->start + placement.blocks[order[k]->block].span - order[k - 1]->start;
      least = std::min(least, (reach + 1) / 2);
    }
  }
  return least == std::numeric_limits<Time>::max() ? 0 : least;
}


Schedule improve_by_shifts(const Schedule& start, const SearchOptions& options, Time bound, ShiftStats* stats,
                           const OnShorter& on_shorter) {
  Schedule ordered = in_micro_order(start);
  ordered.repetend.reset();
  const Time unit = time_unit(ordered);
  if (unit == 1) return shifts_in_ticks(ordered, options, bound, stats, on_shorter);
  OnShorter scaled_back;
  if (on_shorter) scaled_back = [&on_shorter, unit](const Schedule& found) { on_shorter(multiplied_by(found, unit)); };
  const Time bound_in_units = (bound + unit - 1) / unit;  // a makespan on the grid at least `bound`
  Schedule found = shifts_in_ticks(divided_by(ordered, unit), options, bound_in_units, stats, scaled_back);
  if (stats) stats->largest_shift *= unit;  // reported in the schedule's ticks, as its makespans
  return multiplied_by(found, unit);
}

}  // namespace tessel
