// The trace checker (trace/trace_check.hpp) on hand-made traces of a real
// plan (a tiny GPT, V mapping, split backward, 4 ranks, 4 micro-batches):
// a run as planned conforms on the plan's own scale; two actions of a rank
// swapped, one missing or one extra are named; a forward that takes three
// times its planned time is found on its rank and its next stage waits; a
// planned recompute is matched with its range inside its backward.
#include <catch2/catch.hpp>

#include "model/schedule_json.hpp"
#include "tests/support.hpp"
#include "tests/trace/trace_fixture.hpp"
#include "trace/trace_check.hpp"
#include "trace/trace_report.hpp"

using namespace tessel;
using tessel::testing::kMicrosPerStep;
using tessel::testing::simulated_trace;

namespace {

Schedule gpt_plan() {
  return read_schedule_file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/runtime/gpt_v4_split.schedule.json");
}

const RankTime& rank_time(const TraceCheck& check, int rank) { return check.rank_times.at(rank); }

}  // namespace

TEST_CASE("a run as planned conforms, on the plan's own scale", "[trace]") {
  const Schedule schedule = gpt_plan();
  const TraceCheck check = check_trace(schedule, simulated_trace(schedule));
  REQUIRE(check.mismatch.conforms);
  CHECK(check.ranks == 4);
  CHECK(check.steps == 1);
  CHECK(check.scale == Approx(kMicrosPerStep));
  // Sends and receives take a microsecond each: the step is the plan's makespan, plus a few.
  REQUIRE(check.step_times.size() == 1);
  CHECK(check.step_times[0] >= makespan(schedule) * kMicrosPerStep);
  CHECK(check.step_times[0] < makespan(schedule) * kMicrosPerStep + 100);
  CHECK(check.lower_bound <= check.planned_makespan);
  for (const RankTime& t : check.rank_times) CHECK(t.over_plan == Approx(0).margin(1e-9));
  CHECK(check.slowest.front().ratio == Approx(1.0));
}

TEST_CASE("two actions of a rank swapped are named with their positions", "[trace]") {
  const Schedule schedule = gpt_plan();
  auto trace = simulated_trace(schedule);
  // Rank 1's first two compute actions, in the trace, ran in the other order.
  std::vector<size_t> compute;
  for (size_t i = 0; i < trace[1].size() && compute.size() < 2; ++i)
    if (trace[1][i].kind == "F") compute.push_back(i);
  std::string first = trace[1][compute[0]].name, second = trace[1][compute[1]].name;
  std::swap(trace[1][compute[0]].name, trace[1][compute[1]].name);
  const TraceCheck check = check_trace(schedule, trace);
  REQUIRE_FALSE(check.mismatch.conforms);
  CHECK(check.mismatch.rank == 1);
  CHECK(check.mismatch.position == static_cast<int>(compute[0]));
  CHECK(check.mismatch.planned == first);
  CHECK(check.mismatch.ran == second);
  CHECK(check.mismatch.ran_planned_at == static_cast<int>(compute[1]));
  CHECK_THAT(trace_check_text(check), Catch::Contains("rank 1, step 1, action " + std::to_string(compute[0] + 1) +
                                                      ": planned PP:" + first + ", ran PP:" + second));
}

TEST_CASE("a missing or an extra action is named", "[trace]") {
  const Schedule schedule = gpt_plan();
  auto missing = simulated_trace(schedule);
  const std::string last = missing[2].back().name;
  missing[2].pop_back();
  TraceCheck check = check_trace(schedule, missing);
  REQUIRE_FALSE(check.mismatch.conforms);
  CHECK(check.mismatch.rank == 2);
  CHECK(check.mismatch.planned == last);
  CHECK(check.mismatch.ran.empty());

  // An action run twice: the second run is where the plan has the next one.
  auto extra = simulated_trace(schedule);
  extra[0].insert(extra[0].begin() + 3, extra[0][2]);
  check = check_trace(schedule, extra);
  REQUIRE_FALSE(check.mismatch.conforms);
  CHECK(check.mismatch.rank == 0);
  CHECK(check.mismatch.position == 3);
  CHECK(check.mismatch.ran == extra[0][2].name);
  CHECK(check.mismatch.ran_planned_at == 2);

  // An action past the end of a rank's last step: that rank, in that step
  // (the steps were rounded up once, and rank 0 was said to end early).
  auto beyond = simulated_trace(schedule);
  TracedAction again = beyond[3].back();
  again.start += 1;
  beyond[3].push_back(again);
  check = check_trace(schedule, beyond);
  REQUIRE_FALSE(check.mismatch.conforms);
  CHECK(check.mismatch.rank == 3);
  CHECK(check.mismatch.step == 0);
  CHECK(check.steps == 1);
  CHECK_THAT(check.mismatch.reason, Catch::Contains("rank 3, step 1,") && Catch::Contains("after the last planned action"));
}

TEST_CASE("a forward three times its planned time is put on its rank", "[trace]") {
  const Schedule schedule = gpt_plan();
  const TraceCheck plain = check_trace(schedule, simulated_trace(schedule));
  // Stage 1 runs on rank 1 (V mapping: stages 0..3 down the ranks).
  const TraceCheck slow = check_trace(schedule, simulated_trace(schedule, {{"1F0", 3.0}}));
  REQUIRE(slow.mismatch.conforms);
  REQUIRE_FALSE(slow.slowest.empty());
  CHECK(slow.slowest.front().name == "1F0");
  CHECK(slow.slowest.front().rank == 1);
  CHECK(slow.slowest.front().ratio == Approx(3.0));
  // Its excess is rank 1's alone, and the step got longer.
  CHECK(rank_time(slow, 1).over_plan == Approx(2 * slow.slowest.front().planned));
  for (int r : {0, 2, 3}) CHECK(rank_time(slow, r).over_plan == Approx(0).margin(1e-9));
  CHECK(slow.step_times[0] > plain.step_times[0]);
  // The next stage's rank waits for it, longer than in the plain run.
  CHECK(rank_time(slow, 2).dependency_wait > rank_time(plain, 2).dependency_wait + 100);
  CHECK_THAT(trace_check_text(slow), Catch::Contains("most compute over plan: rank 1") &&
                                         Catch::Contains("slowest action PP:1F0 on rank 1 at 3.00x"));
}

