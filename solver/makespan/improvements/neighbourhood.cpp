// The large-neighbourhood search (see the header for the idea): which
// instances a window frees, in which order the windows come, when they grow,
// and when the search moves to another start. Each window is solved by
// resolve_window (window_resolve.hpp).
#include "solver/makespan/improvements/neighbourhood.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "classic/order_timing.hpp"
#include "solver/makespan/improvements/window_resolve.hpp"
#include "solver/modulo/schedule_check.hpp"

namespace tessel {
namespace {

// The search's effort, developer knobs (solver/knobs/tuning.hpp) read from
// options.tuning:
//  - lns_max_window_literals: encodings above this many order literals are
//    not built (a window over long spans, or grown too far); the window is
//    skipped;
//  - lns_window_seconds: a window's solver calls stop after this many
//    seconds, or an eighth of the time left when more; the next window may
//    do better;
//  - lns_free_per_device: free instances per device in the first round's
//    windows;
//  - lns_seed: the random choices (critical instances, bands, micro-batches)
//    repeat from run to run; only the deadline makes runs differ.

std::vector<int> ranked_by_start(const Schedule& schedule) {
  std::vector<int> order(schedule.instances.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return schedule.instances[a].start < schedule.instances[b].start; });
  return order;
}

// Instances on one longest chain of a compacted schedule, from the last end
// back to time 0: each starts when a dependency or its device's previous
// instance ends. Shortening the schedule means moving some of them.
std::vector<int> critical_chain(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  std::vector<std::vector<int>> index(placement.blocks.size(), std::vector<int>(schedule.nmicros, -1));
  for (size_t i = 0; i < schedule.instances.size(); ++i)
    index[schedule.instances[i].block][schedule.instances[i].micro] = static_cast<int>(i);
  std::vector<std::vector<const Edge*>> in(placement.blocks.size());
  for (const Edge& edge : placement.edges) in[edge.to].push_back(&edge);
  std::vector<int> previous(schedule.instances.size(), -1);  // what it waits for: ends at its start
  std::vector<int> last_on(placement.ndevs, -1);
  int last = -1;
  for (int i : ranked_by_start(schedule)) {
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices) {
      const int before = last_on[device];
      if (before >= 0 && schedule.instances[before].start + placement.blocks[schedule.instances[before].block].span ==
                             instance.start)
        previous[i] = before;
      last_on[device] = i;
    }
    for (const Edge* edge : in[instance.block]) {
      const int from = index[edge->from][instance.micro];
      if (from >= 0 && schedule.instances[from].start + placement.blocks[edge->from].span + edge->delay == instance.start)
        previous[i] = from;
    }
    const Time end = instance.start + block.span;
    if (last < 0 || end > schedule.instances[last].start + placement.blocks[schedule.instances[last].block].span)
      last = i;
  }
  std::vector<int> chain;
  for (int i = last; i >= 0; i = previous[i]) chain.push_back(i);
  return chain;
}

// Which instances a window frees, read on the schedule as it is when the
// window's turn comes, `size` of them (about) by the size of that moment.
enum class Freed {
  Slice,       // ranks [count - first - size, count - first) by start: a slice of time
  TailMicros,  // every instance of the last size / blocks micro-batches: whole chains
  Micros,      // every instance of size / blocks micro-batches from number `first`
  Band,        // the last `size` instances touching devices [first, first + width)
  Critical,    // `size` instances by start around the critical chain's instance number `first`
};

struct Neighbourhood {
  Freed freed = Freed::Slice;
  size_t first = 0;
  int width = 0;  // Band: devices
};

const char* freed_name(Freed freed) {
  switch (freed) {
    case Freed::Slice: return "slice of time";
    case Freed::TailMicros:
    case Freed::Micros: return "micro-batches";
    case Freed::Band: return "band of devices";
    case Freed::Critical: return "critical chain";
  }
  return "slice of time";
}

std::vector<int> free_slice(const std::vector<int>& by_start, size_t offset, size_t size) {
  const size_t count = by_start.size();
  const size_t end = count - std::min(count, offset);
  const size_t begin = end - std::min(end, size);
  return {by_start.begin() + static_cast<long>(begin), by_start.begin() + static_cast<long>(end)};
}

