// Checking a claimed repetend (docs/algorithms.md, "The problem").
//
// A schedule found by search is warmup + window * r + cooldown, and `unroll`
// makes it longer by repeating the window. The file claims
// {start S, end E, period P, micros_per_period k}. The claim holds when all
// of these are true of the scheduled instances (each (block, micro) taken
// once, see completeness.cpp):
//
//  R1 the window [S, E) is a whole number r >= 1 of periods: E - S = r * P.
//     Copy j of the window is the steps [S + j P, S + (j + 1) P).
//  R2 every copy starts exactly k instances of every block: one period of a
//     steady state runs every block for k micro-batches, no more, no less.
//  R3 consecutive copies are the same instances shifted by P steps and k
//     micro-batches: an instance (b, m, s) in copy j < r - 1 has its
//     successor (b, m + k) scheduled at s + P, and one in copy j > 0 has its
//     predecessor (b, m - k) scheduled at s - P. With r = 1 there is nothing
//     to compare; R2 and R4 still apply.
//  R4 the window can follow itself, which is what repeating it does:
//     (a) on every device, the instances of copy 0 with their steps taken
//     modulo P (on a circle of P steps) do not overlap, else copy 0 would
//     collide with copy 1; (b) over one copy, the memory of every device
//     changes by 0, else every repetition adds to it and no limit holds for
//     long.
//
// Not checked here: dependencies and memory of copies that the file does not
// contain. The copies it does contain are instances like any other, checked
// by conditions 1-4.
#include <algorithm>
#include <map>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

std::string plural(long long count, const std::string& word) {
  // "micro-batch" and other words ending in -ch take -es.
  const bool sibilant = word.size() >= 2 && word.compare(word.size() - 2, 2, "ch") == 0;
  return std::to_string(count) + " " + word + (count == 1 ? "" : sibilant ? "es" : "s");
}

std::string describe(const ScheduleDocument& schedule, const ClaimedRepetend& claim) {
  long long copies = (claim.end - claim.start) / claim.period;
  std::string text = "window [" + time_text(schedule, claim.start) + ", " + time_text(schedule, claim.end) + "), period " +
                     time_text(schedule, claim.period) + ", " + plural(claim.micros_per_period, "micro-batch") +
                     " per period";
  if ((claim.end - claim.start) % claim.period == 0)
    text += ", " + std::to_string(copies) + (copies == 1 ? " copy" : " copies");
  return text;
}

// R1 and a size sanity check; returns r, or 0 when the claim is already false.
long long copies_of(const ScheduleDocument& schedule, const ClaimedRepetend& claim, Findings& findings) {
  long long length = claim.end - claim.start;
  if (length == 0 || length % claim.period != 0) {
    findings.add({"repetend",
                  "the window [" + time_text(schedule, claim.start) + ", " + time_text(schedule, claim.end) + ") is " +
                      (schedule.time_decimals > 0 ? time_text(schedule, length) : plural(length, "step")) + " long, not a whole number of periods of " +
                      time_text(schedule, claim.period),
                  {},
                  {claim.start, claim.end},
                  {}});
    return 0;
  }
  long long copies = length / claim.period;
  long long have = static_cast<long long>(schedule.instances.size());
  // Each copy needs k instances of every block; the order of the tests keeps
  // every product below 2^63.
  long long nblocks = static_cast<long long>(schedule.blocks.size());
  bool too_many = copies > have || claim.micros_per_period > have || copies * claim.micros_per_period > have ||
                  copies * claim.micros_per_period * nblocks > have;
  if (too_many) {
    findings.add({"repetend",
                  "the window [" + time_text(schedule, claim.start) + ", " + time_text(schedule, claim.end) + ") holds " +
                      plural(copies, "period") + " of " + plural(claim.micros_per_period, "micro-batch") +
                      " of " + plural(nblocks, "block") + ", more instances than the schedule's " +
                      std::to_string(have),
                  {},
                  {claim.start, claim.end},
                  {}});
    return 0;
  }
  return copies;
}

// R2: k instances of every block in every copy.
void check_counts(const ScheduleDocument& schedule, const DistinctInstances& distinct, const ClaimedRepetend& claim,
                  long long copies, Findings& findings) {
  const size_t nblocks = schedule.blocks.size();
  std::vector<long long> count(static_cast<size_t>(copies) * nblocks, 0);
  for (const PlacedInstance& instance : distinct.by_block) {
    if (instance.start < claim.start || instance.start >= claim.end) continue;
    size_t copy = static_cast<size_t>((instance.start - claim.start) / claim.period);
    ++count[copy * nblocks + instance.block];
  }
  std::map<size_t, std::vector<std::string>> wrong;  // cell -> its instances (a few)
  for (size_t cell = 0; cell < count.size(); ++cell)
    if (count[cell] != claim.micros_per_period) wrong[cell];
  if (wrong.empty()) return;
  for (const PlacedInstance& instance : distinct.by_block) {
    if (instance.start < claim.start || instance.start >= claim.end) continue;
    size_t cell = static_cast<size_t>((instance.start - claim.start) / claim.period) * nblocks + instance.block;
    auto it = wrong.find(cell);
    if (it != wrong.end() && it->second.size() < 8) it->second.push_back(name_of(schedule, instance));
  }
  for (const auto& [cell, instances] : wrong) {
    long long copy = static_cast<long long>(cell / nblocks);
    const BlockSpec& block = schedule.blocks[cell % nblocks];
    long long from = claim.start + copy * claim.period;
    findings.add({"repetend",
                  "copy " + std::to_string(copy) + " of the window (steps " + time_text(schedule, from) + ".." +
                      time_text(schedule, from + claim.period - 1) + ") starts block " + block.id + " " +
                      plural(count[cell], "time") + ", expected " + std::to_string(claim.micros_per_period),
                  block.devices,
                  {from},
                  instances});
  }
}

