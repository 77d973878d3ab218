// The exact ends of the makespan bound (solver/makespan/bounds/exact_ends): each
// end of the schedule solved on a window. It must never pass an optimum the
// full solver proves (hand-made families at their own peaks, random
// pipelines under tight memory, both backends), it must see what the closed
// bounds miss (interleaved 1F1B: the full solver's optimum above them), and
// the full search must start from it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "cases/builtin_cases.hpp"
#include "solver/knobs/encoding_budget.hpp"
#include "solver/makespan/bounds/exact_ends.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/portfolio/candidates.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::FamilyRow;
using tessel::testing::for_each_proven_family;
using tessel::testing::hand_made;
using tessel::testing::HandMade;
using tessel::testing::one_micro_peaks;
using tessel::testing::proven_full;
using tessel::testing::proven_round;
using tessel::testing::ProvenRound;
using tessel::testing::random_pipeline;
using tessel::testing::verify_schedule;

namespace {

// The exact ends bound, stopped once it reaches `target` (0: every window
// it can afford), as the search stops at its best schedule; windows of at
// most `window` steps when given.
ExactEnds ends_of(const Placement& placement, int nmicros, const std::vector<Memory>& limits,
                  const std::string& backend, long long target = 0, Time window = 0) {
  ExactEndsInput input;
  static_cast<BoundQuestion&>(input) = testing::test_question(placement, nmicros, limits, backend);
  input.target = target;
  input.window = window;
  input.floor = makespan_lower_bound(placement, nmicros, limits);
  return exact_ends_bound(input);
}

// f0 b0 on device 0, f1 b1 on device 1 between them, span 1; each forward
// allocates 1 that its backward frees.
Placement two_device_chain() {
  return testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0}, {1, 1, 1, 1},
                              {1, 1, -1, -1});
}

}  // namespace

TEST_CASE("exact ends: the least idle of a device in a window, worked by hand", "[makespan]") {
  const Placement placement = two_device_chain();
  ExactEndsInput input;
  input.placement = &placement;
  input.total_micros = 4;
  input.deadline = Deadline::after_seconds(30);
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    input.backend = backend;
    // Device 0 holds one micro-batch at a time: f0 of the next waits for b0
    // (at 3), so device 1 runs f1 b1 at 1, 2 and idles at 0 and 3 of [0, 4).
    input.limits = {1, 1};
    CHECK(least_end_idle(input, 1, false, 4) == 2);
    // Read backwards the same holds at the end: b0 last, then f1 b1 before it
    // at the earliest in the previous two steps, the memory freed only then.
    CHECK(least_end_idle(input, 1, true, 4) == 2);
    // Device 0 in its first 4 steps: f0, wait two steps for b0, b0: 2 idle.
    CHECK(least_end_idle(input, 0, false, 4) == 2);
    // Without limits device 1 idles only while the first f0 runs, and at the
    // end only while the last b0 runs.
    input.limits.clear();
    CHECK(least_end_idle(input, 1, false, 4) == 1);
    CHECK(least_end_idle(input, 1, true, 4) == 1);
    // A limit below one micro-batch's memory: nothing ever starts.
    input.limits = {0, 1};
    CHECK(least_end_idle(input, 1, false, 4) == 4);
  }
}

TEST_CASE("exact ends: interleaved 1F1B ends cost more than the closed bounds see; the bound is the proven optimum",
          "[makespan][full]") {
  // 4 ranks, 2 chunks, F = B = 2, W = 1, 4 micro-batches at the hand-made
  // peaks: the closed bounds say 48, the hand-made schedule takes 52, the
  // full solver proves 51; the last device idles 6 steps before its first
  // forward and 5 in the last 18 steps, 40 + 11 = 51.
  HandMade made = hand_made("interleaved-1f1b", 4, 4, 2, 2, 1);
  const long long closed = makespan_lower_bound(made.placement, 4, made.peaks);
  SearchResult optimum = proven_full(made.placement, 4, made.peaks, "cadical");
  REQUIRE(optimum.status == SearchStatus::Found);
  REQUIRE(optimum.makespan == optimum.proven_lower_bound);
  CHECK(verify_schedule(*optimum.schedule).valid);
  const ExactEnds ends = ends_of(made.placement, 4, made.peaks, "cadical");
  CHECK(closed < ends.value);
  CHECK(ends.value == optimum.makespan);
  CHECK(ends.value < makespan(made.schedule));
  CHECK(ends.complete);
  CHECK(ends.value == 4 * 10 + ends.idle_head + ends.idle_tail);
  // The report's bound names the argument that gave it.
  ExactEndsInput input;
  input.placement = &made.placement;
  input.total_micros = 4;
  input.limits = made.peaks;
  input.deadline = Deadline::after_seconds(60);
  const MakespanBound raised =
      with_exact_ends(input, makespan(made.schedule), makespan_bound(made.placement, 4, made.peaks));
  CHECK(raised.value == optimum.makespan);
  CHECK(raised.argument == BoundArgument::ExactEnds);
  CHECK(raised.device == ends.device);
  // Nothing is asked when the schedule in hand already meets the bound.
  CHECK(with_exact_ends(input, closed, makespan_bound(made.placement, 4, made.peaks)).argument !=
        BoundArgument::ExactEnds);
}

