// Memory traded for time (docs/formats.md, "Memory traded for time";
// docs/algorithms.md, "The verifier"): the runs a schedule lists to
// recompute or offload forward activations. A run counts (occupies its
// devices or copy channel) when its block exists, offers that choice, its
// micro-batch is in range and it is the first of its kind for that
// instance. A forward instance recomputes (or offloads) only when it is
// marked and every run of its choice counts; otherwise it keeps its memory,
// so a broken choice never saves memory it did not earn.
//
// Violations: `choice` (a run or a mark without its counterpart, a choice
// not offered, a repeated run, an unknown block or micro-batch), `order` (a
// recompute or copy out before the forward ends, a copy in before the copy
// out ends, a recompute or copy in ending after `before` starts), `channel`
// (two copies on one device's copy channel at once).
#include <algorithm>
#include <map>
#include <tuple>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

const char* kind_text(RunKind kind) {
  return kind == RunKind::Recompute ? "recompute" : kind == RunKind::CopyOut ? "copy out" : "copy in";
}

bool offered(const BlockSpec& block, RunKind kind) {
  return kind == RunKind::Recompute ? block.recompute_before >= 0 : block.offload_before >= 0;
}

// The run's position among the distinct instances' choices, or a reason it does not count.
std::string run_problem(const ScheduleDocument& schedule, const ChoiceRun& run) {
  if (run.block < 0) return "block '" + run.block_id + "' is not in the placement";
  if (run.micro < 0 || run.micro >= schedule.nmicros)
    return "micro-batch " + std::to_string(run.micro) + " is outside [0, " + std::to_string(schedule.nmicros) + ")";
  if (!offered(schedule.blocks[run.block], run.kind))
    return "block '" + run.block_id + "' offers no " + (run.kind == RunKind::Recompute ? "recompute" : "offload");
  return "";
}

std::string list_place(const ChoiceRun& run) {
  return std::string(run.kind == RunKind::Recompute ? "recomputes[" : "transfers[") + std::to_string(run.position) + "]";
}

// Accepts the runs that count and files each under its forward instance.
void accept_runs(const ScheduleDocument& schedule, const DistinctInstances& distinct, ChoiceTimes& times,
                 std::vector<int>* slot[3], Findings& findings) {
  std::map<std::tuple<int, long long, int>, size_t> first;
  for (size_t r = 0; r < schedule.runs.size(); ++r) {
    const ChoiceRun& run = schedule.runs[r];
    const std::string problem = run_problem(schedule, run);
    const std::string name = instance_name(run.block_id, run.micro) + " (" + kind_text(run.kind) + ")";
    if (!problem.empty()) {
      findings.add({"choice", list_place(run) + " " + name + ": " + problem, {}, {run.start}, {name}});
      continue;
    }
    const int kind = static_cast<int>(run.kind);
    if (!first.emplace(std::make_tuple(run.block, run.micro, kind), r).second) {
      findings.add({"choice", list_place(run) + " " + name + " is listed more than once", {}, {run.start}, {name}});
      continue;
    }
    (run.kind == RunKind::Recompute ? times.recomputes : times.copies).push_back(r);
    const PlacedInstance* forward = find_instance(distinct, run.block, run.micro);
    if (!forward) continue;  // the forward is reported missing
    const size_t i = static_cast<size_t>(forward - distinct.by_block.data());
    (*slot[kind])[i] = static_cast<int>(r);
  }
}

// Keeps the choices whose mark and runs agree; reports the others.
void match_marks(const ScheduleDocument& schedule, const DistinctInstances& distinct, ChoiceTimes& times,
                 Findings& findings) {
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    const PlacedInstance& instance = distinct.by_block[i];
    const std::string name = name_of(schedule, instance);
    const bool has_recompute = times.recompute[i] >= 0;
    const bool has_offload = times.copy_out[i] >= 0 || times.copy_in[i] >= 0;
    std::string problem;
    if (instance.marked_recompute && instance.marked_offload) problem = "is marked both recompute and offload";
    else if (instance.marked_recompute && !has_recompute) problem = "is marked recompute but no recompute of it counts";
    else if (!instance.marked_recompute && has_recompute) problem = "has a recompute but is not marked \"recompute\": true";
    else if (instance.marked_offload && (times.copy_out[i] < 0 || times.copy_in[i] < 0))
      problem = "is marked offload but lacks a copy out or a copy in";
    else if (!instance.marked_offload && has_offload) problem = "has copies but is not marked \"offload\": true";
    if (problem.empty()) continue;
    findings.add({"choice", name + " " + problem, schedule.blocks[instance.block].devices, {instance.start}, {name}});
    times.recompute[i] = times.copy_out[i] = times.copy_in[i] = -1;  // it keeps its memory
  }
}

