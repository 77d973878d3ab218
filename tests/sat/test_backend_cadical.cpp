// The solver backends against brute force: small random problems over a few
// integers and Booleans using every verb of the facade, decided both by the
// backend and by enumerating every assignment here. Satisfiable or not must
// match, every model must satisfy every constraint when checked directly, and
// every single assignment, imposed through assumptions on the SAME instance,
// must be accepted exactly when it satisfies the constraints (which also
// exercises incrementality). Runs on every backend that is implemented.
#include <catch2/catch.hpp>

#include <ctime>

#include <chrono>
#include <random>
#include <set>
#include <stdexcept>

#include "sat/backend.hpp"

using namespace tessel;

namespace {

// A Boolean atom: bool number `index`, or [int index <= value]; maybe negated.
struct Atom {
  bool is_int = false;
  int index = 0;
  int value = 0;
  bool negated = false;
};

struct Constraint {
  enum Kind { Clause, Difference, Linear, NoOverlap, NoOverlapModulo } kind = Clause;
  std::vector<Atom> atoms;                         // Clause: the literals; others: the guard
  int x = 0, y = 0, c = 0;                         // Difference
  std::vector<std::pair<long long, Atom>> bools;   // Linear
  std::vector<std::pair<long long, int>> ints;     // Linear
  long long bound = 0;                             // Linear
  std::vector<int> starts, spans;                  // NoOverlap(Modulo)
  int period = 0;                                  // NoOverlapModulo
};

struct Problem {
  std::vector<std::pair<int, int>> domains;
  int nbools = 0;
  std::vector<Constraint> constraints;
};

struct Assignment {
  std::vector<int> ints;
  std::vector<bool> bools;
};

bool holds(const Atom& atom, const Assignment& a) {
  bool value = atom.is_int ? a.ints[atom.index] <= atom.value : bool(a.bools[atom.index]);
  return value != atom.negated;
}

bool guard_holds(const std::vector<Atom>& guard, const Assignment& a) {
  for (const Atom& g : guard)
    if (!holds(g, a)) return false;
  return true;
}

long long positive_mod(long long a, long long p) { return ((a % p) + p) % p; }

bool satisfies(const Constraint& c, const Assignment& a) {
  switch (c.kind) {
    case Constraint::Clause:
      for (const Atom& atom : c.atoms)
        if (holds(atom, a)) return true;
      return false;
    case Constraint::Difference:
      return !guard_holds(c.atoms, a) || a.ints[c.x] - a.ints[c.y] >= c.c;
    case Constraint::Linear: {
      if (!guard_holds(c.atoms, a)) return true;
      long long sum = 0;
      for (const auto& [k, atom] : c.bools) sum += k * holds(atom, a);
      for (const auto& [k, i] : c.ints) sum += k * a.ints[i];
      return sum <= c.bound;
    }
    case Constraint::NoOverlap:
      for (size_t i = 0; i < c.starts.size(); ++i)
        for (size_t j = i + 1; j < c.starts.size(); ++j) {
          int si = a.ints[c.starts[i]], sj = a.ints[c.starts[j]];
          if (si < sj + c.spans[j] && sj < si + c.spans[i]) return false;
        }
      return true;
    case Constraint::NoOverlapModulo: {
      std::vector<int> owner(c.period, -1);
      for (size_t i = 0; i < c.starts.size(); ++i)
        for (int d = 0; d < c.spans[i]; ++d) {
          int phase = positive_mod(a.ints[c.starts[i]] + d, c.period);
          if (owner[phase] != -1) return false;
          owner[phase] = i;
        }
      return true;
    }
  }
  return false;
}

bool satisfies(const Problem& p, const Assignment& a) {
  for (const Constraint& c : p.constraints)
    if (!satisfies(c, a)) return false;
  return true;
}

std::vector<Assignment> all_assignments(const Problem& p) {
  std::vector<Assignment> result{Assignment{}};
  for (auto [lo, hi] : p.domains) {
    std::vector<Assignment> next;
    for (const Assignment& a : result)
      for (int v = lo; v <= hi; ++v) {
        next.push_back(a);
        next.back().ints.push_back(v);
      }
    result = next;
  }
  for (int b = 0; b < p.nbools; ++b) {
    std::vector<Assignment> next;
    for (const Assignment& a : result)
      for (bool v : {false, true}) {
        next.push_back(a);
        next.back().bools.push_back(v);
      }
    result = next;
  }
  return result;
}

Problem random_problem(std::mt19937& random) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  Problem p;
  int nints = pick(2, 3);
  for (int i = 0; i < nints; ++i) {
    int lo = pick(-2, 2);
    p.domains.push_back({lo, lo + pick(0, 3)});
  }
  p.nbools = pick(0, 2);
  auto atom = [&]() {
    Atom a;
    a.is_int = p.nbools == 0 || pick(0, 1) == 1;
    a.index = a.is_int ? pick(0, nints - 1) : pick(0, p.nbools - 1);
    a.value = pick(-4, 6);  // also outside the domain: constant literals
    a.negated = pick(0, 1) == 1;
    return a;
  };
  auto guard = [&]() {
    std::vector<Atom> g;
    for (int n = pick(0, 2); n > 0; --n) g.push_back(atom());
    return g;
  };
  int nconstraints = pick(1, 4);
  for (int n = 0; n < nconstraints; ++n) {
    Constraint c;
    c.kind = Constraint::Kind(pick(0, 4));
    switch (c.kind) {
      case Constraint::Clause:
        for (int k = pick(1, 3); k > 0; --k) c.atoms.push_back(atom());
        break;
      case Constraint::Difference:
        c.atoms = guard();
        c.x = pick(0, nints - 1);
        c.y = pick(0, nints - 1);
        c.c = pick(-3, 4);
        break;
      case Constraint::Linear: {
        c.atoms = guard();
        // Mostly small weights; sometimes large ones (bytes), equal ones, negative ones.
        bool large = pick(0, 4) == 0;
        auto weight = [&]() -> long long {
          long long w = pick(-3, 3);
          return large ? w * 1000000007LL + pick(-5, 5) : w;
        };
        for (int k = pick(0, 3); k > 0; --k) c.bools.push_back({weight(), atom()});
        for (int k = pick(0, 2); k > 0; --k) c.ints.push_back({weight(), pick(0, nints - 1)});
        c.bound = pick(-4, 6) * (large ? 1000000007LL : 1);
        break;
      }
      case Constraint::NoOverlap:
      case Constraint::NoOverlapModulo:
        c.period = pick(2, 5);
        for (int i = 0; i < nints; ++i)
          if (pick(0, 3) > 0) {
            c.starts.push_back(i);
            c.spans.push_back(pick(1, c.kind == Constraint::NoOverlap ? 3 : c.period));
          }
        break;
    }
    p.constraints.push_back(c);
  }
  return p;
}

