// tessel.partition and tessel.plan (docs/python.md): the graph-to-pipeline
// path of `tessel partition --devices` and `tessel plan` as calls returning
// objects; both are the library functions the command line uses
// (partition/pipeline_placement.hpp, plan/plan.hpp). The plan runs with the
// GIL released.
#include <pybind11/stl.h>

#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"
#include "partition/partition_search.hpp"
#include "partition/stage_placement.hpp"
#include "plan/plan.hpp"
#include "python/bindings.hpp"

namespace tessel::python {
namespace {

// What tessel.plan returns.
struct PlanAnswer {
  std::string status;   // found | infeasible | timeout | interrupted
  std::string message;
  std::string mapping;
  std::string cut;
  std::optional<Schedule> schedule;
  Placement placement;
  long long makespan = 0;          // steps
  double makespan_compute = 0;     // in the graph's compute unit
  double bubble_ratio = 0;
  std::vector<long long> peak_memory;   // bytes per rank
  std::vector<long long> static_memory; // bytes per rank
  std::string csv, comms_csv, report;
};

PipelineOptions pipeline_options(int devices, const std::string& mapping, std::optional<int> chunks,
                                 bool split_backward, double optimizer_bytes_per_param) {
  PipelineOptions options;
  options.devices = devices;
  std::optional<StageMapping> parsed = parse_mapping(mapping);
  if (!parsed) throw InputError("", "mapping", "choose chain, interleaved or v, not '" + mapping + "'");
  options.mapping = *parsed;
  options.chunks = chunks.value_or(options.mapping == StageMapping::Chain ? 1 : 2);
  options.split_backward = split_backward;
  options.optimizer_bytes_per_param = optimizer_bytes_per_param;
  std::string problem = pipeline_options_problem(options);
  if (!problem.empty()) throw InputError("", problem.find("chunk") != std::string::npos ? "chunks" : "devices", problem);
  return options;
}

// "40GiB", 4e10, or a list of those: the text memory_limits_for reads.
std::string memory_text(py::handle memory) {
  if (py::isinstance<py::str>(memory)) return memory.cast<std::string>();
  if (py::isinstance<py::list>(memory) || py::isinstance<py::tuple>(memory)) {
    std::string text;
    for (py::handle item : memory) text += (text.empty() ? "" : ",") + memory_text(item);
    return text;
  }
  if (py::isinstance<py::int_>(memory) || py::isinstance<py::float_>(memory)) return py::str(memory).cast<std::string>();
  throw InputError("", "memory", "give bytes per rank: a number, a string like '40GiB', or a list of them");
}

Placement partition(const Graph& graph, std::optional<int> stages, std::optional<int> devices,
                    const std::string& mapping, std::optional<int> chunks, bool split_backward,
                    double optimizer_bytes_per_param, std::optional<double> time_limit) {
  std::optional<PipelineOptions> options;
  if (devices) options = pipeline_options(*devices, mapping, chunks, split_backward, optimizer_bytes_per_param);
  else if (mapping != "chain" || chunks || split_backward) throw InputError("", "devices", "the mapping options need devices");
  if (!stages && !options) throw InputError("", "stages", "give stages, or devices (and a mapping)");
  PartitionRequest request;
  request.stages = options ? pipeline_stages(*options) : *stages;
  if (stages && *stages != request.stages)
    throw InputError("", "stages", "devices x chunks makes " + std::to_string(request.stages) + " stages, not " +
                                       std::to_string(*stages));
  if (request.stages < 1 || request.stages > static_cast<int>(graph.nodes.size()))
    throw InputError("", "stages", "must be in [1, " + std::to_string(graph.nodes.size()) + "] for this graph");
  Deadline deadline = time_limit ? Deadline::after_seconds(*time_limit) : Deadline::none();
  py::gil_scoped_release release;
  PartitionAnswer answer = solve_partition(graph, request, "exact", "cadical", deadline);
  if (!answer.partition) throw InputError("", "stages", "no partition found: " + answer.reason);
  if (options) return pipeline_placement(graph, *answer.partition, *options).placement;
  return stage_placement(graph, *answer.partition, {}).placement;
}

PlanAnswer plan(const Graph& graph, int devices, const std::string& mapping, py::handle memory,
                std::optional<int> chunks, bool split_backward, int nmicros, std::optional<double> time_limit,
                double optimizer_bytes_per_param, std::optional<std::string> output) {
  PlanRequest request;
  request.pipeline = pipeline_options(devices, mapping, chunks, split_backward, optimizer_bytes_per_param);
  request.memory = memory_text(memory);
  request.nmicros = nmicros;
  if (time_limit) {
    if (!(*time_limit > 0)) throw InputError("", "time_limit", "must be > 0 seconds (None for no limit)");
    request.deadline = Deadline::after_seconds(*time_limit);
  }
  PlanResult result;
  {
    py::gil_scoped_release release;
    Progress quiet;
    result = plan_pipeline(graph, request, quiet);
    if (result.schedule && output) write_plan_files(graph, request, result, *output);
  }
  PlanAnswer answer;
  answer.status = outcome_name(result.outcome);
  answer.message = result.message;
  answer.mapping = mapping_name(request.pipeline.mapping);
  answer.cut = cut_name(result.cut);
  answer.schedule = result.schedule;
  answer.placement = result.staged.placement;
  answer.makespan = result.makespan;
  answer.makespan_compute = result.makespan_compute;
  answer.bubble_ratio = result.bubble_ratio;
  answer.peak_memory = result.peak_memory;
  answer.static_memory = result.staged.static_bytes;
  answer.report = plan_report(graph, request, result);
  if (result.schedule) {
    answer.csv = write_pytorch_csv_staged(*result.schedule, false);
    answer.comms_csv = write_pytorch_csv_staged(*result.schedule, true);
  }
  return answer;
}

}  // namespace

void bind_plan(py::module_& module) {
  py::class_<PlanAnswer>(module, "Plan", "What tessel.plan found (see docs/python.md).")
      .def_readonly("status", &PlanAnswer::status)
      .def_readonly("message", &PlanAnswer::message)
      .def_readonly("mapping", &PlanAnswer::mapping)
      .def_readonly("cut", &PlanAnswer::cut)
      .def_readonly("schedule", &PlanAnswer::schedule)
      .def_readonly("placement", &PlanAnswer::placement)
      .def_readonly("makespan", &PlanAnswer::makespan)
      .def_readonly("makespan_compute", &PlanAnswer::makespan_compute)
      .def_readonly("bubble_ratio", &PlanAnswer::bubble_ratio)
      .def_readonly("peak_memory", &PlanAnswer::peak_memory)
      .def_readonly("static_memory", &PlanAnswer::static_memory)
      .def_readonly("csv", &PlanAnswer::csv)
      .def_readonly("comms_csv", &PlanAnswer::comms_csv)
      .def_readonly("report", &PlanAnswer::report)
      .def("__repr__", [](const PlanAnswer& p) {
        return "<tessel.Plan " + p.status + ": " + p.mapping + ", makespan " + std::to_string(p.makespan) + " steps>";
      });
  module.def("partition", &partition, py::arg("graph"), py::arg("stages") = std::nullopt, py::kw_only(),
             py::arg("devices") = std::nullopt, py::arg("mapping") = "chain", py::arg("chunks") = std::nullopt,
             py::arg("split_backward") = false, py::arg("optimizer_bytes_per_param") = 8.0,
             py::arg("time_limit") = std::nullopt,
             "Cut a graph into stages and return the placement (`tessel partition --placement-out`).");
  module.def("plan", &plan, py::arg("graph"), py::arg("devices"), py::arg("mapping") = "chain",
             py::arg("memory") = py::none(), py::kw_only(), py::arg("chunks") = std::nullopt,
             py::arg("split_backward") = false, py::arg("nmicros") = 16, py::arg("time_limit") = 60.0,
             py::arg("optimizer_bytes_per_param") = 8.0, py::arg("output") = std::nullopt,
             "From a graph to a verified schedule PyTorch runs (`tessel plan`); output writes the directory.");
}

}  // namespace tessel::python
