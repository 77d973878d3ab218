// Times in a unit a user can read: spans from exact compute, delays from
// bytes over a link, decimals chosen so that the whole schedule stays far
// inside the tick range.
#include "plan/plan_time.hpp"

#include "classic/order_timing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "model/input_error.hpp"

namespace tessel {

namespace {

// The whole schedule's time, in ticks, stays below this: at most 10
// significant digits per time, so that every time is written and read back
// as the same short decimal (a JSON double of 13 or more digits may be
// printed with a stray 17th), and sums stay far inside kMaxTicks.
constexpr double kTickBudget = 1e9;

bool usable(double value) { return std::isfinite(value) && value >= 0; }

// Per stage boundary s (between stage s and s + 1): the bytes of every
// output made at or before s and read after it (what the pipeline passes on,
// activations forward and their gradients back).
std::vector<long long> boundary_bytes(const Graph& graph, const Partition& partition) {
  std::vector<long long> bytes(std::max(0, partition.stages - 1), 0);
  std::vector<std::vector<int>> successors = node_successors(graph);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    int last = partition.stage_of[v];
    for (int w : successors[v]) last = std::max(last, partition.stage_of[w]);
    for (int s = partition.stage_of[v]; s < last; ++s) bytes[s] += graph.nodes[v].output_bytes;
  }
  return bytes;
}

// Unit per graph compute: GFLOP per FLOP, or seconds.
double unit_per_compute(const PlanClock& clock) {
  return clock.unit == PlanUnit::Seconds ? clock.seconds_per_compute : 1e-9;
}

// The finest decimals (at most 9) at which `total` (in the unit) fits the budget.
int decimals_for(double total) {
  int decimals = 9;
  while (decimals > 0 && total * std::pow(10.0, decimals) > kTickBudget) --decimals;
  return decimals;
}

Time ticks_up(double value, double scale) { return static_cast<Time>(std::ceil(value * scale - 1e-9)); }

}  // namespace

PlanClock plan_clock(const Graph& graph, double device_flops, double link_bandwidth, double link_latency) {
  if (!usable(device_flops)) throw InputError("", "--device-flops", "must be a number > 0 (FLOP/s of one device)");
  if (!usable(link_bandwidth)) throw InputError("", "--link-bandwidth", "must be a number > 0 (bytes/s between ranks)");
  if (!usable(link_latency)) throw InputError("", "--link-latency", "must be a number >= 0 (seconds)");
  if (link_latency > 0 && link_bandwidth == 0)
    throw InputError("", "--link-latency", "needs --link-bandwidth (the bytes per second of the same link)");
  PlanClock clock;
  if (graph.compute_unit == ComputeUnit::Nanoseconds) {
    if (device_flops > 0)
      throw InputError("", "--device-flops", "the graph is measured in nanoseconds (tessel_fx.py --profile); "
                                             "its compute is time already");
    clock.unit = PlanUnit::Seconds;
    clock.seconds_per_compute = 1e-9;
    clock.measured = true;
  } else if (device_flops > 0) {
    clock.unit = PlanUnit::Seconds;
    clock.seconds_per_compute = 1.0 / device_flops;
  }
  if (link_bandwidth > 0 && clock.unit != PlanUnit::Seconds)
    throw InputError("", "--link-bandwidth", "transfers take time: give --device-flops too (or a graph traced "
                                             "with --profile), so that compute is time as well");
  clock.link_bandwidth = link_bandwidth;
  clock.link_latency = link_latency;
  return clock;
}

void set_host_bandwidth(PlanClock& clock, double host_bandwidth) {
  if (!(std::isfinite(host_bandwidth) && host_bandwidth > 0))
    throw InputError("", "--host-bandwidth", "must be a number > 0 (bytes/s between a device and host memory)");
  if (clock.unit != PlanUnit::Seconds)
    throw InputError("", "--offload", "a copy to host memory takes time: give --device-flops too (or a graph traced "
                                      "with --profile), so that compute is time as well");
  clock.host_bandwidth = host_bandwidth;
}

