// Reading the Python Tessel's `SchedPlan.save()` JSON (see tessel_json.hpp).
//
// Three parts: reading and checking every block against the placement,
// counting how often the window holds each block (its micros_per_period),
// and deriving the period by trying the shortest ones first. The period
// search needs to know whether a repeated window still runs; that check is
// a few lines here rather than a call into verify/, which stays independent
// of model/ (and still judges the result in the tests).
#include "model/formats/tessel_json.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "model/json_file.hpp"
#include "model/quantity.hpp"
#include "model/unroll.hpp"

namespace tessel {

namespace {

// Saved plans of the Python tool span hundreds of steps. The period search
// replays the plan step by step for every candidate period, so both the
// length and the total replayed cells are bounded: past the first a file is
// refused, past the second the window is imported without a repetend claim.
constexpr long long kMaxPlanStep = 1000000;
constexpr long long kReplayBudget = 400000000;  // device-steps over all candidates

bool kind_matches_btype(BlockKind kind, const std::string& btype) {
  if (btype == "forward") return kind == BlockKind::Forward;
  if (btype == "backward")
    return kind == BlockKind::Backward || kind == BlockKind::BackwardInput || kind == BlockKind::BackwardWeight;
  return false;
}

std::string device_list(const std::vector<int>& devices) {
  std::string text = "[";
  for (size_t i = 0; i < devices.size(); ++i) text += (i ? ", " : "") + std::to_string(devices[i]);
  return text + "]";
}

Instance instance_from_block(const nlohmann::json& value, const Placement& placement, const JsonPlace& at) {
  if (!value.is_object()) at.fail("expected a block object, got " + shown_value(value));
  const nlohmann::json& gid_value = require(value, "gid", at);
  if (gid_value.is_null()) at.field("gid").fail("is null: the Python tool numbers blocks only after chain_blocks()");
  long long gid = as_integer(gid_value, at.field("gid"));
  const int nblocks = static_cast<int>(placement.blocks.size());
  if (gid < 0 || gid >= nblocks)
    at.field("gid").fail("gid " + std::to_string(gid) + " is outside the placement's " + std::to_string(nblocks) +
                         " blocks [0, " + std::to_string(nblocks) + ")");
  const Block& block = placement.blocks[gid];
  const std::string which = "the placement's block '" + block.id + "' (gid " + std::to_string(gid) + ")";

  // The Python tool's numbers are whole units; the placement counts ticks
  // of its decimals (a limit of 4.5 puts memory in tenths: 1 is 10 ticks).
  const long long time_unit = power_of_ten(placement.time_decimals);
  const long long memory_unit = power_of_ten(placement.memory_decimals);
  long long span = require_integer(value, "span", at);
  if (block.span % time_unit != 0 || span != block.span / time_unit)  // no overflow on a huge span
    at.field("span").fail("span " + std::to_string(span) + " differs from " + which + ": " +
                          format_ticks(block.span, placement.time_decimals));
  long long memory = require_integer(value, "memory", at);
  if (block.memory % memory_unit != 0 || memory != block.memory / memory_unit)
    at.field("memory").fail("memory " + std::to_string(memory) + " differs from " + which + ": " +
                            format_ticks(block.memory, placement.memory_decimals));
  std::string btype = require_string(value, "btype", at);
  if (btype != "forward" && btype != "backward")
    at.field("btype").fail("expected \"forward\" or \"backward\", got \"" + btype + "\"");
  if (!kind_matches_btype(block.kind, btype))
    at.field("btype").fail("btype " + btype + " differs from " + which + ", a " + kind_name(block.kind) + " block");
  const nlohmann::json& devices_value = require_array(value, "device", at);
  std::vector<int> devices;
  for (size_t i = 0; i < devices_value.size(); ++i)
    devices.push_back(static_cast<int>(as_integer(devices_value[i], at.field("device").index(i))));
  std::sort(devices.begin(), devices.end());
  if (devices != block.devices)
    at.field("device").fail("devices " + device_list(devices) + " differ from " + which + ": " +
                            device_list(block.devices));

  long long mid = require_integer(value, "mid", at);
  if (mid < 0 || mid > 100000000) at.field("mid").fail("micro-batch " + std::to_string(mid) + " is outside [0, 1e8]");
  long long step = require_integer(value, "step", at);
  if (step < 0) at.field("step").fail("step must be >= 0, got " + std::to_string(step));
  if (step > kMaxPlanStep)
    at.field("step").fail("step " + std::to_string(step) + " is past the " + std::to_string(kMaxPlanStep) +
                          " steps a saved plan may span");
  return {static_cast<int>(gid), static_cast<int>(mid), step * time_unit};
}

std::vector<long long> limit_per_device(const std::vector<long long>& limit, int ndevs) {
  if (limit.empty()) return {};
  if (limit.size() == 1) return std::vector<long long>(ndevs, limit.front());
  if (static_cast<int>(limit.size()) != ndevs)
    throw InputError("", "--memory",
                     "give one limit or one per device (" + std::to_string(ndevs) + "), got " +
                         std::to_string(limit.size()));
  return limit;
}

struct ReplayBudgetSpent {};

// True when no device runs two instances at once, every edge's instances
// run in order, and (with a limit) memory stays within it. Completeness is
// not checked: unroll builds it.
bool runs_validly(const Schedule& schedule, long long& budget) {
  const Placement& placement = schedule.placement;
  const int steps = makespan(schedule);
  budget -= static_cast<long long>(steps + 1) * placement.ndevs;
  if (budget < 0) throw ReplayBudgetSpent{};
  std::vector<std::vector<char>> busy(placement.ndevs, std::vector<char>(steps, 0));
  std::vector<std::vector<long long>> delta(placement.ndevs, std::vector<long long>(steps + 1, 0));
  std::map<std::pair<int, int>, int> start_of;
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices) {
      for (int step = instance.start; step < instance.start + block.span; ++step) {
        if (busy[device][step]) return false;
        busy[device][step] = 1;
      }
      delta[device][instance.start] += block.memory;
    }
    start_of[{instance.block, instance.micro}] = instance.start;
  }
  for (const Edge& edge : placement.edges)
    for (int micro = 0; micro < schedule.nmicros; ++micro) {
      auto from = start_of.find({edge.from, micro});
      auto to = start_of.find({edge.to, micro});
      if (from == start_of.end() || to == start_of.end()) continue;
      if (from->second + placement.blocks[edge.from].span > to->second) return false;
    }
  if (schedule.memory_limit.empty()) return true;
  for (int device = 0; device < placement.ndevs; ++device) {
    long long held = 0;
    for (int step = 0; step <= steps; ++step) {
      held += delta[device][step];
      if (held > schedule.memory_limit[device]) return false;
    }
  }
  return true;
}

