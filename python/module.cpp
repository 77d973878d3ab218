// `import tessel`: the compiled part (_tessel), registered file by file.
#include "python/bindings.hpp"

PYBIND11_MODULE(_tessel, module) {
  module.doc() = "tessel: find, prove and check pipeline schedules (compiled core; see docs/python.md)";
  tessel::python::bind_errors(module);
  tessel::python::bind_model(module);
  tessel::python::bind_search(module);
  tessel::python::bind_classic(module);
  tessel::python::bind_plan(module);
}