// R3: copy j + 1 is copy j shifted by (P steps, k micro-batches).
void check_shift(const ScheduleDocument& schedule, const DistinctInstances& distinct, const ClaimedRepetend& claim,
                 long long copies, Findings& findings) {
  if (copies < 2) return;
  const long long last_copy_start = claim.end - claim.period;
  for (const PlacedInstance& instance : distinct.by_block) {
    if (instance.start < claim.start || instance.start >= claim.end) continue;
    const BlockSpec& block = schedule.blocks[instance.block];
    if (instance.start < last_copy_start) {
      long long micro = instance.micro + claim.micros_per_period;
      long long step = instance.start + claim.period;
      const PlacedInstance* next = find_instance(distinct, instance.block, micro);
      if (next && next->start == step) continue;
      findings.add({"repetend",
                    name_of(schedule, instance) + " at step " + time_text(schedule, instance.start) +
                        " should repeat as " + instance_name(block.id, micro) + " at step " + time_text(schedule, step) +
                        ", but " + instance_name(block.id, micro) +
                        (next ? " is at step " + time_text(schedule, next->start) : " is not scheduled"),
                    block.devices,
                    {instance.start, step},
                    {name_of(schedule, instance), instance_name(block.id, micro)}});
    }
    if (instance.start >= claim.start + claim.period) {
      long long micro = instance.micro - claim.micros_per_period;
      long long step = instance.start - claim.period;
      const PlacedInstance* previous = micro >= 0 ? find_instance(distinct, instance.block, micro) : nullptr;
      if (previous && previous->start == step) continue;
      // A predecessor inside the earlier copies was already reported above.
      if (previous && previous->start >= claim.start && previous->start < last_copy_start) continue;
      findings.add({"repetend",
                    name_of(schedule, instance) + " at step " + time_text(schedule, instance.start) +
                        " should repeat " + instance_name(block.id, micro) + " at step " + time_text(schedule, step) +
                        ", but " + instance_name(block.id, micro) +
                        (previous ? " is at step " + time_text(schedule, previous->start) : " is not scheduled"),
                    block.devices,
                    {step, instance.start},
                    {instance_name(block.id, micro), name_of(schedule, instance)}});
    }
  }
}

// R4: copy 0 wraps onto itself without overlap and frees what it allocates.
void check_follows_itself(const ScheduleDocument& schedule, const DistinctInstances& distinct,
                          const ClaimedRepetend& claim, Findings& findings) {
  struct Phase {
    long long begin;  // in [0, P)
    long long end;    // begin + span, may pass P (wraps around)
    const PlacedInstance* instance;
  };
  std::vector<std::vector<Phase>> per_device(schedule.ndevs);
  std::vector<long long> net(schedule.ndevs, 0);
  const long long copy_end = claim.start + claim.period;
  for (const PlacedInstance& instance : distinct.by_block) {
    if (instance.start < claim.start || instance.start >= copy_end) continue;
    const BlockSpec& block = schedule.blocks[instance.block];
    for (int device : block.devices) {
      per_device[device].push_back({instance.start - claim.start, instance.start - claim.start + block.span, &instance});
      net[device] += block.memory;
    }
  }
  for (int device = 0; device < schedule.ndevs; ++device) {
    std::vector<Phase>& phases = per_device[device];
    std::sort(phases.begin(), phases.end(), [](const Phase& a, const Phase& b) { return a.begin < b.begin; });
    for (size_t i = 0; i < phases.size(); ++i) {
      // The next one on the circle: the following phase, or the first one a period later.
      bool wraps = i + 1 == phases.size();
      const Phase& next = phases[wraps ? 0 : i + 1];
      long long next_begin = next.begin + (wraps ? claim.period : 0);
      if (phases[i].end <= next_begin) continue;
      findings.add({"repetend",
                    "device " + std::to_string(device) + ": repeating the window every " +
                        time_text(schedule, claim.period) + " steps makes " + name_of(schedule, *phases[i].instance) +
                        " (step " + time_text(schedule, phases[i].instance->start) + ", span " +
                        time_text(schedule, phases[i].end - phases[i].begin) + ") overlap " +
                        (wraps ? "the next copy of " : "") + name_of(schedule, *next.instance) + " (step " +
                        time_text(schedule, next.instance->start) + ")",
                    {device},
                    {phases[i].instance->start, next.instance->start},
                    {name_of(schedule, *phases[i].instance), name_of(schedule, *next.instance)}});
    }
    if (net[device] != 0)
      findings.add({"repetend",
                    "device " + std::to_string(device) + ": memory changes by " + memory_text(schedule, net[device]) +
                        " over one period of the window, so it cannot repeat under a limit",
                    {device},
                    {claim.start},
                    {}});
  }
}

}  // namespace

std::string check_repetend(const ScheduleDocument& schedule, const DistinctInstances& distinct, Findings& findings) {
  const ClaimedRepetend& claim = *schedule.repetend;
  long long copies = copies_of(schedule, claim, findings);
  if (copies == 0) return describe(schedule, claim);
  check_counts(schedule, distinct, claim, copies, findings);
  check_shift(schedule, distinct, claim, copies, findings);
  check_follows_itself(schedule, distinct, claim, findings);
  return describe(schedule, claim);
}

}  // namespace tessel::verify