// Whether repeating `unit` (enough copies that every pair of copies close
// enough to interact is present, plus one so that the cooldown follows a
// repeated unit) gives a schedule that runs. InputError = the unit does not
// have the shape of a repeating unit at all.
bool repeats_validly(const Schedule& schedule, const Repetend& unit, long long& budget) {
  Time longest_span = 1;
  for (const Block& block : schedule.placement.blocks) longest_span = std::max(longest_span, block.span);
  const Time extra = (unit.end - unit.start + longest_span + unit.period - 1) / unit.period + 1;
  const int nmicros = smallest_window_unroll(schedule, unit) + static_cast<int>(extra) * unit.micros_per_period;
  return runs_validly(unroll_window(schedule, unit, nmicros), budget);
}

// The smallest period that repeats the Python window validly, or 0 (with `why`).
Time derive_period(const Schedule& schedule, Repetend window, std::string& why) {
  const Time length = window.end - window.start;
  const Time first = std::max<Time>(1, window.micros_per_period * period_lower_bound(schedule.placement));
  Time longest_span = 1;
  for (const Block& block : schedule.placement.blocks) longest_span = std::max(longest_span, block.span);
  const Time last = length + longest_span + makespan(schedule);
  long long budget = kReplayBudget;
  for (window.period = first; window.period <= last; ++window.period) {
    try {
      if (repeats_validly(schedule, window, budget)) return window.period;
    } catch (const InputError& error) {
      why = error.reason;
      return 0;
    } catch (const ReplayBudgetSpent&) {
      why = "the period search stopped at period " + std::to_string(window.period) + " (of up to " +
            std::to_string(last) + "): replaying longer plans for every candidate is over its work budget";
      return 0;
    }
  }
  why = "no period up to " + std::to_string(last) + " repeats the window validly";
  return 0;
}

