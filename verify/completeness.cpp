// Condition 1 of docs/algorithms.md, "The problem", "complete": every (block, micro-batch) with
// micro-batch in [0, nmicros) appears exactly once, and nothing else appears.
//
// One sort of the instances by (block, micro, position in the file) puts
// copies of the same instance next to each other (duplicates) and lets a walk
// over each block's micro-batches find the gaps (missing). Instances that
// name no block of the placement, or a micro-batch outside [0, nmicros), were
// set aside by the reader and are reported here as `unknown`. The cost is the
// sort, whatever nmicros says: a gap is counted, not enumerated, once the
// first kListedPerKind missing instances are listed.
#include <algorithm>

#include "verify/checks.hpp"

namespace tessel::verify {

std::string name_of(const ScheduleDocument& schedule, const PlacedInstance& instance) {
  return instance_name(schedule.blocks[instance.block].id, instance.micro);
}

const PlacedInstance* find_instance(const DistinctInstances& distinct, int block, long long micro) {
  auto first = distinct.by_block.begin() + static_cast<long>(distinct.block_begin[block]);
  auto last = distinct.by_block.begin() + static_cast<long>(distinct.block_begin[block + 1]);
  auto found = std::lower_bound(first, last, micro,
                                [](const PlacedInstance& instance, long long m) { return instance.micro < m; });
  if (found == last || found->micro != micro) return nullptr;
  return &*found;
}

namespace {

void report_unknown(const ScheduleDocument& schedule, Findings& findings) {
  for (const ForeignInstance& foreign : schedule.foreign)
    findings.add({"unknown",
                  "instances[" + std::to_string(foreign.position) + "] " + instance_name(foreign.block, foreign.micro) +
                      " at step " + time_text(schedule, foreign.start) + ": " + foreign.reason,
                  {},
                  {foreign.start},
                  {instance_name(foreign.block, foreign.micro)}});
}

void report_duplicate(const ScheduleDocument& schedule, const PlacedInstance& kept, const PlacedInstance& copy,
                      Findings& findings) {
  const BlockSpec& block = schedule.blocks[kept.block];
  findings.add({"duplicate",
                name_of(schedule, kept) + " appears more than once: instances[" + std::to_string(kept.position) +
                    "] at step " + time_text(schedule, kept.start) + " and instances[" + std::to_string(copy.position) +
                    "] at step " + time_text(schedule, copy.start),
                block.devices,
                {kept.start, copy.start},
                {name_of(schedule, kept), name_of(schedule, copy)}});
}

// Micro-batches [from, to) of `block` are absent.
void report_missing(const ScheduleDocument& schedule, int block, long long from, long long to, Findings& findings) {
  const BlockSpec& spec = schedule.blocks[block];
  for (long long micro = from; micro < to; ++micro) {
    if (findings.full("missing")) {
      findings.count_only("missing", to - micro);
      return;
    }
    findings.add({"missing", instance_name(spec.id, micro) + " is not scheduled", spec.devices, {},
                  {instance_name(spec.id, micro)}});
  }
}

// Marks the distinct instances whose micro-batch has all of its blocks.
void mark_complete_micros(const ScheduleDocument& schedule, DistinctInstances& distinct) {
  std::vector<long long> micros;
  micros.reserve(distinct.by_block.size());
  for (const PlacedInstance& instance : distinct.by_block) micros.push_back(instance.micro);
  std::sort(micros.begin(), micros.end());
  std::vector<long long> complete;
  for (size_t i = 0; i < micros.size();) {
    size_t j = i;
    while (j < micros.size() && micros[j] == micros[i]) ++j;
    if (j - i == schedule.blocks.size()) complete.push_back(micros[i]);
    i = j;
  }
  distinct.all_complete = static_cast<long long>(complete.size()) == schedule.nmicros;
  distinct.micro_complete.resize(distinct.by_block.size());
  for (size_t i = 0; i < distinct.by_block.size(); ++i)
    distinct.micro_complete[i] = std::binary_search(complete.begin(), complete.end(), distinct.by_block[i].micro);
}

}  // namespace

DistinctInstances check_completeness(const ScheduleDocument& schedule, Findings& findings) {
  report_unknown(schedule, findings);

  std::vector<PlacedInstance> sorted = schedule.instances;
  std::sort(sorted.begin(), sorted.end(), [](const PlacedInstance& a, const PlacedInstance& b) {
    if (a.block != b.block) return a.block < b.block;
    if (a.micro != b.micro) return a.micro < b.micro;
    return a.position < b.position;
  });

  DistinctInstances distinct;
  distinct.by_block.reserve(sorted.size());
  for (const PlacedInstance& instance : sorted) {
    if (!distinct.by_block.empty()) {
      const PlacedInstance& previous = distinct.by_block.back();
      if (previous.block == instance.block && previous.micro == instance.micro) {
        report_duplicate(schedule, previous, instance, findings);
        continue;
      }
    }
    distinct.by_block.push_back(instance);
  }

  int nblocks = static_cast<int>(schedule.blocks.size());
  distinct.block_begin.assign(nblocks + 1, 0);
  size_t cursor = 0;
  for (int block = 0; block < nblocks; ++block) {
    distinct.block_begin[block] = cursor;
    long long expected = 0;  // the next micro-batch this block should have
    while (cursor < distinct.by_block.size() && distinct.by_block[cursor].block == block) {
      long long micro = distinct.by_block[cursor].micro;
      report_missing(schedule, block, expected, micro, findings);
      expected = micro + 1;
      ++cursor;
    }
    report_missing(schedule, block, expected, schedule.nmicros, findings);
  }
  distinct.block_begin[nblocks] = cursor;

  mark_complete_micros(schedule, distinct);
  return distinct;
}

}  // namespace tessel::verify
