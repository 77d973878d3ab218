// Condition 4 of docs/algorithms.md, "The problem", "memory": on every device d and every step
// t, the sum of `memory` over the instances on d with start <= t is <= M_d.
// The delta of a block counts from its start step (the Tessel paper's
// convention), so the memory of a device changes only at start steps: one
// sort of the (device, start) events and a running sum per device visit
// every value the curve takes. The curve starts at the device's static
// memory (parameters, optimizer state: held for the whole run) before any
// instance.
//
// A violation is one excursion above the limit: the step where the device
// goes over, the value there and the instances that start at that step on
// that device; the device coming back under the limit ends it.
//
// Only complete micro-batches (every block present) are counted: when an
// instance is missing, say a backward that frees memory, counting the rest
// of its micro-batch would report a memory excess that is only a symptom of
// the missing instance. A report with missing instances says so in a note.
//
// The peak memory per device is the largest value of the same curve,
// including the static memory it holds before its first start step.
#include <algorithm>
#include <limits>
#include <tuple>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

// Deltas are within +-2^50 (schedule_document.hpp) but a device may hold any
// number of them: the running sum saturates far from overflow, beyond any
// limit the reader accepts.
constexpr long long kSaturation = 1LL << 61;

long long saturating_add(long long sum, long long delta) {
  return std::clamp(sum + delta, -kSaturation, kSaturation);
}

struct MemoryEvent {
  int device = 0;
  long long step = 0;
  long long delta = 0;
  size_t instance = 0;  // index into DistinctInstances::by_block
  int run = -1;         // a re-allocation at this run's start (index into schedule.runs), else the instance's
  bool release = false;  // the instance's activation freed (recomputed or offloaded)
};

// A recomputed forward keeps only its checkpoint from its end until its
// recompute starts; an offloaded one nothing from its copy out's end until
// its copy in starts.
void add_choice_events(const ScheduleDocument& schedule, const DistinctInstances& distinct, const ChoiceTimes& choices,
                       std::vector<MemoryEvent>& events) {
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    if (!distinct.micro_complete[i]) continue;
    const PlacedInstance& instance = distinct.by_block[i];
    const BlockSpec& block = schedule.blocks[instance.block];
    long long freed_at = 0, freed = 0;
    int back = -1;
    if (choices.recompute[i] >= 0) {
      freed_at = instance.start + block.span, freed = block.memory - block.checkpoint_memory;
      back = choices.recompute[i];
    } else if (choices.copy_out[i] >= 0) {
      freed_at = run_end(schedule, schedule.runs[choices.copy_out[i]]), freed = block.memory;
      back = choices.copy_in[i];
    } else {
      continue;
    }
    for (int device : block.devices) {
      events.push_back({device, freed_at, -freed, i, -1, true});
      events.push_back({device, schedule.runs[back].start, freed, i, back, false});
    }
  }
}

}  // namespace

std::vector<long long> check_memory(const ScheduleDocument& schedule, const DistinctInstances& distinct,
                                    const ChoiceTimes& choices, Findings& findings) {
  std::vector<MemoryEvent> events;
  events.reserve(distinct.by_block.size());
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    if (!distinct.micro_complete[i]) continue;
    const PlacedInstance& instance = distinct.by_block[i];
    const BlockSpec& block = schedule.blocks[instance.block];
    for (int device : block.devices) events.push_back({device, instance.start, block.memory, i, -1, false});
  }
  add_choice_events(schedule, distinct, choices, events);
  std::sort(events.begin(), events.end(), [](const MemoryEvent& a, const MemoryEvent& b) {
    return std::tie(a.device, a.step, a.instance, a.run) < std::tie(b.device, b.step, b.instance, b.run);
  });

  // Before its first start step a device holds 0; a device whose first
  // instance starts at step 0 never shows that value.
  std::vector<char> starts_at_zero(schedule.ndevs, 0);
  for (const MemoryEvent& event : events)
    if (event.step == 0) starts_at_zero[event.device] = 1;
  const std::vector<long long>& held = schedule.static_memory;
  std::vector<long long> peak = held;
  for (int device = 0; device < schedule.ndevs; ++device)
    if (starts_at_zero[device]) peak[device] = std::numeric_limits<long long>::min();

  const std::vector<long long>* limits = schedule.memory_limit ? &*schedule.memory_limit : nullptr;
  std::vector<char> over(schedule.ndevs, 0);  // the device is above its limit right now
  if (limits)
    for (int device = 0; device < schedule.ndevs; ++device)
      if ((*limits)[device] < held[device] && !starts_at_zero[device]) {  // broken before anything starts
        over[device] = 1;
        findings.add({"memory",
                      "device " + std::to_string(device) + " at step 0: memory " + memory_text(schedule, held[device]) +
                          (held[device] != 0 ? " (static)" : "") + " is over the limit " +
                          memory_text(schedule, (*limits)[device]),
                      {device},
                      {0},
                      {}});
      }

  long long current = 0;
  for (size_t i = 0; i < events.size();) {
    const int device = events[i].device;
    const long long step = events[i].step;
    if (i == 0 || events[i - 1].device != device) current = held[device];
    const size_t group = i;  // the events of this device at this step
    for (; i < events.size() && events[i].device == device && events[i].step == step; ++i)
      current = saturating_add(current, events[i].delta);
    peak[device] = std::max(peak[device], current);
    if (!limits) continue;
    long long limit = (*limits)[device];
    if (current <= limit) {
      over[device] = 0;
      continue;
    }
    if (over[device]) continue;
    over[device] = 1;
    std::vector<std::string> starting;
    for (size_t e = group; e < i; ++e)
      if (!events[e].release)
        starting.push_back(events[e].run >= 0 ? run_name(schedule, schedule.runs[events[e].run])
                                              : name_of(schedule, distinct.by_block[events[e].instance]));
    findings.add({"memory",
                  "device " + std::to_string(device) + " at step " + time_text(schedule, step) + ": memory " +
                      memory_text(schedule, current) + (held[device] != 0 ? " (static " +
                      memory_text(schedule, held[device]) + " included)" : "") + " is over the limit " +
                      memory_text(schedule, limit) + " (by " + memory_text(schedule, current - limit) + ") after " +
                      (starting.size() == 1 ? starting.front() : std::to_string(starting.size()) + " instances") +
                      " start" + (starting.size() == 1 ? "s" : ""),
                  {device},
                  {step},
                  starting});
  }
  return peak;
}

}  // namespace tessel::verify