// A window of exactly one period that repeats validly, as tessel.schedule/1
// claims repetends (the steps [t, t + P) run every block k times): the
// Python window's start first, then every other step. nullopt if none.
std::optional<Repetend> one_period_window(const Schedule& schedule, int period, int k, int preferred_start) {
  std::vector<int> starts{preferred_start};
  for (int t = 0; t < makespan(schedule); ++t)
    if (t != preferred_start) starts.push_back(t);
  long long budget = kReplayBudget;
  for (int t : starts) {
    Repetend unit{t, t + period, period, k};
    try {
      if (repeats_validly(schedule, unit, budget)) return unit;
    } catch (const InputError&) {
      // not a repeating unit at this step
    } catch (const ReplayBudgetSpent&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

Schedule import_tessel_json(const nlohmann::json& document, const Placement& placement,
                            const std::string& file, const std::vector<long long>& memory_limit, int unroll_to) {
  JsonPlace place{file, ""};
  if (!document.is_object()) place.fail("expected the JSON object of SchedPlan.save()");
  long long ndevs = require_integer(document, "ndevs", place);
  if (ndevs != placement.ndevs)
    place.field("ndevs").fail("the file has " + std::to_string(ndevs) + " devices, the placement " +
                              std::to_string(placement.ndevs));

  Schedule schedule;
  schedule.placement = placement;
  schedule.memory_limit = limit_per_device(memory_limit, placement.ndevs);
  schedule.uniform_limit = memory_limit.size() <= 1;
  const nlohmann::json& blocks = require_array(document, "blocks", place);
  if (blocks.empty()) place.field("blocks").fail("no blocks");
  for (size_t i = 0; i < blocks.size(); ++i) {
    Instance instance = instance_from_block(blocks[i], placement, place.field("blocks").index(i));
    schedule.nmicros = std::max(schedule.nmicros, instance.micro + 1);
    schedule.instances.push_back(instance);
  }
  sort_instances(schedule);
  schedule.meta = {{"imported_from", "tessel-json"}, {"file", file}};

  auto found = document.find("repetend");
  if (found == document.end() || found->is_null()) return schedule;
  JsonPlace at = place.field("repetend");
  if (!found->is_array() || found->size() != 2) at.fail("expected [start, end], got " + shown_value(*found));
  Repetend repetend;
  long long start = as_integer((*found)[0], at.index(0));
  long long end = as_integer((*found)[1], at.index(1));
  if (start < 0 || end < start || end > 1000000000)
    at.fail("expected 0 <= start <= end, got " + shown_value(*found));
  repetend.start = start * power_of_ten(placement.time_decimals);
  repetend.end = end * power_of_ten(placement.time_decimals);
  schedule.meta["tessel_repetend"] = {start, end};

  // micros_per_period: how many micro-batches of each block the window runs
  // (the Python tool's windows run one); it must be the same for every block.
  std::vector<int> count(placement.blocks.size(), 0);
  for (const Instance& instance : schedule.instances)
    if (instance.start >= repetend.start && instance.start < repetend.end) ++count[instance.block];
  if (count.front() < 1 || std::any_of(count.begin(), count.end(), [&](int c) { return c != count.front(); })) {
    schedule.meta["repetend_note"] = "window [" + std::to_string(start) + ", " + std::to_string(end) +
                                     ") does not run every block equally often: not kept as a repetend";
    return schedule;
  }
  repetend.micros_per_period = count.front();
  std::string why;
  int period = derive_period(schedule, repetend, why);
  const std::string window = "window [" + std::to_string(start) + ", " + std::to_string(end) + ")";
  if (period == 0) {
    schedule.meta["repetend_note"] = window + " not kept as a repetend: " + why;
    return schedule;
  }
  schedule.meta["tessel_period"] = period;
  repetend.period = period;
  if (unroll_to > 0) {
    const int saved_nmicros = schedule.nmicros;
    schedule = unroll_window(schedule, repetend, unroll_to);
    schedule.meta["unrolled_from_nmicros"] = saved_nmicros;
  }
  schedule.repetend = one_period_window(schedule, period, repetend.micros_per_period, repetend.start);
  if (!schedule.repetend)
    schedule.meta["repetend_note"] =
        window + " repeats every " + std::to_string(period) + " steps, but no " + std::to_string(period) +
        " steps of this schedule run every block exactly " + std::to_string(repetend.micros_per_period) +
        " time(s), so it claims no repetend (import it unrolled to more micro-batches to get one)";
  return schedule;
}

}  // namespace tessel
