// Bad input becomes tessel.InputError (a ValueError) carrying the same file,
// field and reason the command line prints; the verifier's format errors
// too. Numbers from Python are read exactly here.
#include <pybind11/stl.h>

#include "model/input_error.hpp"
#include "python/bindings.hpp"
#include "model/memory_limits.hpp"
#include "verify/verify.hpp"

namespace tessel::python {

Decimal decimal_of(py::handle value, const std::string& field) {
  if (py::isinstance<py::bool_>(value)) throw InputError("", field, "expected a number, got a bool");
  if (py::isinstance<py::int_>(value)) {
    long long number = 0;
    try {
      number = value.cast<long long>();
    } catch (const py::cast_error&) {
      throw InputError("", field, "number " + py::str(value).cast<std::string>() + " is too large");
    }
    if (number > kMaxTicks || number < -kMaxTicks)
      throw InputError("", field, "number " + std::to_string(number) + " is too large");
    return {number, 0};
  }
  if (py::isinstance<py::float_>(value)) {
    std::optional<Decimal> decimal = exact_decimal(value.cast<double>());
    if (!decimal) throw InputError("", field, "number " + py::str(value).cast<std::string>() + " is out of range");
    return *decimal;
  }
  throw InputError("", field, "expected a number, got " + py::str(value).cast<std::string>());
}

py::object number_of(long long ticks, int decimals) {
  if (decimals == 0) return py::int_(ticks);
  return py::float_(ticks_to_double(ticks, decimals));
}

std::vector<Memory> memory_limits_of(Placement& placement, py::handle memory) {
  // One text for the command line's reader: "6", "1.5", "40GiB" or a list.
  auto text_of = [](py::handle item) -> std::string {
    if (py::isinstance<py::str>(item)) return item.cast<std::string>();
    Decimal value = decimal_of(item, "memory");
    return format_ticks(value.digits, value.decimals);
  };
  std::string text;
  if (py::isinstance<py::list>(memory) || py::isinstance<py::tuple>(memory)) {
    for (py::handle item : memory) text += (text.empty() ? "" : ",") + text_of(item);
  } else {
    text = text_of(memory);
  }
  return memory_limits_for(placement, text, "memory");
}

void bind_errors(py::module_& module) {
  static py::exception<InputError> input_error(module, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr thrown) {
    auto raise = [](const std::string& message, const std::string& file, const std::string& field,
                     const std::string& reason) {
      py::object error = py::reinterpret_borrow<py::object>(input_error.ptr())(message);
      error.attr("file") = file;
      error.attr("field") = field;
      error.attr("reason") = reason;
      PyErr_SetObject(input_error.ptr(), error.ptr());
    };
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const InputError& error) {
      raise(error.what(), error.file, error.field, error.reason);
    } catch (const verify::FormatError& error) {
      raise("field '" + error.field + "': " + error.reason, "", error.field, error.reason);
    }
  });
}

}  // namespace tessel::python
