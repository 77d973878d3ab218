// What the Python module's files share (docs/python.md): numbers between
// Python and exact ticks, and the registration functions of each file.
// The module is a thin layer: every capability it offers is a library call
// (solve, verify::check_schedule, classic::generate_scheme, ...), so Python
// and the command line cannot disagree.
#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "model/placement.hpp"
#include "model/quantity.hpp"

namespace tessel::python {

namespace py = pybind11;

// A Python int or float read exactly as written (3.712 stays 3.712);
// InputError naming `field` for anything else.
Decimal decimal_of(py::handle value, const std::string& field);

// Ticks back to the user's unit: an int at 0 decimals, else a float.
py::object number_of(long long ticks, int decimals);

// A memory limit: a number, a string with byte units ("40GiB"), or a list
// with one of those per device; the placement's memory scale is raised when
// a limit has more decimals.
std::vector<Memory> memory_limits_of(Placement& placement, py::handle memory);

// The file reader's rules applied to a placement made in memory (InputError
// naming the field); every function that takes a placement calls it first.
Placement checked(const Placement& placement);

void bind_errors(py::module_& module);
void bind_model(py::module_& module);
void bind_search(py::module_& module);
void bind_classic(py::module_& module);
void bind_plan(py::module_& module);

}  // namespace tessel::python
