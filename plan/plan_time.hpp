// The unit of a plan's times (docs/plan.md, "Costs that mean what they
// say"). Without a device speed a plan counts compute: its schedule's times are GFLOP (10^9
// floating-point operations of the graph, not time), the same unit in every
// plan, so plans compare. With `--device-flops F` (or a graph measured in
// nanoseconds by tessel_fx.py --profile) times are seconds, and with
// `--link-bandwidth B` (and `--link-latency`) each activation or gradient
// that crosses ranks is an edge delay of bytes / B + latency.
//
// The placement carries the exact times (ticks of 10^-d of the unit, d as
// fine as the magnitudes allow, up to nanoseconds or single FLOPs); the
// search works on them rounded up to its step (SearchRequest::resolution),
// which keeps the solver's numbers small, and the answer is then re-timed as
// soon as possible on the exact times in the same order on every rank
// (compact_schedule), which keeps every rank's memory peak.
#pragma once

#include <string>

#include "model/graph.hpp"
#include "model/schedule.hpp"
#include "partition/partition.hpp"
#include "partition/pipeline_placement.hpp"

namespace tessel {

enum class PlanUnit { Gflop, Seconds };

struct PlanClock {
  PlanUnit unit = PlanUnit::Gflop;
  double seconds_per_compute = 0;  // Seconds: per unit of the graph's compute
  double link_bandwidth = 0;       // bytes per second between ranks; 0 = transfers cost nothing
  double link_latency = 0;         // seconds per transfer (with a bandwidth)
  double host_bandwidth = 0;       // bytes per second to host memory; > 0: forwards offer offload
  bool measured = false;           // the graph's compute is measured nanoseconds (tessel_fx.py --profile)
};

// The clock for a graph: seconds when the graph is measured in nanoseconds
// or device_flops > 0 is given (a FLOP graph), else GFLOP. Throws InputError
// for a negative or non-finite speed, bandwidth or latency, a latency
// without a bandwidth, device_flops on a measured graph, and bandwidth in
// the GFLOP unit (a transfer is time, compute is not).
PlanClock plan_clock(const Graph& graph, double device_flops, double link_bandwidth, double link_latency);

// Sets the clock's host bandwidth; throws InputError for one that is not a
// number > 0 or for the GFLOP unit (a copy takes time, compute is not time).
void set_host_bandwidth(PlanClock& clock, double host_bandwidth);

// "GFLOP" | "s"
const char* unit_name(PlanUnit unit);

struct TimedPlacement {
  Placement placement;    // spans and delays exact, in ticks of 10^-time_decimals of the unit
  Time step = 1;          // ticks per search step (the search's resolution)
  long long transfers = 0;  // edges with a delay
};

// `staged` (pipeline_placement's answer: spans in steps) with its spans and
// delays re-expressed in the clock's unit; nmicros bounds the magnitudes.
// A forward's recompute offer takes its forward's exact span; with a host
// bandwidth every forward also offers offload, each copy taking the stage's
// activation bytes / bandwidth, before the same backward.
TimedPlacement timed_placement(const Graph& graph, const Partition& partition,
                               const PipelinePlacement& staged, const PlanClock& clock, int nmicros);

// The same order on every device, each instance as early as its device and
// dependencies allow: never longer, same peaks (memory changes only at
// starts, device by device). The repetend claim is dropped when times move.
// Recompute runs are part of their device's order (after their forward,
// before the block that needs them; a recomputed forward's release happens
// at its end, on its own device, so the order of memory changes is kept);
// a schedule with copies is returned as it is (a copy's release on the
// channel could move past a device's start).
Schedule compact_schedule(const Schedule& schedule);
// The same, always re-timed (a schedule whose starts ignore delays gets them).
Schedule retimed_schedule(const Schedule& schedule);

// A tick count in the unit (seconds or GFLOP) as a double.
double in_unit(Time ticks, int decimals);

}  // namespace tessel
