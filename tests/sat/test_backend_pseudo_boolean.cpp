// The pseudo-Boolean encodings one by one (totalizer, sequential counter,
// BDD, adder) against direct evaluation: for every assignment of the input
// variables, imposed by assumptions on a CaDiCaL instance holding only the
// encoding, the solver must accept exactly when the weighted sum is within
// the bound (or the guard is off). Also order chains used as counters.
#include <catch2/catch.hpp>

#include <cadical.hpp>

#include <random>

#include "sat/order_encoding.hpp"
#include "sat/pseudo_boolean_cnf.hpp"

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
  std::optional<std::pair<int, long long>> order_literal(Lit lit) const override {
    for (size_t c = 0; c < chains.size(); ++c)
      for (int v = chains[c]->lo; v < chains[c]->hi; ++v)
        if (std::abs(lit.code) == chains[c]->le[v - chains[c]->lo].code) return std::pair<int, long long>(c, v);
    return std::nullopt;
  }
  std::vector<const cnf::OrderVar*> chains;
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
        terms.push_back({weight, lit});
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

TEST_CASE("order chains enter the totalizer as ready-made counters", "[backend][pb]") {
  // Memory-like sums over the order literals of two integers (one counted
  // positively, one negatively, as forward and backward blocks are), checked
  // for every pair of values; the same sum at a second, smaller bound must
  // reuse the counter built for the first.
  for (int bound = 0; bound <= 4; ++bound) {
    SolverSink sink;
    cnf::OrderVar x = cnf::make_order_var(sink, 0, 11);
    cnf::OrderVar y = cnf::make_order_var(sink, 0, 11);
    sink.chains = {&x, &y};
    cnf::PbEncoder encoder(sink);
    auto count = [](int value, int phase) {  // sum over j of [value <= phase + 3 j]
      int n = 0;
      for (int j = 0; j < 4; ++j) n += value <= phase + 3 * j;
      return n;
    };
    const int phase = 1;
    std::vector<cnf::WeightedLit> terms;
    for (int j = 0; j < 4; ++j) {
      terms.push_back({1, cnf::order_at_most(sink, x, phase + 3 * j)});
      terms.push_back({-1, cnf::order_at_most(sink, y, phase + 3 * j)});
    }
    Lit loose = sink.new_var();
    encoder.add_at_most(terms, bound + 1, {loose});
    encoder.add_at_most(terms, bound, {});
    // (From bound 3 on the looser sum is trivial and builds nothing.)
    if (bound <= 2) CHECK(encoder.stats().totalizer_nodes_reused >= 1);
    for (int vx = 0; vx <= 11; ++vx)
      for (int vy = 0; vy <= 11; ++vy) {
        auto pin = [&](const cnf::OrderVar& var, int value) {
          sink.solver.assume(cnf::order_at_most(sink, var, value).code);
          Lit below = cnf::order_at_most(sink, var, value - 1);
          if (!sink.is_false(below)) sink.solver.assume((~below).code);
        };
        pin(x, vx);
        pin(y, vy);
        bool fits = count(vx, phase) - count(vy, phase) <= bound;
        INFO("bound " << bound << " x " << vx << " y " << vy);
        REQUIRE(sink.solver.solve() == (fits ? 10 : 20));
      }
  }
}
