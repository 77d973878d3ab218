// tessel.Placement and tessel.Schedule: the model's two value types, with
// the file formats, unroll, the exports and the verifier. A placement built
// block by block is checked as it grows (devices in range, no edge to
// itself, no cycle) and as a whole (the file reader's rules) whenever it is
// used or saved.

#include <algorithm>

#include <pybind11/stl.h>

#include "cases/builtin_cases.hpp"
#include "model/formats/chrome_trace.hpp"
#include "model/graph_json.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/pytorch_sidecar.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/memory_offer_json.hpp"
#include "model/output_file.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "model/time_window.hpp"
#include "model/timeline_text.hpp"
#include "model/unroll.hpp"
#include "python/bindings.hpp"
#include "verify/verify.hpp"

namespace tessel::python {
namespace {

// The block's devices by the file reader's rules: at least one, each in
// [0, ndevs), none twice (a device out of range once corrupted the heap in
// the search).
void check_devices(const Placement& placement, const std::vector<int>& devices, const std::string& at) {
  if (devices.empty()) throw InputError("", at + ".devices", "a block needs at least one device");
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i] < 0 || devices[i] >= placement.ndevs)
      throw InputError("", at + ".devices[" + std::to_string(i) + "]",
                       "device " + std::to_string(devices[i]) + " is outside [0, " + std::to_string(placement.ndevs) + ")");
  std::vector<int> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InputError("", at + ".devices", "a device is listed twice");
}

// "a -> b -> a" for the message of an edge that closes a cycle.
std::string cycle_text(const Placement& placement, const std::vector<int>& cycle) {
  std::string text;
  for (int block : cycle) text += placement.blocks[block].id + " -> ";
  return text + placement.blocks[cycle.front()].id;
}

void write_text_file(const std::string& path, const std::string& text) { write_output_file(path, text); }

Placement empty_placement(int ndevs, const std::string& name) {
  if (ndevs < 1 || ndevs > 100000) throw InputError("", "ndevs", "must be in [1, 100000]");
  Placement placement;
  placement.ndevs = ndevs;
  placement.name = name;
  return placement;
}

