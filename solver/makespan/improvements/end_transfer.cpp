// Ends from a smaller N (see the header): per-device orders cut where both
// hold the same copies of every block, spliced, run as soon as possible
// (classic/order_execution), kept when valid and shorter.
#include "solver/makespan/improvements/end_transfer.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include "classic/order_execution.hpp"
#include "classic/order_timing.hpp"
#include "solver/modulo/schedule_check.hpp"

namespace tessel {
namespace {

using classic::DeviceOrders;
using classic::OrderedInstance;

// A schedule seen as orders: each device's instances by start, and for
// every block the start of each copy (copy k is micro-batch k).
struct Orders {
  DeviceOrders lists;
  std::vector<std::vector<Time>> starts;     // [block][micro]
  std::vector<std::vector<int>> positions;  // [block][micro]: index in its device's list
};

// Nothing when a block runs on several devices, a unit is fused, or the
// copies of a block do not run in micro-batch order (the cuts below count
// copies, so copy k must be micro-batch k: see in_micro_order).
std::optional<Orders> orders_of(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  if (!schedule.fused.empty()) return std::nullopt;
  for (const Block& block : placement.blocks)
    if (block.devices.size() != 1) return std::nullopt;
  std::vector<Instance> by_start = schedule.instances;
  std::sort(by_start.begin(), by_start.end(), [](const Instance& a, const Instance& b) {
    return a.start != b.start ? a.start < b.start : a.block != b.block ? a.block < b.block : a.micro < b.micro;
  });
  Orders orders;
  orders.lists.assign(placement.ndevs, {});
  orders.starts.assign(placement.blocks.size(), {});
  orders.positions.assign(placement.blocks.size(), {});
  for (const Instance& instance : by_start) {
    if (instance.micro != static_cast<int>(orders.starts[instance.block].size())) return std::nullopt;
    std::vector<OrderedInstance>& list = orders.lists[placement.blocks[instance.block].devices.front()];
    orders.starts[instance.block].push_back(instance.start);
    orders.positions[instance.block].push_back(static_cast<int>(list.size()));
    list.push_back({instance.block, instance.micro});
  }
  return orders;
}

// Copies of `block` that start before `cut`.
int started_before(const Orders& orders, int block, Time cut) {
  const std::vector<Time>& starts = orders.starts[block];
  return static_cast<int>(std::lower_bound(starts.begin(), starts.end(), cut) - starts.begin());
}

// The length of the prefix of `device`'s list holding exactly `wanted[b]`
// copies of each of its blocks `b`; nothing when no prefix does.
std::optional<int> prefix_with(const Orders& orders, const std::vector<int>& blocks, const std::vector<int>& wanted) {
  int length = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const std::vector<int>& positions = orders.positions[blocks[i]];
    if (wanted[i] < 0 || wanted[i] > static_cast<int>(positions.size())) return std::nullopt;
    if (wanted[i] > 0) length = std::max(length, positions[wanted[i] - 1] + 1);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const std::vector<int>& positions = orders.positions[blocks[i]];
    if (wanted[i] < static_cast<int>(positions.size()) && positions[wanted[i]] < length) return std::nullopt;
  }
  return length;
}

// The spliced orders run as soon as possible; nothing when they deadlock or
// the result does not fit (memory above a limit).
std::optional<Schedule> run_orders(const Schedule& like, const DeviceOrders& lists) {
  try {
    classic::TimedOrders timed = classic::run_as_soon_as_possible(like.placement, lists);
    Schedule schedule = empty_schedule(like.placement, like.memory_limit, like.nmicros);
    schedule.instances = std::move(timed.instances);
    sort_instances(schedule);
    if (!schedule_fits(schedule)) return std::nullopt;
    return schedule;
  } catch (const std::bad_alloc&) {
    throw;  // out of memory ends the search (tools/memory_reserve.hpp), never "no schedule"
  } catch (const std::exception&) {
    return std::nullopt;  // a deadlock: the cut does not match
  }
}

// Whether the orders run (no deadlock) and end before `best` does.
bool shorter_than(const Schedule& best, const DeviceOrders& lists) {
  const classic::OrderTiming timing = classic::time_orders(best.placement, lists);
  if (!timing.possible()) return false;
  Time end = 0;
  for (const Instance& instance : timing.instances)
    end = std::max(end, instance.start + best.placement.blocks[instance.block].span);
  return end < makespan(best);
}

enum class End { Tail, Head };

// Every cut of the small schedule tried against `large`: the large order up
// to the cut and the small one's after it (Tail), or the small one's up to
// the cut and the large one's after (Head). `best` holds the shortest.
void splice_at_every_cut(Schedule& best, const Orders& large, const Orders& small, int small_nmicros, End end,
                         const Deadline& deadline, TransferStats& stats) {
  const Placement& placement = best.placement;
  const int added = best.nmicros - small_nmicros;  // the large schedule's extra copies of every block
  std::vector<std::vector<int>> device_blocks(placement.ndevs);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    device_blocks[placement.blocks[b].devices.front()].push_back(static_cast<int>(b));
  std::vector<Time> cuts;
  for (const std::vector<Time>& starts : small.starts) cuts.insert(cuts.end(), starts.begin(), starts.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (Time cut : cuts) {
    if (deadline.expired()) return;
    DeviceOrders lists(placement.ndevs);
    bool matched = true;
    for (int device = 0; device < placement.ndevs && matched; ++device) {
      const std::vector<int>& blocks = device_blocks[device];
      std::vector<int> wanted;
      int small_prefix = 0;
      for (int block : blocks) {
        const int before = started_before(small, block, cut);
        small_prefix += before;
        wanted.push_back(end == End::Tail ? before + added : before);
      }
      const std::optional<int> large_prefix = prefix_with(large, blocks, wanted);
      if (!large_prefix) {
        matched = false;
        break;
      }
      const std::vector<OrderedInstance>& large_list = large.lists[device];
      const std::vector<OrderedInstance>& small_list = small.lists[device];
      std::vector<OrderedInstance>& list = lists[device];
      if (end == End::Tail) {
        list.assign(large_list.begin(), large_list.begin() + *large_prefix);
        for (auto it = small_list.begin() + small_prefix; it != small_list.end(); ++it)
          list.push_back({it->block, it->micro + added});
      } else {
        list.assign(small_list.begin(), small_list.begin() + small_prefix);
        list.insert(list.end(), large_list.begin() + *large_prefix, large_list.end());
      }
    }
    if (!matched) continue;
    ++stats.tried;
    // Timed first (the shared order timing); only a shorter one is built
    // and checked whole: the memory levels, which the timing leaves to the
    // orders, matter only for a schedule that would be taken.
    if (!shorter_than(best, lists)) continue;
    std::optional<Schedule> spliced = run_orders(best, lists);
    if (!spliced) continue;
    ++stats.fitted;
    if (makespan(*spliced) < makespan(best)) best = std::move(*spliced);
  }
}

}  // namespace

std::optional<Schedule> transfer_ends(const Schedule& large, const Schedule& small, const Deadline& deadline,
                                      TransferStats* stats) {
  TransferStats own;
  TransferStats& counted = stats ? *stats : own;
  if (small.nmicros >= large.nmicros) return std::nullopt;
  const std::optional<Orders> small_orders = orders_of(in_micro_order(small));
  std::optional<Orders> large_orders = orders_of(in_micro_order(large));
  if (!small_orders || !large_orders) return std::nullopt;
  Schedule best = large;
  best.repetend.reset();
  splice_at_every_cut(best, *large_orders, *small_orders, small.nmicros, End::Tail, deadline, counted);
  large_orders = orders_of(best);  // the head spliced onto the shorter tail
  if (large_orders)
    splice_at_every_cut(best, *large_orders, *small_orders, small.nmicros, End::Head, deadline, counted);
  if (makespan(best) >= makespan(large)) return std::nullopt;
  return best;
}

}  // namespace tessel