void check_after(const ScheduleDocument& schedule, const ChoiceRun& run, long long ready, const std::string& what,
                 Findings& findings) {
  if (run.start >= ready) return;
  const std::string name = run_name(schedule, run);
  findings.add({"order", name + " starts at " + time_text(schedule, run.start) + " before " + what + " ends at " +
                             time_text(schedule, ready),
                schedule.blocks[run.block].devices, {run.start}, {name}});
}

void check_before(const ScheduleDocument& schedule, const DistinctInstances& distinct, const ChoiceRun& run,
                  int before, Findings& findings) {
  const PlacedInstance* needing = find_instance(distinct, before, run.micro);
  if (!needing || run_end(schedule, run) <= needing->start) return;
  const std::string name = run_name(schedule, run);
  findings.add({"order", name + " ends at " + time_text(schedule, run_end(schedule, run)) + " after " +
                             name_of(schedule, *needing) + ", which needs the activation, starts at " +
                             time_text(schedule, needing->start),
                schedule.blocks[run.block].devices, {run.start, needing->start}, {name, name_of(schedule, *needing)}});
}

void check_order(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                 const ChoiceTimes& times, Findings& findings) {
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    const BlockSpec& block = schedule.blocks[distinct.by_block[i].block];
    const std::string forward = "its forward " + name_of(schedule, distinct.by_block[i]);
    if (times.recompute[i] >= 0) {
      const ChoiceRun& run = schedule.runs[times.recompute[i]];
      check_after(schedule, run, fused.end[i], forward, findings);
      check_before(schedule, distinct, run, block.recompute_before, findings);
    }
    if (times.copy_out[i] < 0 || times.copy_in[i] < 0) continue;
    const ChoiceRun& out = schedule.runs[times.copy_out[i]];
    const ChoiceRun& in = schedule.runs[times.copy_in[i]];
    check_after(schedule, out, fused.end[i], forward, findings);
    check_after(schedule, in, run_end(schedule, out), "its copy out", findings);
    check_before(schedule, distinct, in, block.offload_before, findings);
  }
}

// One transfer at a time on each device's copy channel: a sweep per device.
void check_channels(const ScheduleDocument& schedule, const ChoiceTimes& times, Findings& findings) {
  std::vector<std::tuple<int, long long, long long, size_t>> uses;  // device, start, end, run
  for (size_t r : times.copies)
    for (int device : schedule.blocks[schedule.runs[r].block].devices)
      uses.emplace_back(device, schedule.runs[r].start, run_end(schedule, schedule.runs[r]), r);
  std::sort(uses.begin(), uses.end());
  for (size_t i = 1, holder = 0; i < uses.size(); ++i) {
    if (std::get<0>(uses[i]) != std::get<0>(uses[holder])) {
      holder = i;
      continue;
    }
    if (std::get<1>(uses[i]) < std::get<2>(uses[holder])) {
      const std::string a = run_name(schedule, schedule.runs[std::get<3>(uses[holder])]);
      const std::string b = run_name(schedule, schedule.runs[std::get<3>(uses[i])]);
      const int device = std::get<0>(uses[i]);
      findings.add({"channel", "device " + std::to_string(device) + "'s copy channel at " +
                                   time_text(schedule, std::get<1>(uses[i])) + ": " + b + " overlaps " + a,
                    {device}, {std::get<1>(uses[i])}, {a, b}});
    }
    if (std::get<2>(uses[i]) > std::get<2>(uses[holder])) holder = i;
  }
}

}  // namespace

std::string run_name(const ScheduleDocument& schedule, const ChoiceRun& run) {
  return instance_name(run.block >= 0 ? schedule.blocks[run.block].id : run.block_id, run.micro) + " (" +
         kind_text(run.kind) + ")";
}

long long run_end(const ScheduleDocument& schedule, const ChoiceRun& run) {
  const BlockSpec& block = schedule.blocks[run.block];
  if (run.kind == RunKind::Recompute) return run.start + block.recompute_span;
  return run.start + (run.kind == RunKind::CopyOut ? block.offload_out : block.offload_in);
}

ChoiceTimes check_choices(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                          Findings& findings) {
  ChoiceTimes times;
  const size_t n = distinct.by_block.size();
  times.recompute.assign(n, -1);
  times.copy_out.assign(n, -1);
  times.copy_in.assign(n, -1);
  std::vector<int>* slot[3] = {&times.recompute, &times.copy_out, &times.copy_in};
  accept_runs(schedule, distinct, times, slot, findings);
  match_marks(schedule, distinct, times, findings);
  check_order(schedule, distinct, fused, times, findings);
  check_channels(schedule, times, findings);
  return times;
}

}  // namespace tessel::verify
