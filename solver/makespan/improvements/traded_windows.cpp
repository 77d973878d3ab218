// The traded neighbourhoods (see the header for the idea): which instances
// a window frees, the domains and held choices that say so to the shift
// search's step, and the order and size of the windows.
#include "solver/makespan/improvements/traded_windows.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

#include "solver/makespan/bounds/device_work_bounds.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/improvements/time_unit.hpp"

namespace tessel {
namespace {

constexpr Time kNoEnd = std::numeric_limits<Time>::max();

// The instances starting in [from, until) are free (or, with first_micro
// >= 0, every instance of the micro-batches from it on), their domains
// reaching back `lead` steps before `from`; every other instance starting
// at or after `until` is held one step earlier (kNoEnd: none is).
struct Window {
  Time from = 0;
  Time until = kNoEnd;
  Time lead = 0;
  int first_micro = -1;
};

bool frees(const Window& window, const Instance& instance) {
  if (window.first_micro >= 0) return instance.micro >= window.first_micro;
  return instance.start >= window.from && instance.start < window.until;
}

// Where something held at `start` in the centre is asked to be.
Time held_at(const Window& window, Time start) {
  return window.until != kNoEnd && start >= window.until ? start - 1 : start;
}

bool in_time(const Window& window, Time start) {
  return window.first_micro < 0 && start >= window.from && start < window.until;
}

struct WindowDomains {
  StartDomains domains;
  HeldChoices held;
  Tails tails;
};

// The centre's choice per forward and micro-batch, read once.
struct CentreChoices {
  std::map<std::pair<int, int>, Time> recompute;                 // (block, micro) -> run start
  std::map<std::tuple<int, int, bool>, Time> copy;               // (block, micro, out) -> copy start
};

CentreChoices centre_choices(const Schedule& centre) {
  CentreChoices choices;
  for (const RecomputeRun& run : centre.recomputes) choices.recompute[{run.block, run.micro}] = run.start;
  for (const Transfer& copy : centre.transfers)
    choices.copy[{copy.block, copy.micro, copy.direction == TransferDirection::Out}] = copy.start;
  return choices;
}

// Where a held run or copy may start: within the window (from its lead on,
// after `lower`, by `upper`) when the centre has it there, else where the
// centre has it (moved with what follows the window); never excluding the
// centre's own step.
std::pair<int, int> held_range(const Window& window, Time centre, Time lower, Time upper) {
  const Time at = held_at(window, centre);
  if (!in_time(window, centre)) return {static_cast<int>(at), static_cast<int>(at)};
  const Time from = std::min(at, std::max(lower, window.from - window.lead));
  return {static_cast<int>(from), static_cast<int>(std::max(at, upper))};
}

// The choice of forward f for `micro`: free (keeping allowed) when the
// window frees the forward; else held as the centre made it, its run or
// copies free to move within the window when the centre has them there.
// (Freeing the choice of a forward outside the window would give its run
// every step from the forward's end on: at N = 128 a few hundred steps
// and most of the window's encoding.)
HeldChoice choice_of(const Schedule& centre, const CentreChoices& choices, const Window& window,
                     const StartDomains& domains, const std::vector<std::vector<bool>>& free, int f, int micro) {
  if (free[f][micro]) return {};
  const Block& block = centre.placement.blocks[f];
  const Time forward_end = domains[f][micro].earliest + block.span;  // held: one step
  const auto run = choices.recompute.find({f, micro});
  if (run != choices.recompute.end() && block.recompute) {
    const Time upper = domains[block.recompute->before][micro].latest - block.recompute->span;
    const auto [at, latest] = held_range(window, run->second, forward_end, upper);
    return {HeldKind::Recompute, at, 0, latest, -1};
  }
  const auto out = choices.copy.find({f, micro, true});
  const auto in = choices.copy.find({f, micro, false});
  if (out != choices.copy.end() && in != choices.copy.end() && block.offload) {
    const Time before = domains[block.offload->before][micro].latest;
    const auto [at, at_latest] =
        held_range(window, out->second, forward_end, before - block.offload->in - block.offload->out);
    const auto [back, back_latest] = held_range(window, in->second, at + block.offload->out, before - block.offload->in);
    return {HeldKind::Offload, at, back, at_latest, back_latest};
  }
  return {HeldKind::Keep, 0, 0, -1, -1};
}

// The window said as domains: a free instance from the window's lead to
// its end (or the makespan less its work tail), never excluding where it is;
// a held one at one step; the tails of the question: a held instance must
// end by the makespan asked, a free one also leaves room for its work tail
// where the centre did.
WindowDomains window_domains(const Schedule& centre, const Window& window, const DeviceWorkBounds& work,
                             const Tails& tails) {
  const Placement& placement = centre.placement;
  const Time horizon = makespan(centre);
  WindowDomains out;
  out.domains.assign(placement.blocks.size(), std::vector<StartDomain>(centre.nmicros));
  out.tails.assign(placement.blocks.size(), std::vector<Time>(centre.nmicros, 0));
  std::vector<std::vector<bool>> free(placement.blocks.size(), std::vector<bool>(centre.nmicros, false));
  for (const Instance& instance : centre.instances) {
    const int b = instance.block, m = instance.micro;
    const Time span = placement.blocks[b].span;
    if (!frees(window, instance)) {
      const int at = static_cast<int>(held_at(window, instance.start));
      out.domains[b][m] = {at, at};
      out.tails[b][m] = span;
      continue;
    }
    free[b][m] = true;
    const Time from = window.first_micro >= 0 ? window.from : window.from - window.lead;
    const Time earliest = std::min(instance.start, std::max(work.head(b, m), from));
    Time latest = horizon - tails[b][m];
    if (window.until != kNoEnd) latest = std::min(latest, window.until - 1);
    latest = std::max(latest, instance.start);
    out.domains[b][m] = {static_cast<int>(earliest), static_cast<int>(latest)};
    out.tails[b][m] = std::max(span, std::min(tails[b][m], horizon - instance.start));
  }
  const CentreChoices choices = centre_choices(centre);
  out.held.assign(placement.blocks.size(), {});
  for (size_t f = 0; f < placement.blocks.size(); ++f) {
    if (!placement.blocks[f].recompute && !placement.blocks[f].offload) continue;
    for (int micro = 0; micro < centre.nmicros; ++micro)
      out.held[f].push_back(choice_of(centre, choices, window, out.domains, free, static_cast<int>(f), micro));
  }
  return out;
}

std::vector<Time> starts_in_order(const Schedule& schedule) {
  std::vector<Time> starts;
  for (const Instance& instance : schedule.instances) starts.push_back(instance.start);
  std::sort(starts.begin(), starts.end());
  return starts;
}

// One round's windows on `current`, `size` instances each (about): the
// last micro-batches (first: on nnshape 8/8 at N = 128 they shortened
// where a tail slice of as many instances ran out of time), the tail slice,
// the head, then slices sliding from the tail towards the head by half a
// window, each holding what follows it one step earlier.
std::vector<Window> round_of(const Schedule& current, size_t size) {
  const std::vector<Time> starts = starts_in_order(current);
  const size_t count = starts.size();
  size = std::clamp<size_t>(size, 1, count);
  const Time horizon = makespan(current);
  auto slice = [&](size_t first, size_t last) {  // ranks [first, last)
    Window window;
    window.from = starts[first];
    window.until = last >= count ? kNoEnd : starts[last];
    const Time length = (window.until == kNoEnd ? horizon : window.until) - window.from;
    window.lead = length / 4;
    return window;
  };
  std::vector<Window> round;
  const int micros = static_cast<int>(std::clamp<size_t>(size / current.placement.blocks.size(), 1,
                                                          static_cast<size_t>(current.nmicros)));
  Window tail_micros;
  tail_micros.first_micro = current.nmicros - micros;
  tail_micros.from = horizon;
  for (const Instance& instance : current.instances)
    if (instance.micro >= tail_micros.first_micro) tail_micros.from = std::min(tail_micros.from, instance.start);
  round.push_back(tail_micros);
  round.push_back(slice(count - size, count));
  if (size >= count) return round;
  round.push_back(slice(0, size));
  const size_t step = std::max<size_t>(1, size / 2);
  for (size_t last = count - step; last > size; last -= std::min(last, step)) round.push_back(slice(last - size, last));
  return round;
}

// What one window's answer does to the windows' size.
size_t next_size(WithinAnswer answer, size_t size, size_t smallest) {
  if (answer == WithinAnswer::TooLarge || answer == WithinAnswer::OutOfTime) return std::max(smallest, size * 3 / 4);
  return size;
}

// The search in the schedule's own ticks.
Schedule windows_in_ticks(const Schedule& start, const SearchOptions& options, Time bound, TradedWindowStats& stats) {
  Schedule best = start;
  best.repetend.reset();
  const DeviceWorkBounds work(best.placement, best.nmicros);
  const Tails tails = work_tails(best);
  const size_t per_device = static_cast<size_t>(std::max(1, best.placement.ndevs));
  const size_t smallest = 2 * per_device;
  size_t size = static_cast<size_t>(options.tuning.lns_free_per_device) * per_device;
  ShiftStats shifts;
  while (makespan(best) > bound && !options.deadline.expired()) {
    ++stats.rounds;
    const Time round_begin = makespan(best);
    const bool whole = size >= best.instances.size();
    for (const Window& window : round_of(best, size)) {
      if (options.deadline.expired() || makespan(best) <= bound) break;
      SearchOptions asked = options;
      // A quarter of what is left (the portfolio's windows take an eighth):
      // at N = 128 building a window's encoding alone takes a tenth of a second.
      asked.deadline = options.deadline.within(
          std::max(options.tuning.lns_window_seconds, options.deadline.seconds_left() / 4));
      const WindowDomains domains = window_domains(best, window, work, tails);
      ++stats.windows;
      const WithinAnswer answer = shorten_within(best, domains.domains, domains.held, domains.tails, asked, bound, shifts);
      if (answer == WithinAnswer::TooLarge) ++stats.too_large;
      if (answer == WithinAnswer::OutOfTime) ++stats.timeouts;
      if (answer == WithinAnswer::Shorter) ++stats.improvements;
      size = next_size(answer, size, smallest);
      if (answer == WithinAnswer::Shorter && options.progress)
        options.progress("traded neighbourhoods: makespan " + std::to_string(makespan(best)));
    }
    if (makespan(best) < round_begin) continue;
    if (whole) break;  // the windows held every instance: nothing larger to try
    size = std::min(2 * size, best.instances.size());
  }
  return best;
}

}  // namespace

Schedule improve_traded_by_windows(const Schedule& start, const SearchOptions& options, Time bound,
                                   TradedWindowStats* stats) {
  TradedWindowStats own;
  TradedWindowStats& counted = stats ? *stats : own;
  const Time unit = time_unit(start);
  if (unit == 1) return windows_in_ticks(start, options, bound, counted);
  const Time bound_in_units = (bound + unit - 1) / unit;
  return multiplied_by(windows_in_ticks(divided_by(start, unit), options, bound_in_units, counted), unit);
}

}  // namespace tessel
