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
#include "model/json_file.hpp"
#include "plan/plan.hpp"
#include "python/bindings.hpp"
#include "tools/search_note_text.hpp"

namespace tessel::python {
namespace {

// What tessel.plan returns.
struct PyPlan {
  std::string status;   // found | infeasible | timeout | interrupted
  std::string message;
  std::string mapping;
  bool split_backward = false;
  int chunks = 1;
  std::string cut;
  std::string choice;   // what was asked, what is written and why
  std::optional<Schedule> schedule;
  Placement placement;
  std::string unit;                 // "s" or "GFLOP": the unit of makespan and of the schedule's times
  std::optional<double> makespan;
  std::optional<double> makespan_ms; // with a device speed (or a measured graph)
  std::optional<double> lower_bound;
  std::optional<double> one_f_one_b; // the 1F1B chain at the same memory, same unit
  std::optional<double> ratio_to_1f1b;
  double bubble_ratio = 0;
  std::vector<long long> peak_memory;   // bytes per rank
  std::vector<long long> static_memory; // bytes per rank
  std::string csv, comms_csv, report;
  py::object memory_choices = py::none();  // tessel.memory_choices/1 (None without a schedule)
  py::object stages;    // the tessel.stages/1 document as Python objects
  py::object summary;   // the `plan --json` object
};

PipelineOptions pipeline_options(int devices, const std::string& mapping, std::optional<int> chunks,
                                 bool split_backward, double optimizer_bytes_per_param, int param_bytes) {
  PipelineOptions options;
  options.devices = devices;
  std::optional<StageMapping> parsed = parse_mapping(mapping);
  if (!parsed && mapping != "auto")
    throw InputError("", "mapping", "choose chain, interleaved, v or auto, not '" + mapping + "'");
  if (!parsed) parsed = StageMapping::Chain;
  options.mapping = *parsed;
  options.chunks = chunks.value_or(options.mapping == StageMapping::Chain ? 1 : 2);
  options.split_backward = split_backward;
  options.optimizer_bytes_per_param = optimizer_bytes_per_param;
  options.bytes_per_param = param_bytes;
  std::string problem = pipeline_options_problem(options);
  if (!problem.empty())
    throw InputError("", problem.find("chunk") != std::string::npos                 ? "chunks"
                         : problem.find("bytes per parameter") != std::string::npos ? "param_bytes"
                                                                                     : "devices",
                     problem);
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
                    double optimizer_bytes_per_param, int param_bytes, std::optional<double> time_limit) {
  std::optional<PipelineOptions> options;
  if (devices) options = pipeline_options(*devices, mapping, chunks, split_backward, optimizer_bytes_per_param, param_bytes);
  else if (mapping != "chain" || chunks || split_backward || param_bytes != 4) throw InputError("", "devices", "the mapping options need devices");
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

py::object from_json(const nlohmann::json& document) {
  return py::module_::import("json").attr("loads")(document.dump());
}

// recompute="none" | "auto" | "all" (`tessel plan --recompute`).
RecomputeMode recompute_mode(const std::string& text) {
  std::optional<RecomputeMode> mode = parse_recompute_mode(text);
  if (mode) return *mode;
  std::string near = nearest_name(text, {"none", "auto", "all"});
  throw InputError("", "recompute", "choose none, auto or all, not '" + text + "'" +
                                        (near.empty() ? "" : " (did you mean " + near + "?)"));
}

PyPlan plan(const Graph& graph, int devices, const std::string& mapping, py::handle memory,
            std::optional<int> chunks, bool split_backward, int nmicros, std::optional<double> time_limit,
            double optimizer_bytes_per_param, int param_bytes, std::optional<std::string> output,
            double device_flops, double link_bandwidth, double link_latency, py::object progress,
            const std::string& recompute, double host_bandwidth) {
  PlanRequest request;
  request.search_words = search_message_text;
  request.auto_mapping = mapping == "auto";
  if (request.auto_mapping && (chunks || split_backward))
    throw InputError("", "mapping", "auto chooses the chunks and the split backward itself");
  request.pipeline = pipeline_options(devices, mapping, chunks, split_backward, optimizer_bytes_per_param, param_bytes);
  request.memory = memory_text(memory);
  request.nmicros = nmicros;
  request.device_flops = device_flops;
  request.link_bandwidth = link_bandwidth;
  request.link_latency = link_latency;
  request.pipeline.recompute = recompute_mode(recompute);
  request.host_bandwidth = host_bandwidth;  // > 0: --offload auto (plan_pipeline checks it)
  if (time_limit) {
    if (!(*time_limit > 0)) throw InputError("", "time_limit", "must be > 0 seconds (None for no limit)");
    request.deadline = Deadline::after_seconds(*time_limit);
  }
  PlanProgressLine phase;
  if (!progress.is_none())
    phase = [&progress](const std::string& line) {
      py::gil_scoped_acquire hold;
      try {
        progress(line);
      } catch (py::error_already_set& error) {
        error.discard_as_unraisable("tessel.plan progress callback");
      }
    };
  PlanAnswer answer;
  {
    py::gil_scoped_release release;
    answer = plan_pipeline(graph, request, phase);
    if (answer.chosen.schedule && output) {
      write_plan_files(graph, request, answer, *output);
      if (phase) phase("files: " + *output + " written");
    }
  }
  const PlanResult& result = answer.chosen;
  PyPlan planned;
  planned.status = outcome_name(answer.outcome);
  planned.message = answer.message.empty() ? result.message : answer.message;
  planned.mapping = mapping_name(result.pipeline.mapping);
  planned.split_backward = result.pipeline.split_backward;
  planned.chunks = result.pipeline.chunks;
  planned.cut = cut_name(result.cut);
  planned.choice = answer.choice;
  planned.schedule = result.schedule;
  planned.placement = result.timed.placement;
  planned.unit = unit_name(answer.clock.unit);
  if (result.schedule) {
    planned.makespan = result.makespan;
    if (answer.clock.unit == PlanUnit::Seconds) planned.makespan_ms = result.makespan * 1000;
    if (result.lower_bound > 0) planned.lower_bound = result.lower_bound;
    if (answer.one_f_one_b) planned.ratio_to_1f1b = result.makespan / *answer.one_f_one_b;
  }
  planned.one_f_one_b = answer.one_f_one_b;
  planned.bubble_ratio = result.bubble_ratio;
  planned.peak_memory = result.peak_memory;
  planned.static_memory = result.staged.static_bytes;
  planned.report = plan_report(graph, request, answer);
  planned.stages = from_json(stages_to_json(graph, result.pipeline, result.stages));
  planned.summary = from_json(plan_json(request, answer, output.value_or("")));
  if (result.schedule) {
    planned.csv = plan_table(result, false);
    planned.comms_csv = plan_table(result, true);
    planned.memory_choices = from_json(plan_memory_choices(result));
    planned.stages = from_json(plan_stages_json(graph, result));
  }
  return planned;
}

}  // namespace

void bind_plan(py::module_& module) {
  py::class_<PyPlan>(module, "Plan", "What tessel.plan found (see docs/python.md).")
      .def_readonly("status", &PyPlan::status)
      .def_readonly("message", &PyPlan::message)
      .def_readonly("mapping", &PyPlan::mapping)
      .def_readonly("split_backward", &PyPlan::split_backward)
      .def_readonly("chunks", &PyPlan::chunks)
      .def_readonly("cut", &PyPlan::cut)
      .def_readonly("choice", &PyPlan::choice)
      .def_readonly("schedule", &PyPlan::schedule)
      .def_readonly("placement", &PyPlan::placement)
      .def_readonly("unit", &PyPlan::unit)
      .def_readonly("makespan", &PyPlan::makespan)
      .def_readonly("makespan_ms", &PyPlan::makespan_ms)
      .def_readonly("lower_bound", &PyPlan::lower_bound)
      .def_readonly("one_f_one_b", &PyPlan::one_f_one_b)
      .def_readonly("ratio_to_1f1b", &PyPlan::ratio_to_1f1b)
      .def_readonly("bubble_ratio", &PyPlan::bubble_ratio)
      .def_readonly("peak_memory", &PyPlan::peak_memory)
      .def_readonly("static_memory", &PyPlan::static_memory)
      .def_readonly("csv", &PyPlan::csv)
      .def_readonly("comms_csv", &PyPlan::comms_csv)
      .def_readonly("report", &PyPlan::report)
      .def_readonly("stages", &PyPlan::stages)
      .def_readonly("memory_choices", &PyPlan::memory_choices)
      .def_readonly("summary", &PyPlan::summary)
      .def("__repr__", [](const PyPlan& p) {
        std::string makespan = p.makespan ? std::to_string(p.makespan_ms ? *p.makespan_ms : *p.makespan) : "none";
        return "<tessel.Plan " + p.status + ": " + p.mapping + (p.split_backward ? ", split" : "") + ", makespan " +
               makespan + " " + (p.makespan_ms ? "ms" : p.unit) + ">";
      });
  module.def("partition", &partition, py::arg("graph"), py::arg("stages") = std::nullopt, py::kw_only(),
             py::arg("devices") = std::nullopt, py::arg("mapping") = "chain", py::arg("chunks") = std::nullopt,
             py::arg("split_backward") = false, py::arg("optimizer_bytes_per_param") = 8.0,
             py::arg("param_bytes") = 4, py::arg("time_limit") = std::nullopt,
             "Cut a graph into stages and return the placement (`tessel partition --placement-out`).");
  module.def("plan", &plan, py::arg("graph"), py::arg("devices"), py::arg("mapping") = "chain",
             py::arg("memory") = py::none(), py::kw_only(), py::arg("chunks") = std::nullopt,
             py::arg("split_backward") = false, py::arg("nmicros") = 16, py::arg("time_limit") = 60.0,
             py::arg("optimizer_bytes_per_param") = 8.0, py::arg("param_bytes") = 4, py::arg("output") = std::nullopt,
             py::arg("device_flops") = 0.0, py::arg("link_bandwidth") = 0.0, py::arg("link_latency") = 0.0,
             py::arg("progress") = py::none(), py::arg("recompute") = "none", py::arg("host_bandwidth") = 0.0,
             "From a graph to a verified schedule PyTorch runs (`tessel plan`); output writes the directory, "
             "progress(line) is called once per phase.");
}

}  // namespace tessel::python