TEST_CASE("two steps are matched step by step; compute-only traces are held to compute", "[trace]") {
  const Schedule schedule = gpt_plan();
  auto trace = simulated_trace(schedule);
  const double shift = makespan(schedule) * kMicrosPerStep * 2;
  for (auto& rank : trace) {
    size_t count = rank.size();
    for (size_t i = 0; i < count; ++i) {
      TracedAction again = rank[i];
      again.start += shift;
      rank.push_back(again);
    }
  }
  TraceCheck check = check_trace(schedule, trace);
  REQUIRE(check.mismatch.conforms);
  CHECK(check.steps == 2);
  CHECK(check.step_times.size() == 2);
  CHECK(check.step_times[0] == Approx(check.step_times[1]));

  for (auto& rank : trace)
    rank.erase(std::remove_if(rank.begin(), rank.end(), [](const TracedAction& a) { return a.kind.find('_') != std::string::npos; }),
               rank.end());
  check = check_trace(schedule, trace);
  CHECK(check.mismatch.conforms);
  CHECK(check.steps == 2);
}

TEST_CASE("a planned recompute is matched with its range inside the backward that needs it", "[trace]") {
  // `tessel plan --recompute all` of the tiny GPT on 2 ranks (chain, N = 4): every forward recomputed.
  const Schedule schedule =
      read_schedule_file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/runtime/gpt_chain2_recompute.schedule.json");
  REQUIRE(schedule.recomputes.size() == 8);
  const auto planned = planned_actions(schedule);
  const auto at = [&](int rank, const std::string& name) {
    return std::find(planned[rank].begin(), planned[rank].end(), name) - planned[rank].begin();
  };
  CHECK(at(1, "tessel:recompute 1F2") == at(1, "1B2") + 1);
  CHECK(at(0, "tessel:recompute 0F0") == at(0, "0B0") + 1);

  auto trace = simulated_trace(schedule);
  TraceCheck check = check_trace(schedule, trace);
  REQUIRE(check.mismatch.conforms);
  // Recomputing is compute, counted once: the backward's own time is what is left of its range.
  for (const RankTime& t : check.rank_times) {
    CHECK(t.recompute > 0);
    CHECK(t.over_plan == Approx(0).margin(1e-6));
  }
  CHECK_THAT(trace_check_text(check), Catch::Contains("recomputing"));

  SECTION("a recompute that leaves its backward's range is named") {
    auto& rank = trace[1];
    auto inner = std::find_if(rank.begin(), rank.end(), [](const TracedAction& a) { return a.name == "tessel:recompute 1F2"; });
    REQUIRE(inner != rank.end());
    const TracedAction& outer = *(inner - 1);
    inner->start = outer.start + outer.duration - 1;
    check = check_trace(schedule, trace);
    REQUIRE_FALSE(check.mismatch.conforms);
    CHECK_THAT(check.mismatch.reason, Catch::Contains("tessel:recompute 1F2 ran outside PP:1B2"));
  }
  SECTION("a missing recompute is named where the plan has it") {
    auto& rank = trace[1];
    rank.erase(std::find_if(rank.begin(), rank.end(), [](const TracedAction& a) { return a.name == "tessel:recompute 1F2"; }));
    check = check_trace(schedule, trace);
    REQUIRE_FALSE(check.mismatch.conforms);
    CHECK_THAT(check.mismatch.reason, Catch::Contains("planned tessel:recompute 1F2, ran PP:"));
  }
}

TEST_CASE("a plan that offloads is refused as input naming its transfers", "[trace]") {
  Schedule schedule =
      read_schedule_file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/runtime/gpt_chain2_recompute.schedule.json");
  REQUIRE_NOTHROW(planned_actions(schedule));
  schedule.transfers.push_back({0, 0, TransferDirection::Out, 1});
  CHECK_THROWS_WITH(planned_actions(schedule), Catch::Contains("transfers") && Catch::Contains("cannot be checked"));
}

TEST_CASE("the lower bound of a plan that may recompute never passes a schedule that recomputes", "[trace][recompute]") {
  // `tessel search` on 1F1B's placement (4 stages, N = 16) with every forward offering recomputation, at
  // memory 2: 62 with recomputes. Keeping every activation, memory 2 forces idle that bounds it at 82
  // (memory-time): that argument does not hold once a forward may drop its activation.
  const Schedule schedule = read_schedule_file(std::string(TESSEL_SOURCE_DIR) +
                                               "/tests/data/trace/1f1b4_recompute_memory2.schedule.json");
  REQUIRE_FALSE(schedule.recomputes.empty());
  CHECK(tessel::testing::verify_schedule(schedule).valid);
  const TraceCheck check = check_trace(schedule, simulated_trace(schedule));
  REQUIRE(check.mismatch.conforms);
  CHECK(check.planned_makespan == 62);
  CHECK(check.lower_bound > 0);
  CHECK(check.lower_bound <= check.planned_makespan);
}

