// The shift search (see the header for the idea): the centre schedule's
// copies sorted into micro-batch order (the full encoding's symmetry; the
// device work bounds hold for such schedules), domains of +-shift around
// them cut by those bounds, then "one step shorter" asked on one solver
// until it says no.
#include "solver/makespan/shift_search.hpp"

#include <algorithm>

#include "solver/device_work_bounds.hpp"
#include "solver/encoding_budget.hpp"
#include "solver/full_encoding.hpp"
#include "solver/schedule_check.hpp"

namespace tessel {
namespace {

// The first shift: on the hand-made ties of papers/g_handmade a few steps
// already shorten (interleaved zero bubble, 16 ranks: 4 finds 204 of 205).
constexpr Time kFirstShift = 4;

// The same instants, each block's copies renumbered in start order: valid
// again (by the matching argument of the full encoding's symmetry), with
// the same memory curves; `schedule` itself when that fails.
Schedule in_micro_order(const Schedule& schedule) {
  Schedule sorted = schedule;
  std::vector<std::vector<Time>> starts(schedule.placement.blocks.size());
  for (const Instance& instance : schedule.instances) starts[instance.block].push_back(instance.start);
  for (std::vector<Time>& copies : starts) std::sort(copies.begin(), copies.end());
  for (Instance& instance : sorted.instances) instance.start = starts[instance.block][instance.micro];
  sort_instances(sorted);
  return schedule_fits(sorted) ? sorted : schedule;
}

struct ShiftedDomains {
  StartDomains domains;
  bool whole = true;  // no domain cut by the shift: the full search's own
};

// Each start within `shift` of the centre's and within the device work
// bounds of a makespan of the centre's; nothing when past the budget.
std::optional<ShiftedDomains> shifted_domains(const Schedule& centre, const DeviceWorkBounds& work, Time shift,
                                              const std::vector<Memory>& memory_limit) {
  const Placement& placement = centre.placement;
  const Time horizon = makespan(centre);
  ShiftedDomains shifted;
  StartDomains& domains = shifted.domains;
  domains.assign(placement.blocks.size(), std::vector<StartDomain>(centre.nmicros));
  long long literals = 0, memory_terms = 0;
  for (const Instance& instance : centre.instances) {
    const Time head = work.head(instance.block, instance.micro);
    const Time last = horizon - work.tail(instance.block, instance.micro);
    const Time earliest = std::max(head, instance.start - shift);
    const Time latest = std::min(last, instance.start + shift);
    shifted.whole = shifted.whole && earliest == head && latest == last;
    domains[instance.block][instance.micro] = {static_cast<int>(earliest),
                                              static_cast<int>(std::max(earliest, latest))};
    const Block& block = placement.blocks[instance.block];
    // Its order chain, and on each of its devices an occupancy literal per
    // step it may cover: on measured times the spans, not the shift, make
    // the encoding large (a span of 10^6 ticks is 10^6 literals).
    const long long width = std::max<Time>(1, latest - earliest + 1);
    literals += width + static_cast<long long>(block.devices.size()) * (width + block.span);
    if (block.memory != 0 && !memory_limit.empty())
      memory_terms += static_cast<long long>(block.devices.size()) * (latest - earliest + 1);
  }
  if (literals > kMaxOrderLiterals || memory_terms > kMaxMemoryTerms) return std::nullopt;
  return shifted;
}

enum class Centre { Shorter, NoneWithin, OutOfTime };

// One encoding around `best`: asks for one step shorter until the answer is
// no; `best` holds the shortest found.
Centre shorten_around(Schedule& best, const FullEncoding& encoding, const DeviceWorkBounds& work,
                      const SearchOptions& options, Time bound, ShiftStats& stats, const OnShorter& on_shorter) {
  const Placement& placement = best.placement;
  bool shorter = false;
  while (makespan(best) > bound) {
    const Time target = makespan(best) - 1;
    if (options.progress)
      options.progress("shifts: is makespan <= " + std::to_string(target) + " possible within " +
                       std::to_string(stats.largest_shift) + " steps of every start?");
    std::vector<Lit> assumptions;
    for (size_t b = 0; b < encoding.start.size(); ++b)
      for (int micro = 0; micro < best.nmicros; ++micro)
        assumptions.push_back(encoding.backend->at_most(
            encoding.start[b][micro], static_cast<int>(target - work.tail(static_cast<int>(b), micro))));
    const Answer answer = encoding.backend->solve(assumptions, options.deadline);
    if (answer == Answer::Unknown) return Centre::OutOfTime;
    if (answer == Answer::Unsat) break;
    Schedule found = compacted(decode_schedule(encoding, placement, options.memory_limit, best.nmicros));
    if (!schedule_fits(found) || makespan(found) >= makespan(best)) break;  // not expected: keep what is valid
    best = std::move(found);
    shorter = true;
    ++stats.improvements;
    if (on_shorter) on_shorter(best);
  }
  return shorter ? Centre::Shorter : Centre::NoneWithin;
}

}  // namespace

Schedule improve_by_shifts(const Schedule& start, const SearchOptions& options, Time bound, ShiftStats* stats,
                           const OnShorter& on_shorter) {
  ShiftStats own;
  ShiftStats& counted = stats ? *stats : own;
  Schedule best = in_micro_order(start);
  best.repetend.reset();
  const DeviceWorkBounds work(best.placement, best.nmicros);
  Time shift = kFirstShift;
  while (makespan(best) > bound && !options.deadline.expired()) {
    std::optional<ShiftedDomains> domains = shifted_domains(best, work, shift, options.memory_limit);
    if (!domains) {
      counted.budget_reached = true;
      break;
    }
    if (options.progress)
      options.progress("shifts: building the encoding of every instance within " + std::to_string(shift) +
                       " steps of the best (" + std::to_string(makespan(best)) + ")");
    std::optional<FullEncoding> encoding =
        build_full_encoding(best.placement, options, best.nmicros, makespan(best), domains->domains);
    if (!encoding) break;
    ++counted.encodings;
    counted.largest_shift = std::max(counted.largest_shift, shift);
    prefer_schedule(*encoding, best);
    const Centre centre = shorten_around(best, *encoding, work, options, bound, counted, on_shorter);
    if (centre == Centre::OutOfTime) break;
    if (centre == Centre::NoneWithin && domains->whole) break;  // the full search's question, answered no
    if (centre == Centre::NoneWithin) shift *= 2;
  }
  return best;
}

}  // namespace tessel
