// Cube-and-conquer of one period question (sat/cube_split.hpp). Where
// the answer is known (small placements, each period decided whole on its
// own solver): CaDiCaL's cubes cover every solution (a plain solver's model
// satisfies exactly one cube), a period is refuted by the cubes only when it
// is unsatisfiable (every cube then unsat), a satisfiable one has a cube
// with a model that the definition accepts; the race that splits a period
// at once gives the same answer and bound as the whole question on both
// backends (Z3 does not split: the plain path); and the repetend search with
// cubes on gives the same period, bound and latency as on one thread, its
// schedule passing the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "cases/builtin_cases.hpp"
#include "sat/cube_split.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
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

// One period of `placement` on a fresh solver, as the race encodes it.
Encoded encode(const std::string& backend, const Placement& placement, long long memory, int period) {
  Encoded encoded{make_backend(backend), {}};
  encoded.encoding = encode_modulo(*encoded.backend, placement, std::vector<long long>(placement.ndevs, memory),
                                   {period, period}, static_cast<int>(placement.blocks.size()));
  return encoded;
}

ModuloSolution decoded(Encoded& encoded, const Placement& placement, int period) {
  return modulo_solution(placement, period, decode_starts(*encoded.backend, encoded.encoding, period));
}

// The decoded answer of `encoded`'s last Sat, judged by the definition.
std::optional<std::string> violation(Encoded& encoded, const Placement& placement, long long memory, int period) {
  return modulo_violation(placement, std::vector<long long>(placement.ndevs, memory),
                          decoded(encoded, placement, period), static_cast<int>(placement.blocks.size()));
}

bool satisfied(Backend& backend, const std::vector<Lit>& cube) {
  return std::all_of(cube.begin(), cube.end(), [&](Lit lit) { return backend.value(lit); });
}

SearchOptions with_cubes(const std::string& backend, const Placement& placement, long long memory, int threads) {
  SearchOptions options = testing::timing_free(backend, placement, memory, threads);
  options.cubes = {3, 0, 1};  // split at once, into up to 8 cubes
  return options;
}

struct Case {
  const char* name;
  int ndevs;
  long long memory;
};
const Case kCases[] = {{"nnshape", 6, 6}, {"xshape", 6, 6}, {"kshape", 6, 9}, {"mshape", 6, 6}};

// Periods L .. the first satisfiable one (at most 6 of them).
template <class Check>
void for_each_period(const Placement& placement, long long memory, Check check) {
  const int lower = period_lower_bound(placement);
  for (int period = lower; period < lower + 6; ++period) {
    Encoded plain = encode("cadical", placement, memory, period);
    const Answer answer = plain.backend->solve({period_assumption(plain.encoding, period)}, Deadline::after_seconds(60));
    REQUIRE(answer != Answer::Unknown);
    check(period, answer, plain);
    if (answer == Answer::Sat) return;
  }
}

}  // namespace

TEST_CASE("cubes: the queue hands each cube out once and refutes only when all are resolved", "[cubes]") {
  CubeJob job;
  job.cubes = {{}, {}, {}};
  CHECK_FALSE(take_cube(job));  // not ready: the split is being made
  job.ready = true;
  CHECK(take_cube(job) == std::optional<size_t>(0));
  CHECK(take_cube(job) == std::optional<size_t>(1));
  job.resolved = 2;
  CHECK_FALSE(all_refuted(job));
  CHECK(take_cube(job) == std::optional<size_t>(2));
  CHECK_FALSE(take_cube(job));
  CHECK_FALSE(cubes_left(job));
  job.resolved = 3;
  CHECK(all_refuted(job));
}

TEST_CASE("cubes: CaDiCaL's cubes cover every solution, refute only unsatisfiable periods", "[cubes]") {
  int refuted = 0, satisfiable = 0;
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    for_each_period(placement, c.memory, [&](int period, Answer answer, Encoded& plain) {
      INFO(c.name << " memory " << c.memory << " period " << period << ": " << answer_name(answer));
      Encoded splitter = encode("cadical", placement, c.memory, period);
      const Lit selected = period_assumption(splitter.encoding, period);
      const CubeSplit split = splitter.backend->split_into_cubes(4, Deadline::after_seconds(10), {selected});
      REQUIRE(split.offered);
      REQUIRE(split.cubes.size() <= 16);
      for (const std::vector<Lit>& cube : split.cubes)
        CHECK(std::find(cube.begin(), cube.end(), selected) != cube.end());  // each extends the assumptions
      // The cubes on one more solver, incrementally, as a worker takes them.
      Encoded worker = encode("cadical", placement, c.memory, period);
      if (answer == Answer::Unsat) {
        ++refuted;
        for (const std::vector<Lit>& cube : split.cubes)
          CHECK(worker.backend->solve(cube, Deadline::after_seconds(60)) == Answer::Unsat);
        return;
      }
      ++satisfiable;
      REQUIRE(split.answer != Answer::Unsat);
      const auto covering = std::count_if(split.cubes.begin(), split.cubes.end(),
                                          [&](const std::vector<Lit>& cube) { return satisfied(*plain.backend, cube); });
      CHECK(covering == 1);
      bool found = false;
      for (const std::vector<Lit>& cube : split.cubes) {
        const Answer on_cube = worker.backend->solve(cube, Deadline::after_seconds(60));
        REQUIRE(on_cube != Answer::Unknown);
        if (on_cube == Answer::Unsat) continue;
        found = true;
        CHECK(satisfied(*worker.backend, cube));
        const std::optional<std::string> broken = violation(worker, placement, c.memory, period);
        CHECK_FALSE(broken);
        break;
      }
      CHECK(found);
    });
  }
  CHECK(refuted >= 4);  // the cases do exercise refutations
  CHECK(satisfiable == 4);
}

