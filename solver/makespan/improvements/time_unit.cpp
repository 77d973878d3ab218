// The time unit of a schedule and the schedule in that unit (time_unit.hpp).
#include "solver/makespan/improvements/time_unit.hpp"

#include <numeric>

namespace tessel {
namespace {

// Applies `change` to every time of the placement and the schedule.
template <typename Change>
Schedule rescaled(const Schedule& schedule, Change change) {
  Schedule out = schedule;
  for (Block& block : out.placement.blocks) {
    block.span = change(block.span);
    if (block.recompute) block.recompute->span = change(block.recompute->span);
    if (block.offload) {
      block.offload->out = change(block.offload->out);
      block.offload->in = change(block.offload->in);
    }
  }
  for (Edge& edge : out.placement.edges) edge.delay = change(edge.delay);
  for (Instance& instance : out.instances) instance.start = change(instance.start);
  // A schedule found in the unit may carry recomputes and copies (the
  // shift search chooses them where the placement offers them).
  for (RecomputeRun& run : out.recomputes) run.start = change(run.start);
  for (Transfer& copy : out.transfers) copy.start = change(copy.start);
  return out;
}

}  // namespace

Time time_unit(const Schedule& schedule) {
  // Schedules with fused units, recomputes or transfers carry more times:
  // left in ticks.
  if (!schedule.fused.empty() || !schedule.recomputes.empty() || !schedule.transfers.empty() ||
      schedule.repetend)
    return 1;
  Time unit = 0;
  for (const Block& block : schedule.placement.blocks) {
    unit = std::gcd(unit, block.span);
    if (block.recompute) unit = std::gcd(unit, block.recompute->span);
    if (block.offload) unit = std::gcd(std::gcd(unit, block.offload->out), block.offload->in);
  }
  for (const Edge& edge : schedule.placement.edges) unit = std::gcd(unit, edge.delay);
  for (const Instance& instance : schedule.instances) unit = std::gcd(unit, instance.start);
  return unit > 1 ? unit : 1;
}

Schedule divided_by(const Schedule& schedule, Time unit) {
  return rescaled(schedule, [unit](Time time) { return time / unit; });
}

Schedule multiplied_by(const Schedule& schedule, Time unit) {
  return rescaled(schedule, [unit](Time time) { return time * unit; });
}

}  // namespace tessel