struct Encoded {
  std::unique_ptr<Backend> backend;
  std::vector<IntVar> ints;
  std::vector<Lit> bools;
};

Lit lit_of(Encoded& e, const Atom& atom) {
  Lit l = atom.is_int ? e.backend->at_most(e.ints[atom.index], atom.value) : e.bools[atom.index];
  return atom.negated ? ~l : l;
}

std::vector<Lit> lits_of(Encoded& e, const std::vector<Atom>& atoms) {
  std::vector<Lit> lits;
  for (const Atom& a : atoms) lits.push_back(lit_of(e, a));
  return lits;
}

Encoded encode(const std::string& backend, const Problem& p) {
  Encoded e{make_backend(backend), {}, {}};
  for (auto [lo, hi] : p.domains) e.ints.push_back(e.backend->new_int(lo, hi));
  for (int b = 0; b < p.nbools; ++b) e.bools.push_back(e.backend->new_bool());
  for (const Constraint& c : p.constraints) {
    switch (c.kind) {
      case Constraint::Clause:
        e.backend->add_clause(lits_of(e, c.atoms));
        break;
      case Constraint::Difference:
        e.backend->add_difference(e.ints[c.x], e.ints[c.y], c.c, lits_of(e, c.atoms));
        break;
      case Constraint::Linear: {
        LinearSum sum;
        for (const auto& [k, atom] : c.bools) sum.bools.push_back({k, lit_of(e, atom)});
        for (const auto& [k, i] : c.ints) sum.ints.push_back({k, e.ints[i]});
        e.backend->add_linear_at_most(sum, c.bound, lits_of(e, c.atoms));
        break;
      }
      case Constraint::NoOverlap:
      case Constraint::NoOverlapModulo: {
        std::vector<IntVar> starts;
        for (int i : c.starts) starts.push_back(e.ints[i]);
        if (c.kind == Constraint::NoOverlap) e.backend->add_no_overlap(starts, c.spans);
        else e.backend->add_no_overlap_modulo(starts, c.spans, c.period);
        break;
      }
    }
  }
  return e;
}

