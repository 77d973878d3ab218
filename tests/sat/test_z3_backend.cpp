// The backend facade's verbs (sat/backend.hpp), checked on tiny problems
// whose answers are known by hand. Every backend that can be constructed is
// run through the same checks, so that Z3 and CaDiCaL agree by construction.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>

#include "sat/backend.hpp"

using namespace tessel;

namespace {

// The backends available in this build (a placeholder backend throws).
std::vector<std::string> working_backends() {
  std::vector<std::string> names;
  for (const std::string& name : backend_names()) {
    try {
      make_backend(name);
      names.push_back(name);
    } catch (const std::logic_error&) {
    }
  }
  return names;
}

Answer solve(Backend& backend, std::vector<Lit> assumptions = {}) { return backend.solve(assumptions, Deadline{}); }

}  // namespace

TEST_CASE("z3 is among the working backends", "[backend]") {
  std::vector<std::string> names = working_backends();
  CHECK(std::find(names.begin(), names.end(), "z3") != names.end());
  CHECK_THROWS_AS(make_backend("minisat"), std::invalid_argument);
}

TEST_CASE("backend: domains, order literals and clauses", "[backend]") {
  for (const std::string& name : working_backends()) {
    INFO("backend " << name);
    auto backend = make_backend(name);
    IntVar x = backend->new_int(2, 5);
    CHECK(backend->at_most(x, 5) == backend->true_lit());
    CHECK(backend->at_most(x, 1) == ~backend->true_lit());
    Lit low = backend->at_most(x, 3);
    REQUIRE(solve(*backend, {low}) == Answer::Sat);
    CHECK(backend->value(x) >= 2);
    CHECK(backend->value(x) <= 3);
    CHECK(backend->value(low));
    REQUIRE(solve(*backend, {~low}) == Answer::Sat);
    CHECK(backend->value(x) >= 4);
    Lit a = backend->new_bool();
    backend->add_clause({a, low});
    backend->add_clause({~a});
    REQUIRE(solve(*backend) == Answer::Sat);
    CHECK(backend->value(x) <= 3);
    CHECK(solve(*backend, {~low}) == Answer::Unsat);
    // The solver is still usable after an unsat answer under assumptions.
    CHECK(solve(*backend) == Answer::Sat);
  }
}

TEST_CASE("backend: guarded differences and linear bounds", "[backend]") {
  for (const std::string& name : working_backends()) {
    INFO("backend " << name);
    auto backend = make_backend(name);
    IntVar x = backend->new_int(0, 10);
    IntVar y = backend->new_int(0, 10);
    Lit guard = backend->new_bool();
    backend->add_difference(y, x, 4, {guard});  // guard -> y - x >= 4
    REQUIRE(solve(*backend, {guard, backend->at_most(y, 3)}) == Answer::Unsat);
    REQUIRE(solve(*backend, {guard, backend->at_most(y, 5)}) == Answer::Sat);
    CHECK(backend->value(y) - backend->value(x) >= 4);
    REQUIRE(solve(*backend, {~guard, backend->at_most(y, 0)}) == Answer::Sat);

    // 3 [x <= 2] + 2 [y <= 2] - x <= 1, forced with x <= 2 and y <= 2: 5 - x <= 1 needs x >= 4.
    LinearSum sum;
    sum.bools = {{3, backend->at_most(x, 2)}, {2, backend->at_most(y, 2)}};
    sum.ints = {{-1, x}};
    backend->add_linear_at_most(sum, 1);
    CHECK(solve(*backend, {backend->at_most(x, 2), backend->at_most(y, 2)}) == Answer::Unsat);
    REQUIRE(solve(*backend, {backend->at_most(y, 2)}) == Answer::Sat);
    CHECK(backend->value(x) >= 3);
    // Negative coefficients: -2 [x <= 5] <= -2 forces x <= 5.
    LinearSum negative;
    negative.bools = {{-2, backend->at_most(x, 5)}};
    backend->add_linear_at_most(negative, -2);
    REQUIRE(solve(*backend) == Answer::Sat);
    CHECK(backend->value(x) <= 5);
  }
}

TEST_CASE("backend: intervals on a line and on a circle", "[backend]") {
  for (const std::string& name : working_backends()) {
    INFO("backend " << name);
    {
      auto backend = make_backend(name);
      std::vector<IntVar> starts{backend->new_int(0, 3), backend->new_int(0, 3), backend->new_int(0, 3)};
      backend->add_no_overlap(starts, {2, 1, 2});
      REQUIRE(solve(*backend) == Answer::Sat);  // 5 steps of work in [0, 5)
      std::vector<int> at{backend->value(starts[0]), backend->value(starts[1]), backend->value(starts[2])};
      std::vector<int> spans{2, 1, 2};
      for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j) CHECK((at[i] + spans[i] <= at[j] || at[j] + spans[j] <= at[i]));
      // Everything ending by step 4 is too little room.
      std::vector<Lit> early;
      for (int i = 0; i < 3; ++i) early.push_back(backend->at_most(starts[i], 4 - spans[i]));
      CHECK(solve(*backend, early) == Answer::Unsat);
    }
    {
      // Circle of 5: spans 3 and 2 fit only back to back, possibly wrapping.
      auto backend = make_backend(name);
      IntVar a = backend->new_int(0, 14);
      IntVar b = backend->new_int(0, 14);
      backend->add_no_overlap_modulo({a, b}, {3, 2}, 5);
      // a at phase 4 covers phases 4, 0, 1: b must sit at phase 2.
      Lit a_at_9 = backend->at_most(a, 9);
      Lit a_from_9 = ~backend->at_most(a, 8);
      REQUIRE(solve(*backend, {a_at_9, a_from_9}) == Answer::Sat);
      CHECK(backend->value(b) % 5 == 2);
      // b at phase 3 covers 3 and 4: a fits only at phase 0.
      REQUIRE(solve(*backend, {backend->at_most(b, 3), ~backend->at_most(b, 2)}) == Answer::Sat);
      CHECK(backend->value(a) % 5 == 0);
      // b at phase 3 and a at phase 1 collide (a covers 1, 2, 3).
      CHECK(solve(*backend, {backend->at_most(b, 3), ~backend->at_most(b, 2), backend->at_most(a, 1),
                             ~backend->at_most(a, 0)}) == Answer::Unsat);
    }
    {
      auto backend = make_backend(name);
      IntVar a = backend->new_int(0, 9);
      IntVar b = backend->new_int(0, 9);
      backend->add_no_overlap_modulo({a, b}, {3, 3}, 5);  // 6 steps on a circle of 5
      CHECK(solve(*backend) == Answer::Unsat);
    }
  }
}

TEST_CASE("backend: an expired deadline answers unknown", "[backend]") {
  for (const std::string& name : working_backends()) {
    INFO("backend " << name);
    auto backend = make_backend(name);
    backend->new_int(0, 3);
    Deadline past{Deadline::Clock::now() - std::chrono::seconds(1)};
    CHECK(backend->solve({}, past) == Answer::Unknown);
  }
}