std::vector<int> free_micros(const Schedule& schedule, size_t first, size_t count) {
  std::vector<int> free;
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const size_t micro = static_cast<size_t>(schedule.instances[i].micro);
    if (micro >= first && micro < first + count) free.push_back(static_cast<int>(i));
  }
  return free;
}

std::vector<int> free_set(const Schedule& schedule, const Neighbourhood& neighbourhood, size_t size) {
  const std::vector<int> by_start = ranked_by_start(schedule);
  const size_t total_micros = static_cast<size_t>(schedule.nmicros);
  const size_t micros = std::clamp<size_t>(size / std::max<size_t>(1, schedule.placement.blocks.size()), 1, total_micros);
  switch (neighbourhood.freed) {
    case Freed::Slice: return free_slice(by_start, neighbourhood.first, size);
    case Freed::TailMicros: return free_micros(schedule, total_micros - micros, micros);
    case Freed::Micros: return free_micros(schedule, std::min(neighbourhood.first, total_micros - micros), micros);
    case Freed::Band: {
      std::vector<int> band;
      for (int i : by_start)
        for (int device : schedule.placement.blocks[schedule.instances[i].block].devices)
          if (device >= static_cast<int>(neighbourhood.first) &&
              device < static_cast<int>(neighbourhood.first) + neighbourhood.width) {
            band.push_back(i);
            break;
          }
      return free_slice(band, 0, size);
    }
    case Freed::Critical: {
      const std::vector<int> chain = critical_chain(schedule);
      if (chain.empty()) return {};
      const int centre = chain[neighbourhood.first % chain.size()];
      const size_t rank = static_cast<size_t>(std::find(by_start.begin(), by_start.end(), centre) - by_start.begin());
      const size_t last = std::min(by_start.size(), rank + size / 2 + 1);
      return free_slice(by_start, by_start.size() - last, size);
    }
  }
  return {};
}

// One round's windows: the tail and the head first (what the makespan is
// made of, and all a short budget reaches), then windows on the critical
// chain, bands of devices at the tail, a random run of micro-batches, and
// slices sliding from the tail towards the head by half a window. Every
// third window is the tail again, at the size of that moment: only a window
// holding the last instances can shorten the makespan itself, and the
// others leave it new room or a new size to try.
std::vector<Neighbourhood> round_of(const Schedule& schedule, size_t size, std::mt19937& random) {
  const size_t count = schedule.instances.size();
  if (count <= size) return {{Freed::Slice, 0, 0}};
  std::vector<Neighbourhood> others;
  for (int pick = 0; pick < 4; ++pick) others.push_back({Freed::Critical, random(), 0});
  const int ndevs = schedule.placement.ndevs;
  const int width = std::max(1, ndevs / 4);
  if (width < ndevs) {
    const int shift = static_cast<int>(random() % static_cast<unsigned>(width));
    for (int device = shift - width + 1; device < ndevs; device += std::max(1, width / 2)) {
      const int first = std::max(0, device);
      others.push_back({Freed::Band, static_cast<size_t>(first), std::min(width, ndevs - first)});
    }
  }
  others.push_back({Freed::Micros, random() % static_cast<size_t>(std::max(1, schedule.nmicros)), 0});
  const size_t step = std::max<size_t>(1, size / 2);
  for (size_t offset = step; offset + size < count; offset += step) others.push_back({Freed::Slice, offset, 0});
  std::vector<Neighbourhood> round = {
      {Freed::Slice, 0, 0}, {Freed::TailMicros, 0, 0}, {Freed::Slice, count - size, 0}, {Freed::Micros, 0, 0}};
  for (size_t i = 0; i < others.size(); ++i) {
    round.push_back(others[i]);
    if (i % 2 == 1) round.push_back({Freed::Slice, 0, 0});
  }
  return round;
}

enum class Move {
  TooLarge,  // the window's encoding is past the budget: not built
  TimedOut,  // no shorter end found before the window's time ran out
  None,      // no shorter end exists (decided)
  Equal,     // taken: the window ends earlier, the makespan is the same
  Shorter,   // taken: the makespan is shorter
};

