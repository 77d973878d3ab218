// Learned clauses shared between the solvers of one period (Backend::
// share_learned / take_learned / add_learned, used by the period race):
// a clause one CaDiCaL solver learns holds for another solver of the same
// encoding, so adding it changes no answer — every period keeps its answer
// after a solver took in another's clauses, and a satisfiable one still has
// a model the definition accepts; clauses naming variables a solver never
// made are skipped. The race with sharing on gives the answer of the whole
// question per period, and the repetend search on 2 threads the period,
// bound and latency of one thread, its schedule verified.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/race_options.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct Encoded {
  std::unique_ptr<Backend> backend;
  ModuloEncoding encoding;
};

Encoded encode(const Placement& placement, long long memory, int period, int configuration = 0) {
  Encoded encoded{make_backend("cadical", {0, configuration}), {}};
  encoded.encoding = encode_modulo(*encoded.backend, placement, std::vector<long long>(placement.ndevs, memory),
                                   {period, period}, static_cast<int>(placement.blocks.size()));
  return encoded;
}

// The decoded answer of the last Sat, judged by the definition.
std::optional<std::string> violation(Encoded& encoded, const Placement& placement, long long memory, int period) {
  const ModuloSolution solution =
      modulo_solution(placement, period, decode_starts(*encoded.backend, encoded.encoding, period));
  return modulo_violation(placement, std::vector<long long>(placement.ndevs, memory), solution,
                          static_cast<int>(placement.blocks.size()));
}

struct Case {
  const char* name;
  int ndevs;
  long long memory;
};
const Case kCases[] = {{"nnshape", 6, 6}, {"xshape", 6, 3}, {"kshape", 6, 9}, {"mshape", 6, 6}};

SearchOptions sharing(const Placement& placement, long long memory, int threads) {
  SearchOptions options = testing::timing_free("cadical", placement, memory, threads);
  options.share_clauses = 8;
  return options;
}

}  // namespace

TEST_CASE("clause sharing: another solver's learned clauses change no period's answer", "[sharing]") {
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    const int lower = period_lower_bound(placement);
    int shared = 0;
    for (int period = lower; period < lower + 6; ++period) {
      INFO(c.name << " memory " << c.memory << " period " << period);
      // The giver, on the 'unsat' configuration, learns while deciding;
      // the taker decides after adding all it learned.
      Encoded giver = encode(placement, c.memory, period, 2);
      giver.backend->share_learned(8);
      const Answer given = giver.backend->solve({period_assumption(giver.encoding, period)}, Deadline::after_seconds(60));
      REQUIRE(given != Answer::Unknown);
      const std::vector<std::vector<int>> clauses = giver.backend->take_learned();
      for (const auto& clause : clauses) CHECK(clause.size() <= 8);
      CHECK(giver.backend->take_learned().empty());  // handed over once
      shared += static_cast<int>(clauses.size());
      Encoded taker = encode(placement, c.memory, period);
      taker.backend->add_learned(clauses);
      const Answer taken = taker.backend->solve({period_assumption(taker.encoding, period)}, Deadline::after_seconds(60));
      CHECK(taken == given);
      if (taken == Answer::Sat) {
        CHECK_FALSE(violation(taker, placement, c.memory, period));
        break;
      }
    }
    CHECK(shared > 0);
  }
}

TEST_CASE("clause sharing: clauses naming variables a solver never made are skipped", "[sharing]") {
  const Placement placement = make_case("vshape", 4, false);
  Encoded encoded = encode(placement, 4, 4);
  encoded.backend->add_learned({{1 << 29, -(1 << 29) + 1}, {0}});
  CHECK(encoded.backend->solve({period_assumption(encoded.encoding, 4)}, Deadline::after_seconds(10)) == Answer::Sat);
  // Z3 shares nothing.
  std::unique_ptr<Backend> z3 = make_backend("z3");
  z3->share_learned(8);
  CHECK(z3->take_learned().empty());
}

TEST_CASE("clause sharing: the race with sharing on answers each period as the whole question", "[sharing]") {
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    const int lower = period_lower_bound(placement);
    for (int period = lower; period < lower + 6; ++period) {
      Encoded plain = encode(placement, c.memory, period);
      const Answer answer = plain.backend->solve({period_assumption(plain.encoding, period)}, Deadline::after_seconds(60));
      REQUIRE(answer != Answer::Unknown);
      for (int cube_depth : {0, 3}) {
        INFO(c.name << " memory " << c.memory << " period " << period << ": " << answer_name(answer) << ", cubes "
                    << cube_depth);
        SearchOptions options = sharing(placement, c.memory, 2);
        options.cubes = {cube_depth, 0, 1};
        std::vector<SolverCall> calls;
        PeriodsOutcome raced = testing::race_one_period(placement, period, options, calls);
        CHECK_FALSE(raced.gave_up);
        CHECK(raced.found.has_value() == (answer == Answer::Sat));
        CHECK(raced.proven_lower_bound == (answer == Answer::Sat ? period : period + 1));
        if (!raced.found) continue;
        Encoded found{std::move(raced.found->backend), std::move(raced.found->encoding)};
        CHECK_FALSE(violation(found, placement, c.memory, period));
      }
      if (answer == Answer::Sat) break;
    }
  }
}

TEST_CASE("clause sharing: the repetend search on 2 threads has the answer of one, verified", "[sharing]") {
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    INFO(c.name << " memory " << c.memory);
    const SearchResult one = search_repetend(placement, sharing(placement, c.memory, 1));
    REQUIRE(one.status == SearchStatus::Found);
    SearchOptions options = sharing(placement, c.memory, 2);
    options.cubes = {3, 0.2, 1};
    const SearchResult two = search_repetend(placement, options);
    REQUIRE(two.status == SearchStatus::Found);
    CHECK(two.period == one.period);
    CHECK(two.proven_lower_bound == one.proven_lower_bound);
    CHECK(two.latency == one.latency);
    REQUIRE(two.schedule);
    verify::Report report = testing::verify_schedule(*two.schedule);
    INFO(verify::report_to_text(report));
    REQUIRE(report.valid);
  }
}

TEST_CASE("clause sharing: the knob reaches the search, bad values are refused", "[sharing]") {
  Tuning tuning;
  CHECK(options_from_tuning(tuning).share_clauses == 0);
  apply_tuning(tuning, "share_clauses=6");
  CHECK(options_from_tuning(tuning).share_clauses == 6);
  CHECK_THROWS_WITH(apply_tuning(tuning, "share_clauses=65"), Catch::Contains("share_clauses takes an integer in [0, 64]"));
}