const char* unit_name(PlanUnit unit) { return unit == PlanUnit::Seconds ? "s" : "GFLOP"; }

double in_unit(Time ticks, int decimals) { return static_cast<double>(ticks) / std::pow(10.0, decimals); }

TimedPlacement timed_placement(const Graph& graph, const Partition& partition,
                               const PipelinePlacement& staged, const PlanClock& clock, int nmicros) {
  const double per_compute = unit_per_compute(clock);
  std::vector<long long> bytes = boundary_bytes(graph, partition);
  auto delay_of = [&](long long crossing) {
    return clock.link_bandwidth > 0 ? static_cast<double>(crossing) / clock.link_bandwidth + clock.link_latency : 0.0;
  };
  double total = 0;
  for (double compute : staged.block_compute) total += compute * per_compute;
  for (long long crossing : bytes) total += 2 * delay_of(crossing);
  for (size_t s = 0; s < staged.backward_of_stage.size(); ++s) {  // recomputes and copies lengthen a schedule too
    if (staged.placement.blocks[s].recompute) total += staged.block_compute[s] * per_compute;
    if (clock.host_bandwidth > 0) total += 2 * static_cast<double>(staged.stage_activation_bytes[s]) / clock.host_bandwidth;
  }
  total = std::max(total * std::max(nmicros, 1), 1e-9);
  TimedPlacement timed;
  timed.placement = staged.placement;
  Placement& placement = timed.placement;
  placement.time_decimals = decimals_for(total);
  const double scale = std::pow(10.0, placement.time_decimals);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    placement.blocks[b].span = std::max<Time>(1, ticks_up(staged.block_compute[b] * per_compute, scale));
  for (int s = 0; s < static_cast<int>(staged.backward_of_stage.size()); ++s) {
    Block& forward = placement.blocks[s];  // pipeline_placement lists the forwards first
    if (forward.recompute) forward.recompute->span = forward.span;
    if (clock.host_bandwidth <= 0) continue;
    const Time copy = std::max<Time>(1, ticks_up(static_cast<double>(staged.stage_activation_bytes[s]) / clock.host_bandwidth, scale));
    forward.offload = OffloadOffer{copy, copy, staged.backward_of_stage[s]};
  }
  for (Edge& edge : placement.edges) {
    const Block& from = placement.blocks[edge.from];
    const Block& to = placement.blocks[edge.to];
    if (from.devices == to.devices || !from.stage || !to.stage || *from.stage == *to.stage) continue;
    int boundary = std::min(*from.stage, *to.stage);
    edge.delay = ticks_up(delay_of(bytes[boundary]), scale);
    if (edge.delay > 0) ++timed.transfers;
  }
  timed.step = std::max<Time>(1, static_cast<Time>(std::llround(static_cast<double>(staged.resolution) * per_compute * scale)));
  return timed;
}