// One window tried on `current`: replaced by the compacted schedule when the
// window ended earlier and the makespan did not grow.
Move try_window(Schedule& current, const std::vector<int>& free, const SearchOptions& options,
                const Deadline& deadline, NeighbourhoodStats& stats) {
  const FreeWindow window = window_around(current, free);
  if (window.free.empty()) return Move::None;
  if (static_cast<double>(window_literals(window)) > options.tuning.lns_max_window_literals) return Move::TooLarge;
  ++stats.windows;
  const WindowAnswer answer = resolve_window(current, window, options, deadline);
  if (answer.timed_out) ++stats.timeouts;
  if (!answer.starts) return answer.timed_out ? Move::TimedOut : Move::None;
  const std::vector<Time>& starts = *answer.starts;
  Schedule changed = current;
  for (size_t k = 0; k < window.free.size(); ++k) changed.instances[window.free[k]].start = starts[k];
  changed = compacted(changed);
  const Time before = makespan(current);
  if (makespan(changed) > before || !schedule_fits(changed)) return Move::None;
  current = std::move(changed);
  ++stats.moves;
  if (makespan(current) == before) return Move::Equal;
  ++stats.improvements;
  return Move::Shorter;
}

// The windows' size follows their answers: smaller after a window ran out of
// time or past the encoding budget, larger after one was decided without a
// gain (a larger window may hold a gain that a smaller cannot), the same
// after a move.
struct WindowSize {
  size_t smallest = 1;
  size_t value = 1;
  size_t largest = 1;

  void after(Move move) {
    if (move == Move::TooLarge || move == Move::TimedOut) value = std::max(smallest, value * 3 / 4);
    if (move == Move::None) value = std::min(largest, value * 5 / 4 + 1);
  }
};

// A schedule with fused units as a plain one: each unit's members one after
// the other from its start, those that allocate memory last (so that no
// level rises above the unit's, which counted every member at its start),
// the others in the unit's order; then compacted. A split backward run whole
// becomes its input then its weight part at the same place; an overlapped
// pair (DualPipe) takes no longer when its span is the members' sum.
// Nothing when that breaks a rule (a dependency between members listed
// against the order above, or a unit shorter than its members).
std::optional<Schedule> unfused(const Schedule& schedule) {
  Schedule plain = schedule;
  plain.fused.clear();
  std::vector<std::vector<int>> index(plain.placement.blocks.size(), std::vector<int>(plain.nmicros, -1));
  for (size_t i = 0; i < plain.instances.size(); ++i)
    index[plain.instances[i].block][plain.instances[i].micro] = static_cast<int>(i);
  for (const FusedUnit& unit : schedule.fused) {
    std::vector<FusedMember> members = unit.members;
    std::stable_partition(members.begin(), members.end(),
                          [&](const FusedMember& member) { return plain.placement.blocks[member.block].memory <= 0; });
    Time offset = 0;
    for (const FusedMember& member : members) {
      plain.instances[index[member.block][member.micro]].start += offset;
      offset += plain.placement.blocks[member.block].span;
    }
  }
  sort_instances(plain);
  plain = compacted(plain);
  if (!schedule_fits(plain)) return std::nullopt;
  return plain;
}

// The starts compacted (when that keeps them valid), shortest first.
std::vector<Schedule> prepared(const std::vector<Schedule>& starts) {
  std::vector<Schedule> result;
  for (const Schedule& given : starts) {
    if (given.instances.empty()) continue;
    std::optional<Schedule> plain = given.fused.empty() ? std::optional<Schedule>(given) : unfused(given);
    if (!plain) continue;
    const Schedule& start = *plain;
    Schedule tight = compacted(start);
    if (makespan(tight) > makespan(start) || !schedule_fits(tight)) tight = start;
    tight.repetend.reset();
    result.push_back(std::move(tight));
  }
  std::stable_sort(result.begin(), result.end(),
                   [](const Schedule& a, const Schedule& b) { return makespan(a) < makespan(b); });
  return result;
}

