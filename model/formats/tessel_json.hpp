// Import of the Python Tessel's saved schedules (`SchedPlan.save()` JSON):
// `{"ndevs", "blocks": [{"mid", "span", "memory", "btype", "gid", "step",
// "device"}], "repetend": [start, end]}` (docs/formats.md, "tessel-json").
//
// Blocks are matched by `gid` to the placement's block order (the built-in
// cases list their blocks in that order), micro = mid, start = step; span,
// memory, devices and btype must agree with the placement. nmicros is the
// largest mid + 1. The file stores no dependencies (they come from the
// placement) and no memory limit (pass one, or the schedule is unlimited).
//
// The repetend: the Python tool's window [start, end) holds one micro-batch
// of every block and may be longer than its period (copies overlap in
// time), so the period is not end - start: it is derived as the smallest P
// for which repeating the window every P steps (one micro-batch further each
// time) keeps the schedule valid - exclusive, dependencies met, within the
// memory limit if one is given. tessel.schedule/1 claims a repetend as whole
// periods (see model/unroll.hpp), so the schedule claims {t, t + P, P, k}
// for the first step t (the Python window's start preferred) where P steps
// run every block once and repeat validly. A saved schedule of few
// micro-batches often has no such t (its window is wider than P): then it
// claims no repetend, and `unroll_to` > 0 first repeats the Python window to
// that many micro-batches, which makes the steady state appear. `meta` keeps
// the Python window (`tessel_repetend`), the derived period
// (`tessel_period`) and, when no repetend is claimed, `repetend_note` saying
// why.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

// Throws InputError naming `file` and the field (e.g. "blocks[3].span").
// `memory_limit`: empty = unlimited, one value = every device, or one per
// device (field "--memory" when malformed). `unroll_to` > 0: the result has
// that many micro-batches (field "--nmicros" when below the file's).
Schedule import_tessel_json(const nlohmann::json& document, const Placement& placement,
                            const std::string& file, const std::vector<long long>& memory_limit = {},
                            int unroll_to = 0);

}  // namespace tessel
