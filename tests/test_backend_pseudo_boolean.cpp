// The pseudo-Boolean encodings one by one (totalizer, sequential counter,
// BDD, adder) against direct evaluation: for every assignment of the input
// variables, imposed by assumptions on a CaDiCaL instance holding only the
// encoding, the solver must accept exactly when the weighted sum is within
// the bound (or the guard is off). Also checks that totalizers are shared.
#include <catch2/catch.hpp>

#include <cadical.hpp>

#include <random>

#include "solver/pseudo_boolean_cnf.hpp"

using namespace tessel;

namespace {

class SolverSink : public cnf::Sink {
 public:
  SolverSink() {
    truth_ = new_var();
    solver.set("quiet", 1);
    solver.add(truth_.code);
    solver.add(0);
  }
  Lit new_var() override { return Lit{++variables}; }
  Lit truth() const override { return truth_; }
  void add_clause(const std::vector<Lit>& lits) override {
    for (Lit l : lits) {
      if (l == truth_) return;
    }
    for (Lit l : lits)
      if (!(l == ~truth_)) solver.add(l.code);
    solver.add(0);
  }
  CaDiCaL::Solver solver;
  int variables = 0;
  Lit truth_;
};

struct Variant {
  const char* name;
  cnf::CardinalityEncoding cardinality;
  long long bdd_limit;
};

}  // namespace

TEST_CASE("pseudo-Boolean encodings accept exactly the assignments within the bound", "[backend][pb]") {
  const Variant variants[] = {{"totalizer", cnf::CardinalityEncoding::Totalizer, cnf::kBddNodeLimit},
                              {"sequential/bdd", cnf::CardinalityEncoding::SequentialCounter, cnf::kBddNodeLimit},
                              {"adder", cnf::CardinalityEncoding::SequentialCounter, 0}};
  std::mt19937 random(7);
  auto pick = [&](long long lo, long long hi) { return std::uniform_int_distribution<long long>(lo, hi)(random); };
  for (const Variant& variant : variants) {
    for (int round = 0; round < 120; ++round) {
      SolverSink sink;
      cnf::PbEncoder encoder(sink, variant.cardinality, variant.bdd_limit);
      int nvars = pick(1, 6);
      std::vector<Lit> vars;
      for (int v = 0; v < nvars; ++v) vars.push_back(sink.new_var());
      Lit guard = sink.new_var();
      int kind = round % 3;  // unit weights, small weights, large weights
      std::vector<cnf::WeightedLit> terms;
      for (int t = pick(1, 7); t > 0; --t) {
        long long weight = kind == 0 ? (pick(0, 1) ? 1 : -1) : kind == 1 ? pick(-4, 4) : pick(-3, 3) * 1000003 + pick(-2, 2);
        Lit lit = vars[pick(0, nvars - 1)];
        if (pick(0, 1)) lit = ~lit;
        if (pick(0, 9) == 0) lit = pick(0, 1) ? sink.truth() : sink.falsity();
        terms.push_back({weight, lit, int(pick(0, 1))});
      }
      long long bound = kind == 2 ? pick(-4, 8) * 1000003 : pick(-3, 6);
      encoder.add_at_most(terms, bound, {guard});
      for (unsigned mask = 0; mask < (1u << nvars); ++mask) {
        auto value = [&](Lit l) {
          if (l == sink.truth()) return true;
          if (l == sink.falsity()) return false;
          for (int v = 0; v < nvars; ++v) {
            if (l == vars[v]) return bool((mask >> v) & 1);
            if (l == ~vars[v]) return !((mask >> v) & 1);
          }
          return false;
        };
        long long sum = 0;
        for (const auto& t : terms) sum += t.weight * value(t.lit);
        for (bool guarded : {true, false}) {
          for (int v = 0; v < nvars; ++v) sink.solver.assume((mask >> v) & 1 ? vars[v].code : -vars[v].code);
          sink.solver.assume(guarded ? guard.code : -guard.code);
          int answer = sink.solver.solve();
          INFO(variant.name << " round " << round << " mask " << mask << " sum " << sum << " bound " << bound);
          REQUIRE(answer == (!guarded || sum <= bound ? 10 : 20));
        }
      }
    }
  }
}

TEST_CASE("totalizers of a recurring group are built once", "[backend][pb]") {
  SolverSink sink;
  cnf::PbEncoder encoder(sink);
  std::vector<Lit> offsets, phases;
  for (int i = 0; i < 8; ++i) offsets.push_back(sink.new_var());
  for (int i = 0; i < 8; ++i) phases.push_back(sink.new_var());
  // Like a device's memory at 6 phases: the same offset part, different phase literals.
  for (int phase = 0; phase < 6; ++phase) {
    std::vector<cnf::WeightedLit> terms;
    for (Lit o : offsets) terms.push_back({1, o, 0});
    for (int i = 0; i <= phase; ++i) terms.push_back({1, phases[i], 1});
    encoder.add_at_most(terms, 5, {});
  }
  CHECK(encoder.stats().totalizer_nodes_reused >= 5);
  // And the constraints still bite: 6 offsets true is too many.
  for (int i = 0; i < 6; ++i) sink.solver.assume(offsets[i].code);
  CHECK(sink.solver.solve() == 20);
  for (int i = 0; i < 5; ++i) sink.solver.assume(offsets[i].code);
  CHECK(sink.solver.solve() == 10);
}