TEST_CASE("cubes: Z3 offers no split (the plain path)", "[cubes]") {
  const Placement placement = make_case("nnshape", 4, false);
  Encoded z3 = encode("z3", placement, 4, period_lower_bound(placement));
  CHECK_FALSE(z3.backend->split_into_cubes(4, Deadline::after_seconds(10), {}).offered);
}

TEST_CASE("cubes: a period split at once in the race has the answer of the whole question", "[cubes]") {
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    for (const char* backend : {"cadical", "z3"}) {
      for_each_period(placement, c.memory, [&](int period, Answer answer, Encoded&) {
        INFO(backend << " " << c.name << " memory " << c.memory << " period " << period << ": " << answer_name(answer));
        const SearchOptions options = with_cubes(backend, placement, c.memory, 2);
        std::vector<SolverCall> calls;
        PeriodsOutcome raced = testing::race_one_period(placement, period, options, calls);
        CHECK_FALSE(raced.gave_up);
        CHECK(raced.found.has_value() == (answer == Answer::Sat));
        CHECK(raced.proven_lower_bound == (answer == Answer::Sat ? period : period + 1));
        // CaDiCaL answered by cubes (unless the lookahead refuted the period
        // outright), Z3 by the whole question.
        const bool by_cubes = std::any_of(calls.begin(), calls.end(), [](const SolverCall& call) {
          return call.what.find("cubes)") != std::string::npos;
        });
        if (std::string(backend) == "z3") CHECK_FALSE(by_cubes);
        if (std::string(backend) == "cadical" && answer == Answer::Sat) CHECK(by_cubes);
        if (!raced.found) return;
        Encoded found{std::move(raced.found->backend), std::move(raced.found->encoding)};
        CHECK_FALSE(violation(found, placement, c.memory, period));
      });
    }
  }
}

