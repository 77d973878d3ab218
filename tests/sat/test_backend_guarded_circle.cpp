// The guard of add_no_overlap_modulo (one solver holding the circles of
// several periods, incremental across periods): on both backends the circle
// binds exactly when its guard is assumed, and two guarded circles of
// different periods on the same integers answer each for its own period.
#include <catch2/catch.hpp>

#include "sat/backend.hpp"

using namespace tessel;

TEST_CASE("backend: a guarded circle binds only under its guard", "[backend]") {
  for (const char* name : {"cadical", "z3"}) {
    INFO("backend " << name);
    auto backend = make_backend(name);
    IntVar a = backend->new_int(0, 5);
    IntVar b = backend->new_int(0, 5);
    const Lit on4 = backend->new_bool(), on5 = backend->new_bool();
    backend->add_no_overlap_modulo({a, b}, {2, 3}, 4, {on4});  // 5 steps on a circle of 4: impossible
    backend->add_no_overlap_modulo({a, b}, {2, 3}, 5, {on5});  // back to back on a circle of 5
    Deadline none;
    CHECK(backend->solve({on4}, none) == Answer::Unsat);
    REQUIRE(backend->solve({on5}, none) == Answer::Sat);
    const int gap = ((backend->value(b) - backend->value(a)) % 5 + 5) % 5;
    CHECK(gap == 2);  // a covers its phase and the next, b the following three
    // Without either guard, a and b may start at the same step.
    REQUIRE(backend->solve({backend->at_most(a, 0), backend->at_most(b, 0)}, none) == Answer::Sat);
    CHECK(backend->solve({on5, backend->at_most(a, 0), backend->at_most(b, 0)}, none) == Answer::Unsat);
    // The unsatisfiable circle did not poison the solver.
    CHECK(backend->solve({on5}, none) == Answer::Sat);
  }
}
