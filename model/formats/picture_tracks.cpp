// Memory curves and phases for the pictures. A curve is one sort of the
// (device, start, change) events and a running sum, the same pass the
// verifier makes; the static memory is the level before the first start.
#include "model/formats/picture_tracks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tessel {

std::vector<std::vector<MemoryPoint>> memory_curves(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  struct Change {
    int device;
    Time at;
    Memory delta;
  };
  std::vector<Change> changes;
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices) changes.push_back({device, instance.start, block.memory});
  }
  // Memory traded for time: a recomputed forward frees all but its
  // checkpoint at its end and takes it back at the recompute's start; an
  // offloaded one frees all at the copy out's end, back at the copy in's start.
  std::map<std::pair<int, int>, Time> forward_start;
  for (const Instance& instance : schedule.instances) forward_start[{instance.block, instance.micro}] = instance.start;
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = placement.blocks[run.block];
    auto forward = forward_start.find({run.block, run.micro});
    if (!block.recompute || forward == forward_start.end()) continue;
    const Memory freed = block.memory - block.recompute->checkpoint_memory;
    for (int device : block.devices) {
      changes.push_back({device, forward->second + block.span, -freed});
      changes.push_back({device, run.start, freed});
    }
  }
  for (const Transfer& copy : schedule.transfers) {
    const Block& block = placement.blocks[copy.block];
    if (!block.offload) continue;
    const bool out = copy.direction == TransferDirection::Out;
    for (int device : block.devices)
      changes.push_back({device, out ? copy.start + block.offload->out : copy.start, out ? -block.memory : block.memory});
  }
  std::sort(changes.begin(), changes.end(),
            [](const Change& a, const Change& b) { return std::tie(a.device, a.at) < std::tie(b.device, b.at); });
  std::vector<std::vector<MemoryPoint>> curves(placement.ndevs);
  for (int device = 0; device < placement.ndevs; ++device)
    curves[device].push_back({0, static_memory_of(placement, device)});
  for (const Change& change : changes) {
    std::vector<MemoryPoint>& curve = curves[change.device];
    // Changes at one time add up to one point; a change at 0 replaces the
    // static level, which the device then never shows.
    if (curve.back().at == change.at) {
      curve.back().level += change.delta;
      continue;
    }
    curve.push_back({change.at, curve.back().level + change.delta});
  }
  // Blocks that change nothing (memory 0) leave points on the level before.
  for (std::vector<MemoryPoint>& curve : curves)
    curve.erase(std::unique(curve.begin(), curve.end(),
                            [](const MemoryPoint& a, const MemoryPoint& b) { return a.level == b.level; }),
                curve.end());
  return curves;
}

std::vector<Memory> curve_peaks(const std::vector<std::vector<MemoryPoint>>& curves) {
  std::vector<Memory> peaks;
  for (const std::vector<MemoryPoint>& curve : curves) {
    Memory peak = curve.front().level;
    for (const MemoryPoint& point : curve) peak = std::max(peak, point.level);
    peaks.push_back(peak);
  }
  return peaks;
}

std::vector<Phase> schedule_phases(const Schedule& schedule) {
  std::vector<Phase> phases;
  if (!schedule.repetend) return phases;
  const Repetend& repetend = *schedule.repetend;
  const Time total = makespan(schedule);
  if (repetend.start > 0) phases.push_back({PhaseKind::Warmup, 0, std::min(repetend.start, total), 0});
  // The window as far as the schedule runs; a claim of more periods than a
  // picture can show (a file may claim any) is drawn as one phase.
  const Time end = std::min(repetend.end, total);
  constexpr Time kMostCopies = 4096;
  Time period = repetend.period;
  if (period <= 0 || (end - repetend.start) / period > kMostCopies) period = end - repetend.start;
  int copy = 0;
  for (Time at = repetend.start; at < end && period > 0; at += period)
    phases.push_back({PhaseKind::Repetend, at, std::min(at + period, end), copy++});
  if (repetend.end < total) phases.push_back({PhaseKind::Cooldown, repetend.end, total, 0});
  return phases;
}

const char* phase_name(PhaseKind kind) {
  switch (kind) {
    case PhaseKind::Warmup: return "warmup";
    case PhaseKind::Repetend: return "repetend";
    case PhaseKind::Cooldown: return "cooldown";
  }
  return "phase";
}

}  // namespace tessel
