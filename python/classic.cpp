// tessel.generate and tessel.import_schedule: the hand-made families and
// other tools' files, with costs given as dicts ({"F": 1.5, "B": 3}) read
// by the same rules as the command line's --span / --memory.
#include <pybind11/stl.h>

#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/scheme_limits.hpp"
#include "classic/schemes.hpp"
#include "classic/stage_costs.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/tessel_json.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/memory_limits.hpp"
#include "python/bindings.hpp"

namespace tessel::python {
namespace {

classic::CostValues cost_values(const std::optional<py::dict>& values, const std::vector<std::string>& letters,
                                const std::string& field) {
  classic::CostValues out;
  if (!values) return out;
  for (const auto& [key, value] : *values) {
    const std::string letter = py::str(key).cast<std::string>();
    if (std::find(letters.begin(), letters.end(), letter) == letters.end()) {
      std::string names;
      for (const std::string& name : letters) names += (names.empty() ? "" : ", ") + name;
      throw InputError("", field, "'" + letter + "' is not one of " + names);
    }
    out[letter] = decimal_of(value, field + "." + letter);
  }
  return out;
}

bool pytorch_words(const std::string& scheme) { return scheme == "dualpipe" || scheme == "dualpipev"; }

Schedule generate(const std::string& scheme, int stages, int nmicros, int chunks, const std::optional<py::dict>& span,
                  const std::optional<py::dict>& memory, const std::string& flavour, int group, long long max_pending) {
  classic::SchemeRequest request;
  request.scheme = scheme;
  request.ranks = stages;
  request.nmicros = nmicros;
  request.chunks = chunks;
  if (flavour != "megatron" && flavour != "pytorch")
    throw InputError("", "flavour", "'" + flavour + "' is not megatron or pytorch");
  request.flavour = flavour == "pytorch" ? classic::Flavour::pytorch : classic::Flavour::megatron;
  request.group = group;
  request.max_pending = max_pending;
  classic::check_scheme_sizes(request, {chunks != 0, group != 0, max_pending != 0}, "");
  if (pytorch_words(scheme)) {
    request.split = true;
    request.costs = classic::pytorch_costs(cost_values(span, classic::pytorch_letters(), "span"),
                                           cost_values(memory, {"F", "I", "W"}, "memory"), "span", "memory");
  } else {
    classic::CostValues spans = cost_values(span, classic::scheme_letters(), "span");
    request.split = classic::always_split(scheme) || spans.count("W");
    request.costs = classic::scheme_costs(spans, cost_values(memory, classic::scheme_letters(), "memory"),
                                          request.split, "span", "memory");
  }
  try {
    return classic::generate_scheme(request);
  } catch (const std::invalid_argument& error) {
    throw InputError("", "scheme", error.what());
  }
}

Schedule import_schedule(const std::string& format, const std::string& path, const std::optional<py::dict>& span,
                         const std::optional<py::dict>& memory, const std::string& dialect,
                         std::optional<int> nmicros, std::optional<int> chunks, std::optional<Placement> placement) {
  if (format == "pytorch-csv") {
    if (dialect != "current" && dialect != "legacy") throw InputError("", "dialect", "expected current or legacy");
    PytorchDialect parsed = dialect == "current" ? PytorchDialect::current : PytorchDialect::legacy;
    classic::StageCosts costs = classic::pytorch_costs(cost_values(span, classic::pytorch_letters(), "span"),
                                                       cost_values(memory, {"F", "B", "I", "W"}, "memory"), "span",
                                                       "memory");
    return classic::schedule_from_pytorch_table(read_pytorch_csv_file(path, parsed), parsed, costs, path);
  }
  if (format == "megatron-order") {
    MegatronOrders orders = megatron_order_from_json(read_json_file(path), path);
    classic::MegatronShape shape;
    shape.chunks = chunks.value_or(megatron_chunks(orders));
    classic::CostValues spans = cost_values(span, classic::scheme_letters(), "span");
    const bool split = spans.count("W") || megatron_has_weights(orders);
    classic::StageCosts costs = classic::scheme_costs(spans, cost_values(memory, classic::scheme_letters(), "memory"),
                                                      split, "span", "memory");
    return classic::schedule_from_megatron_order(orders, shape, nmicros.value_or(megatron_micro_count(orders)),
                                                 split, costs, path);
  }
  if (format == "tessel-json") {
    if (!placement) throw InputError("", "placement", "tessel-json needs the placement (its file has no dependencies)");
    return import_tessel_json(read_json_file(path), checked(*placement), path, {});
  }
  throw InputError("", "format", "unknown format '" + format + "' (pytorch-csv, megatron-order, tessel-json)");
}

}  // namespace

void bind_classic(py::module_& module) {
  module.def("schemes", [] { return classic::scheme_names(); }, "The names generate() takes.");
  module.def("generate", &generate, py::arg("scheme"), py::arg("stages"), py::arg("nmicros"), py::arg("chunks") = 0,
             py::arg("span") = std::nullopt, py::arg("memory") = std::nullopt, py::arg("flavour") = "megatron",
             py::arg("group") = 0, py::arg("max_pending") = 0,
             "A hand-made schedule (`tessel generate`): span/memory as {'F': 1, 'B': 2, 'W': 1}.");
  module.def("import_schedule", &import_schedule, py::arg("format"), py::arg("path"), py::arg("span") = std::nullopt,
             py::arg("memory") = std::nullopt, py::arg("dialect") = "current", py::arg("nmicros") = std::nullopt,
             py::arg("chunks") = std::nullopt, py::arg("placement") = std::nullopt,
             "Another tool's schedule (`tessel import`): pytorch-csv, megatron-order, tessel-json.");
  py::register_exception<classic::DeadlockError>(module, "DeadlockError", PyExc_ValueError);
}

}  // namespace tessel::python
