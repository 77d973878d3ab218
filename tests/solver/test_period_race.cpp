// The period descent on several threads (solver/period/scheduler.hpp): the answer
// must not depend on the thread count. With the time-budgeted phases off
// (wider windows, latency budget, boundary shortening, which stop on the
// clock whatever the threads), the repetend search on 1, 2 and 3 threads
// must report the same period, the same proven bound, the same latency and
// the very same schedule, on both backends, and every schedule must pass
// the verifier. The race itself: periods all refuted, a deadline already
// spent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/period/chain_period.hpp"
#include "solver/period/program_decider.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/race_options.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::timing_free;

namespace {

// `many` (threads) answers as `one` (one thread) did: the same period, proven
// bound, latency and the very same schedule, which the verifier accepts.
void require_same_answer(const SearchResult& one, const SearchResult& many) {
  REQUIRE(one.status == SearchStatus::Found);
  REQUIRE(one.schedule);
  REQUIRE(many.status == SearchStatus::Found);
  CHECK(many.period == one.period);
  CHECK(many.proven_lower_bound == one.proven_lower_bound);
  CHECK(many.latency == one.latency);
  REQUIRE(many.schedule);
  CHECK(schedule_to_json(*many.schedule) == schedule_to_json(*one.schedule));
  verify::Report report = testing::verify_schedule(*many.schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

void same_answer_for_any_threads(const std::string& backend, const std::string& name, int ndevs, long long memory) {
  const Placement placement = make_case(name, ndevs, false);
  INFO(backend << " " << name << " " << ndevs << " devices, memory " << memory);
  const SearchResult one = search_repetend(placement, timing_free(backend, placement, memory, 1));
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    require_same_answer(one, search_repetend(placement, timing_free(backend, placement, memory, threads)));
  }
}

}  // namespace

TEST_CASE("period race: the same answer and schedule on 1, 2 and 3 threads (cadical)", "[period_race]") {
  for (const char* name : {"nnshape", "xshape", "mshape", "kshape"})
    for (long long memory : {6, 9}) same_answer_for_any_threads("cadical", name, 6, memory);
  same_answer_for_any_threads("cadical", "nnshape", 8, 8);
  same_answer_for_any_threads("cadical", "kshape", 16, 8);  // its latency settled by refutations (latency_bisection.hpp)
}

TEST_CASE("period race: the same answer and schedule on 1, 2 and 3 threads (z3)", "[period_race]") {
  for (const char* name : {"nnshape", "xshape"}) same_answer_for_any_threads("z3", name, 4, 4);
}

TEST_CASE("period race: periods all refuted give no answer and the bound above them", "[period_race]") {
  const Placement placement = make_case("nnshape", 6, false);
  SearchOptions options = timing_free("cadical", placement, 6, 2);
  const SearchResult reference = search_repetend(placement, options);
  REQUIRE(reference.status == SearchStatus::Found);
  const int lower = period_lower_bound(placement);
  const int period = static_cast<int>(reference.period);
  REQUIRE(period > lower);  // at least one refutation to race
  std::vector<SolverCall> calls;
  PeriodsOutcome raced = schedule_periods({&placement, lower, period - 1, static_cast<int>(placement.blocks.size()), {}, false, "", 2},
                                         options, options.deadline, calls);
  CHECK_FALSE(raced.found);
  CHECK_FALSE(raced.gave_up);
  CHECK(raced.proven_lower_bound == reference.period);
  CHECK(calls.size() >= static_cast<size_t>(reference.period - lower));

  raced = schedule_periods({&placement, lower, period, static_cast<int>(placement.blocks.size()), {}, false, "", 3}, options,
                       options.deadline, calls);
  REQUIRE(raced.found);
  CHECK(raced.found->period == reference.period);
}

TEST_CASE("period race: a spent deadline gives up without an answer", "[period_race]") {
  const Placement placement = make_case("nnshape", 6, false);
  SearchOptions options = timing_free("cadical", placement, 6, 2);
  StopFlag stop{true};
  std::vector<SolverCall> calls;
  const int lower = period_lower_bound(placement);
  PeriodsOutcome raced = schedule_periods({&placement, lower, lower + 4, static_cast<int>(placement.blocks.size()), {}, false, "", 2}, options,
                                         Deadline::none(&stop), calls);
  CHECK_FALSE(raced.found);
  CHECK(raced.gave_up);
  CHECK(raced.proven_lower_bound == lower);
}

TEST_CASE("threads: 0 means every core", "[period_race]") {
  CHECK(resolve_threads(0) >= 1);
  CHECK(resolve_threads(3) == 3);
}

TEST_CASE("period race: a stop raised mid-race ends every thread promptly, the fallback verified", "[period_race]") {
  // mllm on 32 devices at memory 8 takes seconds to decide (the hard list);
  // xshape 16, used before, is decided by its program before the stop.
  const Placement placement = make_case("mllm", 32, false);
  SearchOptions options = timing_free("cadical", placement, 8, 2);
  StopFlag stop{false};
  options.deadline = Deadline::none(&stop);
  std::thread raiser([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const auto begin = std::chrono::steady_clock::now();
  const SearchResult result = search_repetend(placement, options);
  const double seconds = seconds_since(begin);
  raiser.join();
  CHECK(seconds < 10);  // generous for a loaded machine; unstopped it runs for minutes
  REQUIRE(result.status == SearchStatus::Timeout);
  CHECK(result.proven_lower_bound <= result.period);
  REQUIRE(result.schedule);
  verify::Report report = testing::verify_schedule(*result.schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

TEST_CASE("period race: a stop while a smaller period is open keeps the larger one found satisfiable", "[period_race]") {
  // xshape 32/16: period 13 is found in about a second, 12 takes 20 s or more
  // to refute. Stopped as soon as a period is found satisfiable, the search
  // answers that period (not proven minimal) instead of the construction's.
  const Placement placement = make_case("xshape", 32, false);
  SearchOptions options = timing_free("cadical", placement, 16, 2);
  StopFlag stop{false};
  options.deadline = Deadline::after_seconds(60, &stop);
  int found_period = 0;
  options.progress = [&](const std::string& line) {
    const size_t at = line.find(": sat (");
    const size_t name = line.rfind("period ", at);
    if (at == std::string::npos || name == std::string::npos || line.find("latency") != std::string::npos) return;
    if (!stop) found_period = std::stoi(line.substr(name + 7, at - name - 7));
    stop = true;
  };
  const SearchResult result = search_repetend(placement, options);
  REQUIRE(found_period > 0);
  REQUIRE(result.status == SearchStatus::Timeout);
  CHECK(result.period == found_period);
  CHECK(result.proven_lower_bound < found_period);
  CHECK(result.message.find("found satisfiable by another thread") != std::string::npos);
  REQUIRE(result.schedule);
  verify::Report report = testing::verify_schedule(*result.schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

namespace {

// The race over lower .. last with the chain program deciding lower ..
// program_last, as the repetend search runs it on several threads.
PeriodsOutcome race_with_program(const Placement& placement, const MirroredChain& chain, int lower, int last,
                                    int program_last, const SearchOptions& options, std::vector<SolverCall>& calls,
                                    int program_reach = 0, double head_start_seconds = 1) {
  const int in_flight = static_cast<int>(placement.blocks.size());
  PeriodsQuestion question{&placement, lower, last, in_flight, {}, false, "", 2};
  const ChainProgramDecider program(placement, chain, in_flight, options.tuning.program_steps_per_second);
  question.program = &program;
  question.program_last = program_last;
  question.program_reach = program_reach;
  question.head_start_seconds = head_start_seconds;
  return schedule_periods(question, options, options.deadline, calls);
}

size_t program_calls(const std::vector<SolverCall>& calls) {
  return std::count_if(calls.begin(), calls.end(),
                       [](const SolverCall& call) { return call.what.find("(chain program") != std::string::npos; });
}

}  // namespace

TEST_CASE("period race: a program's periods raced beside the solver's give the one-thread answer", "[period_race]") {
  // nnshape is one mirrored chain: the program decides any of its periods.
  for (long long memory : {6, 9}) {
    const Placement placement = make_case("nnshape", 6, false);
    INFO("memory " << memory);
    const SearchOptions options = timing_free("cadical", placement, memory, 2);
    const SearchResult reference = search_repetend(placement, options);  // the solver's periods
    REQUIRE(reference.status == SearchStatus::Found);
    const std::optional<MirroredChain> chain = mirrored_chain(placement, options.memory_limit);
    REQUIRE(chain);
    const int lower = period_lower_bound(placement);
    const int period = static_cast<int>(reference.period);
    const int last = period + 2;

    // The program up to the answer: it finds the period, with a repetend the definition accepts.
    std::vector<SolverCall> calls;
    PeriodsOutcome raced = race_with_program(placement, *chain, lower, last, last, options, calls);
    CHECK_FALSE(raced.gave_up);
    CHECK_FALSE(raced.found);
    REQUIRE(raced.by_program);
    CHECK(raced.by_program->period == period);
    CHECK(raced.proven_lower_bound == period);
    const ModuloSolution solution = modulo_solution(placement, period, raced.by_program->starts);
    CHECK_FALSE(modulo_violation(placement, options.memory_limit, solution, static_cast<int>(placement.blocks.size())));
    // At least the answer's (a smaller period may be settled by a larger
    // one's refutation before its program starts).
    CHECK(program_calls(calls) >= 1);

    // The program below the answer only: the solver's periods above it answer.
    if (period > lower) {
      calls.clear();
      raced = race_with_program(placement, *chain, lower, last, period - 1, options, calls);
      CHECK_FALSE(raced.gave_up);
      CHECK_FALSE(raced.by_program);
      REQUIRE(raced.found);
      CHECK(raced.found->period == period);
      CHECK(raced.proven_lower_bound == period);
      CHECK(program_calls(calls) == static_cast<size_t>(period - lower));
    }

    // Every period past the program's own: the solver's head start, then
    // the program. A head start of nothing leaves every period to the
    // program; a long one leaves them to the solver (these it decides at once).
    calls.clear();
    raced = race_with_program(placement, *chain, lower, last, lower - 1, options, calls, last, 0.0);
    CHECK_FALSE(raced.gave_up);
    CHECK(raced.proven_lower_bound == period);
    REQUIRE(raced.by_program);
    CHECK(raced.by_program->period == period);
    const ModuloSolution after = modulo_solution(placement, period, raced.by_program->starts);
    CHECK_FALSE(modulo_violation(placement, options.memory_limit, after, static_cast<int>(placement.blocks.size())));
    // The answer's program at least: a smaller period may be settled by a
    // larger one's refutation during its own head start.
    CHECK(program_calls(calls) >= 1);

    calls.clear();
    raced = race_with_program(placement, *chain, lower, last, lower - 1, options, calls, last, 60.0);
    CHECK_FALSE(raced.gave_up);
    CHECK_FALSE(raced.by_program);
    REQUIRE(raced.found);
    CHECK(raced.found->period == period);
    CHECK(program_calls(calls) == 0);
  }
}

TEST_CASE("period race: the search with its programs gives the same answer on 1 and 2 threads", "[period_race]") {
  // The automatic period method: chains (nnshape, mshape) and crossed chains
  // (xshape) by their programs, raced on two threads; the window at the
  // period the program finds is the solver's own, as on one thread.
  for (const char* name : {"nnshape", "xshape", "mshape", "mllm"}) {
    const Placement placement = make_case(name, 8, false);
    SearchOptions one = timing_free("cadical", placement, 4, 1);
    one.period_method = PeriodMethodChoice::Automatic;
    SearchOptions two = one;
    two.threads = 2;
    INFO(name);
    require_same_answer(search_repetend(placement, one), search_repetend(placement, two));
  }
}

TEST_CASE("one thread: the program decides the periods its solver leaves open after a head start", "[period_race]") {
  // mllm, 32 devices, memory 8: the chain program affords periods 16-19 in
  // about a second each, the solver takes 5-17 s on 20 and 21 and finds 22
  // at once. One thread gives the solver a second on each of 20 and 21 and
  // then asks the program; two threads race them. The same answer either
  // way, proven optimal, verified.
  const Placement placement = make_case("mllm", 32, false);
  SearchOptions one = timing_free("cadical", placement, 8, 1);
  one.period_method = PeriodMethodChoice::Automatic;
  const SearchResult single = search_repetend(placement, one);
  REQUIRE(single.status == SearchStatus::Found);
  CHECK(single.proven_lower_bound == single.period);
  const auto after_head_start = [](const SolverCall& call) {
    return call.what.find("after the solver's") != std::string::npos;
  };
  CHECK(std::count_if(single.calls.begin(), single.calls.end(), after_head_start) >= 1);
  REQUIRE(single.schedule);
  verify::Report report = testing::verify_schedule(*single.schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);

  SearchOptions two = one;
  two.threads = 2;
  const SearchResult raced = search_repetend(placement, two);
  REQUIRE(raced.status == SearchStatus::Found);
  CHECK(raced.period == single.period);
  CHECK(raced.proven_lower_bound == single.proven_lower_bound);
}
