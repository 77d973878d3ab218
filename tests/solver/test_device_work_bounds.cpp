// Device work bounds (solver/makespan/bounds/device_work_bounds.hpp): worked by hand on a
// two-device V, then checked against valid schedules of many placements:
// with each block's copies sorted by start (the full encoding's symmetry),
// every start lies between its head and the makespan minus its tail.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/bounds/device_work_bounds.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "tests/placements.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

namespace tessel {
namespace {

using testing::hand_made;
using testing::random_pipeline;
using testing::tensor_parallel_with_delays;
using testing::verify_schedule;

// f0 (device 0, span 1) -> f1 (device 1, span 2) -> b1 (device 1, span 2) -> b0 (device 0, span 1).
Placement small_v() {
  return testing::block_chain("small V", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0}, {1, 2, 2, 1}, {0, 0, 0, 0});
}

// Each block's copies sorted by start: the schedule the full encoding's
// symmetry keeps (valid by the matching argument).
std::vector<std::vector<Time>> sorted_starts(const Schedule& schedule) {
  std::vector<std::vector<Time>> starts(schedule.placement.blocks.size());
  for (const Instance& instance : schedule.instances) starts[instance.block].push_back(instance.start);
  for (std::vector<Time>& copies : starts) std::sort(copies.begin(), copies.end());
  return starts;
}

// How many instances the bounds were checked on; a violation fails the test.
int check_within_bounds(const Schedule& schedule) {
  const DeviceWorkBounds bounds(schedule.placement, schedule.nmicros);
  const std::vector<std::vector<Time>> starts = sorted_starts(schedule);
  const Time length = makespan(schedule);
  int checked = 0;
  for (size_t b = 0; b < starts.size(); ++b)
    for (size_t micro = 0; micro < starts[b].size(); ++micro) {
      INFO(schedule.placement.name << ", block " << schedule.placement.blocks[b].id << " copy " << micro);
      CHECK(bounds.head(static_cast<int>(b), static_cast<long long>(micro)) <= starts[b][micro]);
      CHECK(starts[b][micro] + bounds.tail(static_cast<int>(b), static_cast<long long>(micro)) <= length);
      ++checked;
    }
  return checked;
}

int check_list_schedules(const Placement& placement, const std::vector<Memory>& limits, int nmicros) {
  int checked = 0;
  for (const ListRun& run : list_portfolio(placement, nmicros)) {
    std::optional<std::vector<Instance>> instances = list_schedule(placement, limits, nmicros, run);
    if (!instances) continue;
    Schedule schedule = empty_schedule(placement, limits, nmicros);
    schedule.instances = *instances;
    REQUIRE(verify_schedule(schedule).valid);
    checked += check_within_bounds(schedule);
  }
  return checked;
}

// Heads (or tails) of copies 0..nmicros-1 of `block`.
std::vector<Time> heads_of(const DeviceWorkBounds& bounds, int block, int nmicros) {
  std::vector<Time> heads;
  for (int micro = 0; micro < nmicros; ++micro) heads.push_back(bounds.head(block, micro));
  return heads;
}

std::vector<Time> tails_of(const DeviceWorkBounds& bounds, int block, int nmicros) {
  std::vector<Time> tails;
  for (int micro = 0; micro < nmicros; ++micro) tails.push_back(bounds.tail(block, micro));
  return tails;
}

}  // namespace

TEST_CASE("device work bounds: a two-device V, worked by hand", "[makespan][full]") {
  const DeviceWorkBounds bounds(small_v(), 5);
  // f1: copy m after copies 0..m-1 of itself (span 2) on device 1, from its
  // chain head 1; before copies m..4 of f1 and b1 (4 per micro-batch), the
  // last of them a b1 (nothing after it on device 1 but b0's 1 step).
  CHECK(heads_of(bounds, 1, 5) == std::vector<Time>{1, 3, 5, 7, 9});
  CHECK(tails_of(bounds, 1, 5) == std::vector<Time>{21, 17, 13, 9, 5});
  // b0: after copies 0..m of f0 and 0..m-1 of itself on device 0 (from 0),
  // never before its chain head 5; the copies m..4 of itself after it.
  CHECK(heads_of(bounds, 3, 5) == std::vector<Time>{5, 5, 5, 7, 9});
  CHECK(tails_of(bounds, 3, 5) == std::vector<Time>{5, 4, 3, 2, 1});
  // f0: the chain of one micro-batch (6) until the copies on device 0 weigh more.
  CHECK(tails_of(bounds, 0, 5) == std::vector<Time>{10, 8, 6, 6, 6});
  // The optimum is 22 (device 1 busy 20 steps from step 1, then one b0):
  // copy 0 of f1 alone proves it.
  CHECK(bounds.head(1, 0) + bounds.tail(1, 0) == 22);
}

TEST_CASE("device work bounds: every list schedule of random pipelines with delays lies within them",
          "[makespan][full]") {
  std::mt19937 random(20261125);
  int checked = 0;
  for (int round = 0; round < 12; ++round) {
    const int ndevs = 2 + round % 3;
    const bool fold = round % 2 == 0;
    Placement placement = random_pipeline(random, ndevs, fold ? 2 * ndevs : ndevs + 1, fold);
    std::uniform_int_distribution<int> delay(0, 2);
    for (Edge& edge : placement.edges) edge.delay = delay(random);
    std::vector<Memory> limits = testing::one_micro_peaks(placement);
    for (Memory& limit : limits) limit += round % 3;
    checked += check_list_schedules(placement, limits, 3 + round % 4);
  }
  CHECK(checked > 1000);
}

TEST_CASE("device work bounds: hand-made schedules and tensor-parallel cases lie within them", "[makespan][full]") {
  int checked = 0;
  for (const char* scheme : {"1f1b", "interleaved-1f1b", "zb-v", "v-half", "dualpipev"})
    checked += check_within_bounds(hand_made(scheme, 4, 8, 2, 2, 1).schedule);
  for (const char* name : {"mshape", "mllm", "kshape", "nnshape"}) {
    const Placement placement = make_case(name, 4, false);
    checked += check_list_schedules(placement, std::vector<Memory>(4, 8), 6);
  }
  const Placement delays = tensor_parallel_with_delays();
  checked += check_list_schedules(delays, std::vector<Memory>(delays.ndevs, 16), 4);
  CHECK(checked > 1000);
}

}  // namespace tessel
