// The two no-overlap encodings of the CaDiCaL backend (sat/no_overlap_size.hpp):
// which one is chosen, and that both give the same optimum, as Z3 does,
// on small random problems: intervals on two lines, chained by differences,
// their last end minimised; every model checked for overlaps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "sat/backend.hpp"
#include "sat/no_overlap_size.hpp"

using namespace tessel;

namespace {

struct Job {
  int lo = 0, hi = 0, span = 1, line = 0;
};

struct Problem {
  std::vector<Job> jobs;
  std::vector<std::pair<int, int>> chains;  // (before, after): after starts once before ends
};

// A random problem whose jobs, laid end to end on their line from 0, fit
// their domains (so there is always a solution); spans times `scale`.
Problem random_problem(std::mt19937& random, int scale) {
  Problem problem;
  const int count = 3 + static_cast<int>(random() % 4);
  std::vector<int> free_at(2, 0), laid;
  for (int i = 0; i < count; ++i) {
    Job job;
    job.line = static_cast<int>(random() % 2);
    job.span = scale * (1 + static_cast<int>(random() % 3));
    const int at = free_at[job.line] + static_cast<int>(random() % 2) * scale;
    free_at[job.line] = at + job.span;
    laid.push_back(at);
    job.lo = std::max(0, at - scale * static_cast<int>(random() % 4));
    job.hi = at + scale * static_cast<int>(random() % 4);
    problem.jobs.push_back(job);
  }
  for (int i = 1; i < count; ++i)
    if (random() % 3 == 0 && problem.jobs[i - 1].line != problem.jobs[i].line &&
        laid[i - 1] + problem.jobs[i - 1].span <= laid[i])
      problem.chains.push_back({i - 1, i});
  return problem;
}

// The least last end (-1: no solution), each model checked.
int least_end(const Problem& problem, const std::string& name, int no_overlap) {
  BackendSettings settings;
  settings.no_overlap = no_overlap;
  auto backend = make_backend(name, settings);
  std::vector<IntVar> start;
  for (const Job& job : problem.jobs) start.push_back(backend->new_int(job.lo, job.hi));
  for (const auto& [before, after] : problem.chains)
    backend->add_difference(start[after], start[before], problem.jobs[before].span);
  for (int line = 0; line < 2; ++line) {
    std::vector<IntVar> starts;
    std::vector<int> spans;
    for (size_t i = 0; i < problem.jobs.size(); ++i)
      if (problem.jobs[i].line == line) starts.push_back(start[i]), spans.push_back(problem.jobs[i].span);
    if (starts.size() > 1) backend->add_no_overlap(starts, spans);
  }
  int best = -1;
  for (int bound = 1 << 30;;) {
    std::vector<Lit> assumptions;
    for (size_t i = 0; i < problem.jobs.size(); ++i)
      assumptions.push_back(backend->at_most(start[i], bound - problem.jobs[i].span));
    if (backend->solve(assumptions, Deadline::none()) != Answer::Sat) return best;
    int end = 0;
    for (size_t i = 0; i < problem.jobs.size(); ++i) {
      const Job& a = problem.jobs[i];
      const int at = backend->value(start[i]);
      REQUIRE(at >= a.lo);
      REQUIRE(at <= a.hi);
      end = std::max(end, at + a.span);
      for (size_t j = i + 1; j < problem.jobs.size(); ++j) {
        const int other = backend->value(start[j]);
        if (problem.jobs[j].line == a.line) REQUIRE((at + a.span <= other || other + problem.jobs[j].span <= at));
      }
    }
    for (const auto& [before, after] : problem.chains)
      REQUIRE(backend->value(start[after]) >= backend->value(start[before]) + problem.jobs[before].span);
    best = end;
    bound = end - 1;
  }
}

}  // namespace

