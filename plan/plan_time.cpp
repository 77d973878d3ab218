// Times in a unit a user can read: spans from exact compute, delays from
// bytes over a link, decimals chosen so that the whole schedule stays far
// inside the tick range.
#include "plan/plan_time.hpp"

#include "classic/order_timing.hpp"

#include <algorithm>
#include <cmath>
#include <map>

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

const char* unit_name(PlanUnit unit) { return unit == PlanUnit::Seconds ? "s" : "GFLOP"; }

double in_unit(Time ticks, int decimals) { return static_cast<double>(ticks) / std::pow(10.0, decimals); }

TimedPlacement timed_placement(const Graph& graph, const Partition& partition, const PipelineOptions& options,
                               const PipelinePlacement& staged, const PlanClock& clock, int nmicros) {
  const double per_compute = unit_per_compute(clock);
  std::vector<long long> bytes = boundary_bytes(graph, partition);
  auto delay_of = [&](long long crossing) {
    return clock.link_bandwidth > 0 ? static_cast<double>(crossing) / clock.link_bandwidth + clock.link_latency : 0.0;
  };
  double total = 0;
  for (double compute : staged.block_compute) total += compute * per_compute;
  for (long long crossing : bytes) total += 2 * delay_of(crossing);
  total = std::max(total * std::max(nmicros, 1), 1e-9);
  TimedPlacement timed;
  timed.placement = staged.placement;
  Placement& placement = timed.placement;
  placement.time_decimals = decimals_for(total);
  const double scale = std::pow(10.0, placement.time_decimals);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    placement.blocks[b].span = std::max<Time>(1, ticks_up(staged.block_compute[b] * per_compute, scale));
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

Schedule retimed_schedule(const Schedule& schedule) {
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