// The assumptions that pin every variable to the assignment.
std::vector<Lit> pin(Encoded& e, const Problem& p, const Assignment& a) {
  std::vector<Lit> lits;
  for (size_t i = 0; i < p.domains.size(); ++i) {
    lits.push_back(e.backend->at_most(e.ints[i], a.ints[i]));
    lits.push_back(~e.backend->at_most(e.ints[i], a.ints[i] - 1));
  }
  for (int b = 0; b < p.nbools; ++b) lits.push_back(a.bools[b] ? e.bools[b] : ~e.bools[b]);
  return lits;
}

bool implemented(const std::string& backend) {
  try {
    make_backend(backend);
    return true;
  } catch (const std::logic_error&) {
    return false;
  }
}

}  // namespace

TEST_CASE("backends agree with brute force on small random problems", "[backend]") {
  for (const std::string& name : backend_names()) {
    if (!implemented(name)) {
      WARN("backend " << name << " not implemented: skipped");
      continue;
    }
    std::mt19937 random(20241122);
    int satisfiable = 0, unsatisfiable = 0;
    const int rounds = name == "cadical" ? 300 : 25;
    for (int round = 0; round < rounds; ++round) {
      Problem p = random_problem(random);
      std::vector<Assignment> assignments = all_assignments(p);
      bool expected = false;
      for (const Assignment& a : assignments) expected = expected || satisfies(p, a);
      Encoded e = encode(name, p);
      Answer answer = e.backend->solve({}, Deadline{});
      INFO("backend " << name << " round " << round);
      REQUIRE(answer != Answer::Unknown);
      REQUIRE((answer == Answer::Sat) == expected);
      if (answer == Answer::Sat) {
        ++satisfiable;
        Assignment model;
        for (IntVar x : e.ints) model.ints.push_back(e.backend->value(x));
        for (Lit b : e.bools) model.bools.push_back(e.backend->value(b));
        for (size_t i = 0; i < p.domains.size(); ++i) {
          REQUIRE(model.ints[i] >= p.domains[i].first);
          REQUIRE(model.ints[i] <= p.domains[i].second);
          // at_most agrees with the integer's value.
          REQUIRE(e.backend->value(e.backend->at_most(e.ints[i], model.ints[i])));
          REQUIRE(!e.backend->value(e.backend->at_most(e.ints[i], model.ints[i] - 1)));
        }
        REQUIRE(satisfies(p, model));
      } else {
        ++unsatisfiable;
      }
      // Every assignment (a sample of them on large problems) under
      // assumptions, one after another on the same instance.
      std::shuffle(assignments.begin(), assignments.end(), random);
      if (assignments.size() > 24) assignments.resize(24);
      for (const Assignment& a : assignments) {
        Answer pinned = e.backend->solve(pin(e, p, a), Deadline{});
        REQUIRE(pinned != Answer::Unknown);
        REQUIRE((pinned == Answer::Sat) == satisfies(p, a));
      }
    }
    // The generator must produce both answers, or the test proves little.
    CHECK(satisfiable > rounds / 10);
    CHECK(unsatisfiable > rounds / 10);
  }
}