void add_block(Placement& placement, const std::string& id, const std::string& kind, py::handle span,
               py::handle memory, const std::vector<int>& devices, std::optional<int> stage) {
  const std::string at = "blocks[" + std::to_string(placement.blocks.size()) + "]";
  if (id.empty()) throw InputError("", at + ".id", "a block id must not be empty");
  if (find_block(placement, id) >= 0) throw InputError("", at + ".id", "duplicate block id '" + id + "'");
  std::optional<BlockKind> parsed = parse_kind(kind);
  if (!parsed) {
    std::string nearest = nearest_name(kind, {"forward", "backward", "backward_input", "backward_weight", "other"});
    throw InputError("", at + ".kind", "'" + kind + "' is not a kind" +
                                           (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)"));
  }
  check_devices(placement, devices, at);
  const Decimal span_value = decimal_of(span, at + ".span");
  const Decimal memory_value = decimal_of(memory, at + ".memory");
  if (span_value.digits <= 0) throw InputError("", at + ".span", "span must be > 0");
  if (!rescale_time(placement, std::max(placement.time_decimals, span_value.decimals)) ||
      !rescale_memory(placement, std::max(placement.memory_decimals, memory_value.decimals)))
    throw InputError("", at, "too many decimals for the magnitudes of this placement");
  Block block;
  block.id = id;
  block.kind = *parsed;
  block.span = decimal_ticks(span_value, placement.time_decimals, JsonPlace{"", at + ".span"});
  block.memory = decimal_ticks(memory_value, placement.memory_decimals, JsonPlace{"", at + ".memory"});
  block.stage = stage;
  block.devices = devices;
  std::sort(block.devices.begin(), block.devices.end());
  placement.blocks.push_back(block);
}

// offer_recompute / offer_offload: the block's "recompute" or "offload" object
// (docs/formats.md, "Memory traded for time") read as the file reader reads
// it, so the same rules hold; call it once the edges are in (`before` must
// depend on the block).
void offer(Placement& placement, const std::string& id, const char* key, const py::dict& fields) {
  const int index = find_block(placement, id);
  if (index < 0) throw InputError("", "blocks", "unknown block '" + id + "'");
  const std::string text = py::module_::import("json").attr("dumps")(fields).cast<std::string>();
  const JsonPlace place{"", "blocks[" + std::to_string(index) + "]"};
  const ReadOffers read = read_offers(nlohmann::json{{key, nlohmann::json::parse(text)}}, place);
  std::vector<Decimal> times, amounts;
  collect_offer_numbers(read, times, amounts);
  int time_decimals = placement.time_decimals, memory_decimals = placement.memory_decimals;
  for (const Decimal& value : times) time_decimals = std::max(time_decimals, value.decimals);
  for (const Decimal& value : amounts) memory_decimals = std::max(memory_decimals, value.decimals);
  if (!rescale_time(placement, time_decimals) || !rescale_memory(placement, memory_decimals))
    throw InputError("", place.path, "too many decimals for the magnitudes of this placement");
  apply_offers(read, index, placement);
}

void add_edge(Placement& placement, const std::string& from, const std::string& to, py::handle delay) {
  const std::string at = "edges[" + std::to_string(placement.edges.size()) + "]";
  const int a = find_block(placement, from), b = find_block(placement, to);
  if (a < 0) throw InputError("", at, "unknown block '" + from + "'");
  if (b < 0) throw InputError("", at, "unknown block '" + to + "'");
  if (a == b) throw InputError("", at, "block '" + from + "' depends on itself");
  const Decimal value = decimal_of(delay, at + ".delay");
  if (value.digits < 0) throw InputError("", at + ".delay", "a delay must be >= 0");
  if (!rescale_time(placement, std::max(placement.time_decimals, value.decimals)))
    throw InputError("", at, "too many decimals for the magnitudes of this placement");
  placement.edges.push_back({a, b, decimal_ticks(value, placement.time_decimals, JsonPlace{"", at + ".delay"})});
  if (std::optional<std::vector<int>> cycle = find_cycle(placement)) {
    const std::string text = cycle_text(placement, *cycle);
    placement.edges.pop_back();
    throw InputError("", at, "dependency cycle: " + text);
  }
}

py::list blocks_of(const Placement& placement) {
  py::list blocks;
  for (const Block& block : placement.blocks) {
    py::dict entry;
    entry["id"] = block.id;
    entry["kind"] = kind_name(block.kind);
    entry["span"] = number_of(block.span, placement.time_decimals);
    entry["memory"] = number_of(block.memory, placement.memory_decimals);
    entry["devices"] = block.devices;
    entry["stage"] = block.stage ? py::object(py::int_(*block.stage)) : py::object(py::none());
    blocks.append(entry);
  }
  return blocks;
}

py::list instances_of(const Schedule& schedule) {
  py::list instances;
  for (const Instance& instance : schedule.instances)
    instances.append(py::make_tuple(schedule.placement.blocks[instance.block].id, instance.micro,
                                    number_of(instance.start, schedule.placement.time_decimals)));
  return instances;
}

void bind_placement(py::module_& module) {
  py::class_<Placement>(module, "Placement", "The blocks of one micro-batch, their devices and dependencies.")
      .def(py::init([](int ndevs, const std::string& name) { return empty_placement(ndevs, name); }),
           py::arg("ndevs"), py::arg("name") = "")
      .def_static("builtin", &make_case, py::arg("name"), py::arg("ndevs"), py::arg("infer") = false,
                  "One of the paper's placements (tessel.cases()).")
      .def_static("load", &read_placement_file, py::arg("path"))
      .def("add_block", &add_block, py::arg("id"), py::arg("kind"), py::arg("span"), py::arg("memory"),
           py::arg("devices"), py::arg("stage") = std::nullopt)
      .def("add_edge", &add_edge, py::arg("a"), py::arg("b"), py::arg("delay") = 0)
      .def("offer_recompute",
           [](Placement& p, const std::string& block, py::handle span, const std::string& before,
              py::handle checkpoint_memory) {
             py::dict fields;
             fields["span"] = span;
             fields["before"] = before;
             if (!checkpoint_memory.is_none()) fields["checkpoint_memory"] = checkpoint_memory;
             offer(p, block, "recompute", fields);
           },
           py::arg("block"), py::arg("span"), py::arg("before"), py::arg("checkpoint_memory") = py::none(),
           "Let a forward block be recomputed for `span` before `before` instead of keeping its activation.")
      .def("offer_offload",
           [](Placement& p, const std::string& block, py::handle out, py::handle in, const std::string& before) {
             py::dict fields;
             fields["out"] = out;
             fields["in"] = in;
             fields["before"] = before;
             offer(p, block, "offload", fields);
           },
           py::arg("block"), py::arg("out"), py::arg("in_"), py::arg("before"),
           "Let a forward block's activation be copied out and back in before `before`.")
      .def("check", [](const Placement& placement) { checked(placement); },
           "Raise InputError when the placement breaks a rule of the file format.")
      .def("save", [](const Placement& placement, const std::string& path) {
             write_json_file(path, placement_to_json(checked(placement)));
           }, py::arg("path"))
      .def("to_json", [](const Placement& placement) { return placement_to_json(placement).dump(); })
      .def_property_readonly("name", [](const Placement& p) { return p.name; })
      .def_property_readonly("ndevs", [](const Placement& p) { return p.ndevs; })
      .def_property_readonly("blocks", &blocks_of)
      .def_property_readonly("edges", [](const Placement& p) {
        py::list edges;
        for (const Edge& edge : p.edges)
          edges.append(py::make_tuple(p.blocks[edge.from].id, p.blocks[edge.to].id, number_of(edge.delay, p.time_decimals)));
        return edges;
      })
      .def_property_readonly("lower_bound", [](const Placement& p) {
        return number_of(period_lower_bound(p), p.time_decimals);
      }, "L: the busiest device's work per micro-batch, the least period of any repetend.")
      .def("__repr__", [](const Placement& p) {
        return "<tessel.Placement " + p.name + ": " + std::to_string(p.ndevs) + " devices, " +
               std::to_string(p.blocks.size()) + " blocks>";
      });
}

// start/end of timeline() and to_svg(): None or a number in the schedule's unit.
TimeWindow window_of(const Schedule& schedule, py::handle start, py::handle end) {
  TimeWindowRequest request;
  if (!start.is_none()) request.start = decimal_of(start, "start");
  if (!end.is_none()) request.end = decimal_of(end, "end");
  return checked_time_window(request, schedule);
}

void write_pytorch_table(const Schedule& schedule, const std::string& path, bool comms) {
  if (comms && !carries_stages(schedule.placement))
    throw InputError("", "placement", "comms=True needs blocks that carry their stage ('stage' in the placement)");
  write_text_file(path, comms ? write_pytorch_csv_staged(schedule, true) : write_pytorch_csv(schedule));
  // A device or pipe gets no sidecar beside it (docs/cli.md, "Output files").
  if (output_is_replaceable(path)) write_json_file(sidecar_path(path), sidecar_json(schedule));
}

void bind_schedule(py::module_& module) {
  py::class_<Schedule>(module, "Schedule", "A start time for every (block, micro-batch) instance.")
      .def_static("load", &read_schedule_file, py::arg("path"))
      .def("save", [](const Schedule& s, const std::string& path) { write_schedule_file(path, s); }, py::arg("path"))
      .def("unroll", &unroll, py::arg("nmicros"), "The repetend repeated to nmicros micro-batches.")
      .def("to_pytorch_csv", &write_pytorch_table, py::arg("path"), py::arg("comms") = false,
           "PyTorch's action table (with comms: the send/recv actions too), and the schedule beside it as "
           "PATH.tessel.json, as `tessel export --to pytorch-csv`.")
      .def("to_svg", [](const Schedule& s, const std::string& path, int width, py::object start, py::object end) {
             if (width < 100 || width > 100000) throw InputError("", "width", "must be in [100, 100000]");
             const TimeWindow window = window_of(s, start, end);
             write_text_file(path, svg_timeline(s, {width, "", window.from, window.to}));
           }, py::arg("path"), py::arg("width") = 1200, py::arg("start") = py::none(), py::arg("end") = py::none(),
           "The timeline picture of `tessel export --to svg`, optionally of [start, end) only.")
      .def("to_chrome_trace", [](const Schedule& s, const std::string& path) {
             write_json_file(path, chrome_trace(s));
           }, py::arg("path"))
      .def("timeline", [](const Schedule& s, int max_steps, py::object start, py::object end) {
             if (max_steps < 0) throw InputError("", "max_steps", "must be >= 0 (0 = all)");
             const TimeWindow window = window_of(s, start, end);
             return render_timeline(s, TimelineOptions{max_steps, window.from, window.to});
           }, py::arg("max_steps") = 200, py::arg("start") = py::none(), py::arg("end") = py::none(),
           "The text timeline of `tessel show`, optionally of [start, end) only.")
      .def("to_json", [](const Schedule& s) { return schedule_to_json(s).dump(); })
      .def_property_readonly("placement", [](const Schedule& s) { return s.placement; })
      .def_property_readonly("nmicros", [](const Schedule& s) { return s.nmicros; })
      .def_property_readonly("makespan", [](const Schedule& s) {
        return number_of(makespan(s), s.placement.time_decimals);
      })
      .def_property_readonly("instances", &instances_of, "(block id, micro-batch, start) per instance.")
      .def_property_readonly("memory_limit", [](const Schedule& s) {
        py::list limits;
        for (Memory limit : s.memory_limit) limits.append(number_of(limit, s.placement.memory_decimals));
        return limits;
      })
      .def_property_readonly("repetend", [](const Schedule& s) -> py::object {
        if (!s.repetend) return py::none();
        py::dict window;
        window["start"] = number_of(s.repetend->start, s.placement.time_decimals);
        window["end"] = number_of(s.repetend->end, s.placement.time_decimals);
        window["period"] = number_of(s.repetend->period, s.placement.time_decimals);
        window["micros_per_period"] = s.repetend->micros_per_period;
        return window;
      })
      .def("__repr__", [](const Schedule& s) {
        return "<tessel.Schedule " + s.placement.name + ": " + std::to_string(s.nmicros) + " micro-batches, makespan " +
               format_ticks(makespan(s), s.placement.time_decimals) + ">";
      });
}

void bind_graph(py::module_& module) {
  py::class_<Graph>(module, "Graph", "An operator graph (tessel.graph/1): the input of partitioning.")
      .def_static("load", &read_graph_file, py::arg("path"))
      .def_static("from_json", [](const std::string& text) {
        return graph_from_json(parse_json_text(text, "<graph>"), JsonPlace{"", ""});
      }, py::arg("text"))
      .def("save", [](const Graph& g, const std::string& path) { write_json_file(path, graph_to_json(g)); },
           py::arg("path"))
      .def("to_json", [](const Graph& g) { return graph_to_json(g).dump(); })
      .def_property_readonly("name", [](const Graph& g) { return g.name; })
      .def_property_readonly("nodes", [](const Graph& g) { return g.nodes.size(); })
      .def_property_readonly("edges", [](const Graph& g) { return g.edges.size(); })
      .def_property_readonly("total_compute", &total_compute)
      .def_property_readonly("total_param_bytes", &total_param_bytes)
      .def("__repr__", [](const Graph& g) {
        return "<tessel.Graph " + g.name + ": " + std::to_string(g.nodes.size()) + " operators>";
      });
}

}  // namespace

Placement checked(const Placement& placement) {
  return placement_from_json(placement_to_json(placement), JsonPlace{"", "placement"});
}

void bind_model(py::module_& module) {
  bind_placement(module);
  bind_schedule(module);
  bind_graph(module);
  module.def("cases", [] {
    py::list names;
    for (const CaseInfo& info : builtin_cases()) names.append(py::make_tuple(info.name, info.description));
    return names;
  }, "The built-in placements: (name, description).");
}

}  // namespace tessel::python