TEST_CASE("no-overlap size: time-indexed on unit spans, pairwise on long spans over narrow domains",
          "[backend][no_overlap]") {
  // Unit spans, wide domains (a full search): many pairs may meet.
  std::vector<NoOverlapInterval> wide;
  for (int i = 0; i < 20; ++i) wide.push_back({0, 40, 1 + i % 3});
  const NoOverlapSize unit = no_overlap_size(wide);
  CHECK(unit.encoding == NoOverlapEncoding::TimeIndexed);
  CHECK(unit.literals == unit.time_indexed_literals);
  // Spans of a thousand ticks, domains of +-4 around back-to-back starts
  // (the shift search on measured costs): only neighbours may meet.
  std::vector<NoOverlapInterval> measured;
  for (int i = 0; i < 20; ++i) measured.push_back({1000LL * i - 4, 1000LL * i + 4, 1000});
  const NoOverlapSize scaled = no_overlap_size(measured);
  CHECK(scaled.encoding == NoOverlapEncoding::Pairwise);
  CHECK(scaled.time_indexed_literals == 20 * (9 + 1000));
  CHECK(scaled.literals == 0);  // the domains decide every order: unguarded differences only
  CHECK(scaled.pairwise_clauses < scaled.time_indexed_literals);
  // Among them, two long intervals that may come in either order: one
  // order literal.
  std::vector<NoOverlapInterval> two_free = {{0, 2000, 1000}, {0, 2000, 1000}};
  for (int i = 2; i < 40; ++i) two_free.push_back({1000LL * (i + 1) - 4, 1000LL * (i + 1) + 4, 1000});
  const NoOverlapSize either = no_overlap_size(two_free);
  CHECK(either.encoding == NoOverlapEncoding::Pairwise);
  CHECK(either.literals == 1);
  // Two free instances on unit spans over wide domains (a neighbourhood's
  // window): pairwise is barely smaller, and the time-indexed encoding stays.
  CHECK(no_overlap_size({{0, 30, 2}, {0, 30, 2}}).encoding == NoOverlapEncoding::TimeIndexed);
  // Forcing one counts its own literals.
  CHECK(no_overlap_size(measured, NoOverlapEncoding::TimeIndexed).literals == scaled.time_indexed_literals);
  CHECK(no_overlap_size(wide, NoOverlapEncoding::Pairwise).literals > 0);
}

TEST_CASE("no-overlap pair orders follow the domains", "[backend][no_overlap]") {
  CHECK(pair_order({0, 2, 3}, {5, 9, 2}) == PairOrder::Apart);         // a ends by 5 whatever
  CHECK(pair_order({0, 4, 3}, {5, 9, 2}) == PairOrder::FirstBefore);   // b can never end by 4
  CHECK(pair_order({5, 9, 2}, {0, 4, 3}) == PairOrder::SecondBefore);
  CHECK(pair_order({0, 9, 3}, {0, 9, 2}) == PairOrder::Either);
  CHECK(pair_order({3, 3, 3}, {4, 4, 3}) == PairOrder::Impossible);
}

TEST_CASE("no-overlap: pairwise and time-indexed give the same optimum, as Z3 does", "[backend][no_overlap]") {
  std::mt19937 random(48);
  int compared = 0;
  for (int scale : {1, 50}) {
    for (int round = 0; round < 60; ++round) {
      const Problem problem = random_problem(random, scale);
      INFO("scale " << scale << ", round " << round);
      const int indexed = least_end(problem, "cadical", 1);
      REQUIRE(indexed > 0);  // laid end to end, the jobs fit their domains
      CHECK(least_end(problem, "cadical", 2) == indexed);
      CHECK(least_end(problem, "cadical", 0) == indexed);
      CHECK(least_end(problem, "z3", 0) == indexed);
      ++compared;
    }
  }
  CHECK(compared == 120);
}

TEST_CASE("no-overlap pairwise: a pair no order fits is unsatisfiable", "[backend][no_overlap]") {
  BackendSettings settings;
  settings.no_overlap = 2;
  auto backend = make_backend("cadical", settings);
  const IntVar a = backend->new_int(3, 3), b = backend->new_int(4, 4);
  backend->add_no_overlap({a, b}, {3, 3});
  CHECK(backend->solve({}, Deadline::none()) == Answer::Unsat);
}