TEST_CASE("assumptions: unsat under one, sat without, repeatedly on one instance", "[backend]") {
  for (const std::string& name : backend_names()) {
    if (!implemented(name)) continue;
    auto backend = make_backend(name);
    IntVar x = backend->new_int(0, 10);
    IntVar y = backend->new_int(0, 10);
    Lit strict = backend->new_bool();
    backend->add_difference(x, y, 3);         // x >= y + 3
    backend->add_difference(y, x, -5, {strict});  // strict -> y >= x - 5
    for (int repeat = 0; repeat < 3; ++repeat) {
      CHECK(backend->solve({backend->at_most(x, 2)}, Deadline{}) == Answer::Unsat);
      REQUIRE(backend->solve({}, Deadline{}) == Answer::Sat);
      CHECK(backend->value(x) - backend->value(y) >= 3);
      REQUIRE(backend->solve({strict, ~backend->at_most(x, 9), backend->at_most(y, 3)}, Deadline{}) == Answer::Unsat);
      REQUIRE(backend->solve({strict, ~backend->at_most(x, 9)}, Deadline{}) == Answer::Sat);
      CHECK(backend->value(x) == 10);
      CHECK(backend->value(y) >= 5);
      CHECK(backend->value(y) <= 7);
    }
  }
}

TEST_CASE("the deadline stops a hard solve inside the solver", "[backend]") {
  for (const std::string& name : backend_names()) {
    if (!implemented(name)) continue;
    auto backend = make_backend(name);
    // Pigeonhole: 12 pigeons, 11 holes, plain clauses (hard for resolution).
    const int pigeons = 12, holes = 11;
    std::vector<std::vector<Lit>> in(pigeons, std::vector<Lit>(holes));
    for (auto& row : in)
      for (Lit& l : row) l = backend->new_bool();
    for (const auto& row : in) backend->add_clause(row);
    for (int h = 0; h < holes; ++h)
      for (int p = 0; p < pigeons; ++p)
        for (int q = p + 1; q < pigeons; ++q) backend->add_clause({~in[p][h], ~in[q][h]});
    // CPU time, not wall: a loaded machine stretches the wall clock, while a
    // solver that ignores its deadline burns CPU.
    std::clock_t started = std::clock();
    Answer answer = backend->solve({}, Deadline::after_seconds(0.2));
    double seconds = double(std::clock() - started) / CLOCKS_PER_SEC;
    INFO("backend " << name << " took " << seconds << " s");
    CHECK(answer == Answer::Unknown);
    CHECK(seconds < 1.5);
    // The instance stays usable: a contradiction under assumptions is
    // still found at once, and a second bounded call again stops in time.
    CHECK(backend->solve({in[0][0], in[1][0]}, Deadline::after_seconds(5)) == Answer::Unsat);
    started = std::clock();
    CHECK(backend->solve({}, Deadline::after_seconds(0.1)) == Answer::Unknown);
    CHECK(double(std::clock() - started) / CLOCKS_PER_SEC < 1.5);
  }
}

TEST_CASE("a preferred value changes no answer", "[backend]") {
  // Solution-guided search (Backend::prefer) only sets the solver's decision
  // phases: on random problems, hinted towards random values, the answer is
  // still the brute force's, and a model still satisfies the problem.
  for (const std::string& name : backend_names()) {
    if (!implemented(name)) continue;
    std::mt19937 random(20261125);
    for (int round = 0; round < 100; ++round) {
      Problem p = random_problem(random);
      bool expected = false;
      for (const Assignment& a : all_assignments(p)) expected = expected || satisfies(p, a);
      Encoded e = encode(name, p);
      for (size_t i = 0; i < p.domains.size(); ++i) {
        std::uniform_int_distribution<int> hint(p.domains[i].first - 1, p.domains[i].second + 1);
        e.backend->prefer(e.ints[i], hint(random));
      }
      INFO("backend " << name << " round " << round);
      const Answer answer = e.backend->solve({}, Deadline{});
      REQUIRE((answer == Answer::Sat) == expected);
      if (answer != Answer::Sat) continue;
      Assignment model;
      for (IntVar x : e.ints) model.ints.push_back(e.backend->value(x));
      for (Lit b : e.bools) model.bools.push_back(e.backend->value(b));
      CHECK(satisfies(p, model));
    }
  }
}
