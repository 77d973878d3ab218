// Import of the Python Tessel's saved schedules (`SchedPlan.save()` JSON):
// `{"ndevs", "blocks": [{"mid", "span", "memory", "btype", "gid", "step",
// "device"}], "repetend": [start, end]}` (formats.md).
//
// Blocks are matched by `gid` to the placement's block order (the built-in
// cases list their blocks in that order), micro = mid, start = step; span,
// memory, devices and btype must agree with the placement. nmicros is the
// largest mid + 1. The file stores no dependencies (they come from the
// placement) and no memory limit (pass one, or the schedule is unlimited).
//
// The repetend window [start, end) is kept. The Python tool's window holds
// one micro-batch of every block and may be longer than its period (it
// repeats overlapped in time), so the period is not end - start: it is
// derived as the smallest P for which repeating the window every P steps
// (one micro-batch further each time) keeps the schedule valid -
// exclusive, dependencies met, within the memory limit if one is given. If
// the window does not hold every block equally often or no period works, the
// schedule is imported without a repetend and `meta.repetend_note` says why.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

// Throws InputError naming `file` and the field (e.g. "blocks[3].span").
// `memory_limit`: empty = unlimited, one value = every device, or one per
// device.
Schedule import_tessel_json(const nlohmann::json& document, const Placement& placement,
                            const std::string& file, const std::vector<long long>& memory_limit = {});

}  // namespace tessel