// The progress rule of a stalling grant (lns_stall_windows): on a deadline
// that carries the portfolio's stall, the search gives up after that many
// windows in a row moved nothing (too large to build, out of time, or no
// earlier end). Counted in windows, it ends at the same window on a loaded
// machine as on an idle one. With spans x1000 most windows are too large
// or answer no (measured_whole.md: 83 windows in the half second of the
// seconds stretch on vshape 8, none moved); on the hand-made schedules a
// move came within 10 windows of the last.
void give_up_when_still(const SearchOptions& options, int still) {
  const double windows = options.tuning.lns_stall_windows;
  if (options.deadline.stall && windows > 0 && still >= windows) options.deadline.stall->give_up();
}

}  // namespace

Schedule compacted(const Schedule& schedule) {
  // The devices' orders by start, timed again by the shared routine: every
  // edge's delay and every device of a tensor-parallel block honoured.
  const classic::OrderTiming timing = classic::time_orders(schedule.placement, classic::orders_by_start(schedule));
  if (!timing.possible()) return schedule;  // not a valid schedule's orders: nothing to compact
  const size_t blocks = schedule.placement.blocks.size();
  std::vector<Time> start(blocks * static_cast<size_t>(schedule.nmicros), 0);
  for (const Instance& instance : timing.instances)
    start[static_cast<size_t>(instance.micro) * blocks + instance.block] = instance.start;
  Schedule result = schedule;
  for (Instance& instance : result.instances)
    instance.start = start[static_cast<size_t>(instance.micro) * blocks + instance.block];
  sort_instances(result);
  return result;
}

Schedule improve_by_neighbourhoods(const std::vector<Schedule>& starts, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats_out, const OnShorter& on_shorter) {
  std::vector<Schedule> queue = prepared(starts);
  if (queue.empty()) return starts.empty() ? Schedule{} : starts.front();
  NeighbourhoodStats stats;
  std::mt19937 random(static_cast<unsigned>(options.tuning.lns_seed));
  Schedule best = queue.front();
  Schedule current = best;
  size_t next_start = 1;
  const size_t per_device = static_cast<size_t>(std::max(1, best.placement.ndevs));
  const size_t free_per_device = static_cast<size_t>(options.tuning.lns_free_per_device);
  WindowSize size{2 * per_device, free_per_device * per_device, best.instances.size()};
  int fruitless_rounds = 0;  // rounds since the last shorter makespan
  size_t fruitless_starts = 0;
  int still = 0;  // windows in a row that moved nothing
  while (makespan(best) > bound && !options.deadline.expired()) {
    ++stats.rounds;
    const Time round_begin = makespan(current);
    for (const Neighbourhood& neighbourhood : round_of(current, size.value, random)) {
      if (options.deadline.expired() || makespan(best) <= bound) break;
      const double seconds = std::max(options.tuning.lns_window_seconds, options.deadline.seconds_left() / 8);
      const Move move = try_window(current, free_set(current, neighbourhood, size.value), options,
                                   options.deadline.within(seconds), stats);
      size.after(move);
      still = move == Move::Equal || move == Move::Shorter ? 0 : still + 1;
      give_up_when_still(options, still);
      if (move != Move::Shorter || makespan(current) >= makespan(best)) continue;
      best = current;
      if (options.progress)
        options.progress("neighbourhoods: makespan " + std::to_string(makespan(best)) + " (" +
                         freed_name(neighbourhood.freed) + ", " + std::to_string(size.value) +
                         " instances, round " + std::to_string(stats.rounds) + ")");
      if (on_shorter) on_shorter(best);
    }
    if (makespan(current) < round_begin) {
      fruitless_rounds = 0;
      fruitless_starts = 0;
      continue;
    }
    // Two rounds without gain (the size had time to adapt): another start,
    // the best so far once every start had its turn; without a time limit,
    // a whole cycle of starts without gain ends the search.
    if (++fruitless_rounds < 2) continue;
    fruitless_rounds = 0;
    if (options.deadline.unlimited() && ++fruitless_starts > queue.size()) break;
    ++stats.restarts;
    current = next_start < queue.size() ? queue[next_start++] : best;
  }
  if (stats_out) *stats_out = stats;
  return best;
}

Schedule improve_by_neighbourhoods(const Schedule& start, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats, const OnShorter& on_shorter) {
  return improve_by_neighbourhoods(std::vector<Schedule>{start}, options, bound, stats, on_shorter);
}

}  // namespace tessel