TEST_CASE("exact ends: never above the full solver's proven optimum of hand-made families at small N",
          "[makespan][full]") {
  const std::vector<FamilyRow> rows = {{"interleaved-1f1b", 2, 4, 2, 2, 1}, {"interleaved-zb", 2, 4, 2, 2, 1},
                                       {"interleaved-zb", 2, 8, 2, 2, 1},   {"v-min", 2, 4, 2, 2, 1},
                                       {"v-half", 2, 4, 1, 1, 1},           {"zb-v", 2, 4, 1, 2, 2},
                                       {"zb-h2", 4, 8, 2, 2, 1},            {"zb-h1", 4, 6, 2, 2, 1},
                                       {"1f1b", 3, 6, 3, 2, 1},             {"interleaved-1f1b", 4, 4, 2, 2, 1}};
  int raised = 0, tight = 0, compared = 0;
  for_each_proven_family(rows, [&](const FamilyRow& row, const HandMade& made, int nmicros,
                                   const std::vector<Memory>& limits, const SearchResult& optimum) {
    const ExactEnds sat = ends_of(made.placement, nmicros, limits, "cadical", optimum.makespan);
    CHECK(sat.value <= optimum.makespan);
    ++compared;
    if (sat.value > makespan_lower_bound(made.placement, nmicros, limits)) ++raised;
    if (sat.value == optimum.makespan) ++tight;
    if (row.stages > 2) return;
    // Both backends on the same windows (Z3 is slow on the larger ones)
    // give the same bound.
    const ExactEnds small = ends_of(made.placement, nmicros, limits, "cadical", 0, 9);
    const ExactEnds smt = ends_of(made.placement, nmicros, limits, "z3", 0, 9);
    CHECK(smt.value <= optimum.makespan);
    CHECK(small.complete);
    if (smt.complete) CHECK(smt.value == small.value);
  });
  CHECK(compared == 20);
  CHECK(raised >= 4);  // above the closed bounds on some rows
  CHECK(tight >= 12);  // and the optimum itself on most
}

TEST_CASE("exact ends: never above the proven optimum of random pipelines under tight memory, both backends",
          "[makespan][full]") {
  std::mt19937 random(20261126);
  int compared = 0, raised = 0;
  for (int round = 0; round < 24; ++round) {
    INFO("round " << round);
    const std::optional<ProvenRound> proven = proven_round(random, round);
    if (!proven) continue;
    const Placement& placement = proven->placement;
    const int nmicros = proven->nmicros;
    const std::vector<Memory>& limits = proven->limits;
    const SearchResult& optimum = proven->optimum;
    const ExactEnds sat = ends_of(placement, nmicros, limits, "cadical", optimum.makespan);
    CHECK(sat.value <= optimum.makespan);
    ++compared;
    if (sat.value > makespan_lower_bound(placement, nmicros, limits)) ++raised;
    if (round % 3 != 1) continue;  // Z3 on a third of the rounds, on the same small windows as CaDiCaL
    const ExactEnds small = ends_of(placement, nmicros, limits, "cadical", 0, 9);
    const ExactEnds smt = ends_of(placement, nmicros, limits, "z3", 0, 9);
    CHECK(smt.value <= optimum.makespan);
    CHECK(small.complete);
    if (smt.complete) CHECK(smt.value == small.value);
  }
  CHECK(compared >= 20);
  CHECK(raised >= 3);
}

TEST_CASE("exact ends: the full search starts from them and settles a tie in one question", "[makespan][full]") {
  // Interleaved 1F1B, 4 ranks, 8 micro-batches, from the hand-made 92: the
  // closed bound is 88 and refuting 88..90 alone took the solver about a
  // minute; the exact ends prove 91 and one satisfiable question finds it.
  HandMade made = hand_made("interleaved-1f1b", 4, 8, 2, 2, 1);
  SearchOptions options;
  options.memory_limit = made.peaks;
  options.total_micros = 8;
  options.ends_seconds = 20;
  options.deadline = Deadline::after_seconds(120);
  std::vector<std::string> asked;
  options.progress = [&](const std::string& line) { asked.push_back(line); };
  SearchResult result = search_full(made.placement, options, made.schedule);
  REQUIRE(result.status == SearchStatus::Found);
  REQUIRE(result.makespan_bound);
  CHECK(result.makespan_bound->argument == BoundArgument::ExactEnds);
  CHECK(result.makespan_bound->value == 91);
  // Each window of the ends says what it proved (they can take seconds).
  const auto proved_91 = [](const std::string& line) {
    return line.rfind("exact ends: windows of ", 0) == 0 && line.find("makespan >= 91") != std::string::npos;
  };
  CHECK(std::count_if(asked.begin(), asked.end(), proved_91) >= 1);
  options.progress = nullptr;
  CHECK(result.makespan == 91);
  CHECK(result.proven_lower_bound == 91);
  CHECK(verify_schedule(*result.schedule).valid);
  CHECK(result.calls.size() == 1);
  // Without them the bisection starts from the closed bound.
  options.ends_seconds = 0;
  options.deadline = Deadline::after_seconds(0.5);
  SearchResult plain = search_full(made.placement, options, made.schedule);
  REQUIRE(plain.makespan_bound);
  CHECK(plain.makespan_bound->value == 88);
  CHECK(plain.makespan_bound->argument != BoundArgument::ExactEnds);
  // Given the bound its caller proved (the makespan search computes the
  // exact ends once, before its improvements), it starts from that bound
  // without asking the ends again: one question, as above.
  const MakespanBound proved = *result.makespan_bound;
  options.ends_seconds = 20;
  options.deadline = Deadline::after_seconds(120);
  std::vector<std::string> lines;
  options.progress = [&](const std::string& line) { lines.push_back(line); };
  SearchResult given = search_full(made.placement, options, made.schedule, &proved);
  for (const std::string& line : lines) CHECK(line.find("exact ends") == std::string::npos);
  REQUIRE(given.status == SearchStatus::Found);
  CHECK(given.makespan == 91);
  CHECK(given.proven_lower_bound == 91);
  CHECK(given.makespan_bound->argument == BoundArgument::ExactEnds);
  CHECK(given.calls.size() == 1);
  CHECK(verify_schedule(*given.schedule).valid);
}