TEST_CASE("cubes: the repetend search with cubes on has the answer of one thread, verified", "[cubes]") {
  for (const Case& c : kCases) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    INFO(c.name << " memory " << c.memory);
    const SearchResult one = search_repetend(placement, with_cubes("cadical", placement, c.memory, 1));
    REQUIRE(one.status == SearchStatus::Found);
    const SearchResult two = search_repetend(placement, with_cubes("cadical", placement, c.memory, 2));
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

namespace {

// The race over one period on two threads with a rival from the start and
// the split after `split_after` seconds, its calls listed for the messages.
struct RivalRace {
  PeriodsOutcome outcome;
  std::vector<SolverCall> calls;
  std::string listed;
  bool split = false;  // the period was answered by cubes
};
RivalRace race_with_rival(const Placement& placement, long long memory, int period, int own_configuration,
                          double split_after) {
  SearchOptions options = with_cubes("cadical", placement, memory, 2);
  options.cubes = {4, split_after, 1};
  options.rival_after_seconds = 0;
  options.backend_settings.configuration = own_configuration;
  RivalRace race;
  race.outcome = testing::race_one_period(placement, period, options, race.calls);
  for (const SolverCall& call : race.calls) {
    race.listed += call.what + ": " + answer_name(call.answer) + "\n";
    if (call.what.find("cubes)") != std::string::npos) race.split = true;
  }
  return race;
}

bool is_rival(const SolverCall& call) { return call.what.find("configuration)") != std::string::npos; }

}  // namespace

TEST_CASE("cubes: a rival racing a period until its split leaves the answer of the whole question", "[cubes]") {
  // xshape 16/8 period 12 takes CaDiCaL about a second: the rival starts at
  // once, the own solver splits at 0.5 s, and the rival's thread is then
  // stopped and joins the cubes (unless one of them refuted it first).
  const Placement placement = make_case("xshape", 16, false);
  const RivalRace race = race_with_rival(placement, 8, 12, 0, 0.5);
  INFO(race.listed);
  CHECK_FALSE(race.outcome.gave_up);
  CHECK_FALSE(race.outcome.found);
  CHECK(race.outcome.proven_lower_bound == 13);
  for (const SolverCall& call : race.calls) {
    if (!is_rival(call) || call.answer == Answer::Unsat) continue;
    // Stopped: by the split when there was one, else by the own refutation.
    const char* why = race.split ? "split into cubes" : "moot";
    CHECK(call.what.find(why) != std::string::npos);
  }
}

TEST_CASE("cubes: a satisfiable period raced by rivals and split keeps its schedule", "[cubes]") {
  // Own configuration 'unsat', rivals 'sat' then the default: whichever
  // answers first, before or after the split, the period is found and the
  // model passes the definition (a rival's Sat before the split must not
  // let the split strand it without a schedule).
  const Placement placement = make_case("xshape", 16, false);
  for (double split_after : {0.0, 0.05, 0.3}) {
    RivalRace race = race_with_rival(placement, 8, 13, 2, split_after);
    INFO("split after " << split_after << " s\n" << race.listed);
    CHECK_FALSE(race.outcome.gave_up);
    CHECK(race.outcome.proven_lower_bound == 13);
    REQUIRE(race.outcome.found);
    Encoded found{std::move(race.outcome.found->backend), std::move(race.outcome.found->encoding)};
    CHECK_FALSE(violation(found, placement, 8, 13));
    // And by the verifier: the repetend run for its micro-batches in flight + 2.
    const std::vector<long long> limits(placement.ndevs, 8);
    const ModuloSolution solution = decoded(found, placement, 13);
    const verify::Report report =
        testing::verify_schedule(truncated_modulo_schedule(placement, limits, solution, solution.in_flight + 2));
    INFO(verify::report_to_text(report));
    CHECK(report.valid);
  }
}

TEST_CASE("cubes: the knobs reach the search, bad values are refused with the range", "[cubes]") {
  Tuning tuning;
  CHECK(options_from_tuning(tuning).cubes.depth == 6);  // on by default (threads > 1 only)
  apply_tuning(tuning, "cube_depth=0");
  apply_tuning(tuning, "cube_after_seconds=0.5");
  apply_tuning(tuning, "cube_split_seconds=3");
  apply_tuning(tuning, "rival_after_seconds=7");
  const SearchOptions options = options_from_tuning(tuning);
  CHECK(options.cubes.depth == 0);
  CHECK(options.rival_after_seconds == 7);
  CHECK(options.cubes.after_seconds == 0.5);
  CHECK(options.cubes.split_seconds == 3);
  CHECK_THROWS_WITH(apply_tuning(tuning, "cube_depth=17"), Catch::Contains("cube_depth takes an integer in [0, 16]"));
  CHECK_THROWS_WITH(apply_tuning(tuning, "cube_depth=2.5"), Catch::Contains("cube_depth takes an integer"));
  CHECK_THROWS_WITH(apply_tuning(tuning, "cube_after_seconds=-1"), Catch::Contains("cube_after_seconds takes a number"));
  CHECK_THROWS_WITH(apply_tuning(tuning, "rival_after_seconds=-1"),
                    Catch::Contains("rival_after_seconds takes a number in [0, 3600]"));
  CHECK_THROWS_WITH(apply_tuning(tuning, "rival_after_second=1"), Catch::Contains("did you mean 'rival_after_seconds'"));
  CHECK_THROWS_WITH(apply_tuning(tuning, "cube_deph=3"), Catch::Contains("did you mean 'cube_depth'"));
}

TEST_CASE("cubes: cubes split again (long ones, or for a waiting thread) keep the answer", "[cubes]") {
  for (const Case& c : {Case{"nnshape", 8, 4}, Case{"xshape", 8, 4}}) {
    const Placement placement = make_case(c.name, c.ndevs, false);
    for_each_period(placement, c.memory, [&](int period, Answer answer, Encoded&) {
      for (int run = 0; run < 3; ++run) {
        INFO(c.name << " memory " << c.memory << " period " << period << ": " << answer_name(answer) << ", run " << run);
        SearchOptions options = with_cubes("cadical", placement, c.memory, 2);
        options.cubes = {2, 0.001, 1, 0.002};  // split at once, and every cube again after 2 ms
        std::vector<SolverCall> calls;
        PeriodsOutcome raced = testing::race_one_period(placement, period, options, calls);
        CHECK_FALSE(raced.gave_up);
        CHECK(raced.found.has_value() == (answer == Answer::Sat));
        if (!raced.found) continue;
        Encoded found{std::move(raced.found->backend), std::move(raced.found->encoding)};
        CHECK_FALSE(violation(found, placement, c.memory, period));
      }
    });
  }
}
