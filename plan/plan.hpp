// `tessel plan` as a library function (docs/plan.md): from an operator graph
// to a schedule PyTorch runs, in one call. Partition the graph into
// devices x chunks stages (the exact bottleneck cut, or a cut balanced for
// the ranks when the mapping puts several stages on one rank and that is
// lighter for the busiest rank), map the stages on ranks, cost the blocks
// physically (partition/pipeline_placement.hpp) in a unit a user reads
// (plan/plan_time.hpp: GFLOP, or seconds with a device speed), search the
// best makespan at N micro-batches with solve(), and have the verifier judge
// the answer.
//
// A plan is never slower than the 1F1B chain at the same memory: the chain
// with the 1F1B order (and, with split backward, the ZB-H1 order) is built
// first, in milliseconds, and kept when the asked mapping's search does no
// better within the time limit; the answer then says so. `--mapping auto`
// plans every mapping and keeps the fastest. The command line, the Python
// module and the tests all call this; writing the files is write_plan_files.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/graph.hpp"
#include "plan/plan_types.hpp"

namespace tessel {

// Throws InputError for a request that is wrong in itself (options, memory
// text, speeds); an infeasible memory limit is an answer (outcome Infeasible
// with the reason), a deadline that strikes leaves the best schedule so far.
// `phase` (may be empty) gets one line per phase as it ends.
PlanAnswer plan_pipeline(const Graph& graph, const PlanRequest& request, const PlanProgressLine& phase = {});

// DIR/stages.json, placement.json, schedule.json, schedule.csv (compute-only),
// schedule_comms.csv, schedule.svg, report.md (and the CSV sidecars).
// Requires a schedule. Creates DIR.
void write_plan_files(const Graph& graph, const PlanRequest& request, const PlanAnswer& answer,
                      const std::string& directory);

// What a runtime reads, for the files and the Python module alike:
// stages.json (each stage with its recomputed and offloaded micro-batches),
// PyTorch's table of the schedule's compute order (it has no recompute or
// copy action; docs/plan.md, "Recompute and offload") and
// memory_choices.json. Require a schedule.
nlohmann::json plan_stages_json(const Graph& graph, const PlanResult& result);
std::string plan_table(const PlanResult& result, bool with_comms);
nlohmann::json plan_memory_choices(const PlanResult& result);

// The report.md text, and the one JSON object of `plan --json`.
std::string plan_report(const Graph& graph, const PlanRequest& request, const PlanAnswer& answer);
nlohmann::json plan_json(const PlanRequest& request, const PlanAnswer& answer, const std::string& directory);

// "12.35 ms" or "41.2 GFLOP": a makespan as the user reads it.
std::string format_makespan(double value, const PlanClock& clock);

// What the plan's schedule recomputes and offloads, its device time in the
// plan's unit (milliseconds, or GFLOP).
std::string plan_choices_text(const Schedule& schedule, const PlanClock& clock);

}  // namespace tessel