namespace {

// One thing a device runs: an instance or a recompute run, in start order.
struct RetimeItem {
  Time start = 0;
  bool recompute = false;
  size_t index = 0;  // into instances or recomputes
};

std::vector<RetimeItem> start_order(const Schedule& schedule) {
  std::vector<RetimeItem> items;
  for (size_t i = 0; i < schedule.instances.size(); ++i) items.push_back({schedule.instances[i].start, false, i});
  for (size_t r = 0; r < schedule.recomputes.size(); ++r) items.push_back({schedule.recomputes[r].start, true, r});
  std::stable_sort(items.begin(), items.end(), [](const RetimeItem& a, const RetimeItem& b) { return a.start < b.start; });
  return items;
}

// With recompute runs: each device's items (instances and recomputes) in
// their old start order, timed one by one; the shared routine times
// instances only.
Schedule retimed_with_recomputes(const Schedule& schedule) {
  if (!schedule.transfers.empty()) return schedule;
  const Placement& placement = schedule.placement;
  // In the old start order every predecessor (same micro-batch) comes
  // first: it ended, delay included, before its dependant started; so does
  // a recompute before the block that needs it.
  std::vector<std::vector<const Edge*>> into(placement.blocks.size());
  for (const Edge& edge : placement.edges) into[edge.to].push_back(&edge);
  std::vector<std::vector<int>> recomputed_into(placement.blocks.size());
  for (size_t f = 0; f < placement.blocks.size(); ++f)
    if (placement.blocks[f].recompute) recomputed_into[placement.blocks[f].recompute->before].push_back(static_cast<int>(f));
  std::set<std::pair<int, int>> recomputed;
  for (const RecomputeRun& run : schedule.recomputes) recomputed.insert({run.block, run.micro});
  std::map<std::pair<int, int>, Time> end, recompute_end;  // (block, micro) -> new end
  std::vector<Time> free_at(placement.ndevs, 0);
  Schedule retimed = schedule;
  bool moved = false;
  for (const RetimeItem& item : start_order(schedule)) {
    const int block_index = item.recompute ? schedule.recomputes[item.index].block : schedule.instances[item.index].block;
    const int micro = item.recompute ? schedule.recomputes[item.index].micro : schedule.instances[item.index].micro;
    const Block& block = placement.blocks[block_index];
    Time start = 0;
    for (int device : block.devices) start = std::max(start, free_at[device]);
    auto after = [&](const std::map<std::pair<int, int>, Time>& ends, int from, Time delay) {
      auto found = ends.find({from, micro});
      if (found == ends.end()) return false;
      start = std::max(start, found->second + delay);
      return true;
    };
    if (item.recompute) {
      if (!after(end, block_index, 0)) return schedule;  // not in start order: leave it
    } else {
      for (const Edge* edge : into[block_index])
        if (!after(end, edge->from, edge->delay)) return schedule;
      for (int forward : recomputed_into[block_index])
        if (recomputed.count({forward, micro}) && !after(recompute_end, forward, 0)) return schedule;
    }
    const Time span = item.recompute ? block.recompute->span : block.span;
    Time& old_start = item.recompute ? retimed.recomputes[item.index].start : retimed.instances[item.index].start;
    moved = moved || old_start != start;
    old_start = start;
    (item.recompute ? recompute_end : end)[{block_index, micro}] = start + span;
    for (int device : block.devices) free_at[device] = start + span;
  }
  sort_instances(retimed);
  std::sort(retimed.recomputes.begin(), retimed.recomputes.end(), [](const RecomputeRun& a, const RecomputeRun& b) {
    return std::tie(a.start, a.block, a.micro) < std::tie(b.start, b.block, b.micro);
  });
  if (moved) retimed.repetend.reset();
  return retimed;
}

}  // namespace

Schedule retimed_schedule(const Schedule& schedule) {
  if (!schedule.recomputes.empty() || !schedule.transfers.empty()) return retimed_with_recomputes(schedule);
  // Each rank's order by the old starts, timed by the shared routine
  // (classic/order_timing.hpp): delays and tensor-parallel blocks included.
  const classic::OrderTiming timing = classic::time_orders(schedule.placement, classic::orders_by_start(schedule));
  if (!timing.possible() || timing.instances.size() != schedule.instances.size()) return schedule;  // leave it
  Schedule retimed = schedule;
  retimed.instances = timing.instances;
  sort_instances(retimed);
  Schedule before = schedule;
  sort_instances(before);
  bool moved = false;
  for (size_t i = 0; i < before.instances.size(); ++i)
    moved = moved || before.instances[i].start != retimed.instances[i].start;
  if (moved) retimed.repetend.reset();
  return retimed;
}

Schedule compact_schedule(const Schedule& schedule) {
  if (!schedule.fused.empty()) return schedule;
  Schedule compact = retimed_schedule(schedule);
  return makespan(compact) < makespan(schedule) ? compact : schedule;
}

}  // namespace tessel