TEST_CASE("exact ends: asked within one critical path of the bound; once run, not asked again", "[makespan]") {
  const Placement placement = make_case("vshape", 4, false);
  const Time path = critical_path(placement);
  REQUIRE(path > 0);
  CHECK_FALSE(exact_ends_ask(placement, 100, 100));            // nothing to prove
  CHECK(exact_ends_ask(placement, 101, 100));                  // one step above
  CHECK(exact_ends_ask(placement, 100 + path, 100));           // the gap one micro-batch can explain
  CHECK_FALSE(exact_ends_ask(placement, 101 + path, 100));     // a gap that grows with N

  // The report asks them again for a shorter best only when they did not
  // run before (skipped for the gap) and proved nothing.
  Candidates asked;
  asked.bound.value = 100;
  asked.ends_asked_at = 150;
  CHECK(asked.ends_settled(150));
  CHECK_FALSE(asked.ends_settled(120));  // skipped at 150; 120 may be within reach
  asked.ends_ran = true;
  CHECK(asked.ends_settled(120));
  Candidates raised;
  raised.bound.value = 110;
  raised.bound.argument = BoundArgument::ExactEnds;
  raised.ends_asked_at = 115;
  CHECK(raised.ends_settled(112));
  CHECK_FALSE(Candidates{}.ends_settled(112));  // never asked
}

TEST_CASE("encoding budget: an encoding is afforded by the time left at the knob's rate", "[makespan][budget]") {
  CHECK(affords_encoding(10, 1e12, Deadline::none()));
  const Deadline second = Deadline::after_seconds(1);
  CHECK(affords_encoding(10, 5, second));
  CHECK_FALSE(affords_encoding(10, 50, second));
  CHECK_FALSE(affords_encoding(1e9, 1, Deadline::after_seconds(0)));
}

TEST_CASE("exact ends: a window its time cannot afford is skipped with the reason, on spans x1000 only",
          "[makespan][budget]") {
  // The same chain on unit spans and on spans x1000: the same instances,
  // windows 1000 times longer. At 1000 terms a second and a 1 s budget the
  // unit windows are afforded, the scaled ones are not.
  for (const Time scale : {Time{1}, Time{1000}}) {
    const Placement placement =
        testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0},
                             {scale, scale, scale, scale}, {1, 1, -1, -1});
    ExactEndsInput input;
    static_cast<BoundQuestion&>(input) = testing::test_question(placement, 8, {2, 2}, "cadical");
    input.deadline = Deadline::after_seconds(1);
    input.terms_per_second = 1000;
    input.floor = makespan_lower_bound(placement, 8, {2, 2});
    std::vector<std::string> lines;
    input.progress = [&lines](const std::string& line) { lines.push_back(line); };
    const auto begin = Deadline::Clock::now();
    const ExactEnds ends = exact_ends_bound(input);
    const bool skipped = std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return line.find("skipped") != std::string::npos && line.find("encoding_terms_per_second") != std::string::npos;
    });
    INFO("scale " << scale);
    CHECK(skipped == (scale > 1));
    if (scale > 1) {
      CHECK_FALSE(ends.complete);
      CHECK(seconds_since(begin) < 0.5);
    }
  }
}

TEST_CASE("full search: its encoding's refusal is known before anything is spent", "[makespan][full]") {
  const Placement unit = testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0},
                                              {1, 1, 1, 1}, {1, 1, -1, -1});
  SearchOptions options;
  options.memory_limit = {2, 2};
  CHECK_FALSE(full_encoding_refusal(unit, options, 4, 20));
  const Placement scaled = testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0},
                                                {1000, 1000, 1000, 1000}, {1, 1, -1, -1});
  const std::optional<std::string> why = full_encoding_refusal(scaled, options, 128, 600000);
  REQUIRE(why);
  CHECK(why->find("too many for strategy full") != std::string::npos);
}
