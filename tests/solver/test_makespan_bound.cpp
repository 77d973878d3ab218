// The makespan lower bounds (solver/makespan/closed_bound/makespan_bound): the idle-aware bound on
// the paper's all-device placements, and its soundness — a bound above an
// optimum the full solver proves is a bug, so it is checked against proven
// optima of the built-in cases and of random placements, on both backends.
#include <catch2/catch.hpp>

#include <random>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

SearchResult proven_full(const Placement& placement, int nmicros, std::vector<long long> memory,
                         const std::string& backend) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = std::move(memory);
  options.total_micros = nmicros;
  options.deadline = Deadline::after_seconds(20);
  return search_full(placement, options);
}

// A random DAG of one micro-batch on `ndevs` devices: some blocks on one
// device, some on several (tensor-parallel), spans 1-3, no memory.
Placement random_placement(std::mt19937& random, int ndevs, int nblocks) {
  Placement placement;
  placement.name = "random";
  placement.ndevs = ndevs;
  std::uniform_int_distribution<int> span(1, 3), device(0, ndevs - 1), coin(0, 3);
  for (int b = 0; b < nblocks; ++b) {
    Block block;
    block.id = "b" + std::to_string(b);
    block.span = span(random);
    if (coin(random) == 0) {
      for (int d = 0; d < ndevs; ++d) block.devices.push_back(d);
    } else {
      block.devices = {device(random)};
      if (coin(random) == 0) {
        int other = device(random);
        if (other != block.devices[0]) block.devices.push_back(other);
        std::sort(block.devices.begin(), block.devices.end());
      }
    }
    placement.blocks.push_back(block);
    // Edges only forward (acyclic); a chain with a few extra edges.
    if (b > 0) placement.edges.push_back({b - 1, b});
    if (b > 1 && coin(random) == 0) placement.edges.push_back({b - 2, b});
  }
  return placement;
}

}  // namespace

TEST_CASE("makespan bound: the all-device placements idle while the first and last micro-batch travel",
          "[makespan]") {
  // mshape, 4 devices: device 3 idles during f0, f1, f2 of the first
  // micro-batch and b2, b1, b0 of the last (3 + 9 steps); the simple bound
  // sees head = tail = 0 because fs and bs run on every device.
  MakespanBound mshape = makespan_bound(make_case("mshape", 4, false), 128);
  CHECK(mshape.simple == 768);
  CHECK(mshape.value == 780);
  CHECK(mshape.device == 3);
  CHECK(mshape.idle_head == 3);
  CHECK(mshape.idle_tail == 9);
  MakespanBound nnshape = makespan_bound(make_case("nnshape", 4, false), 128);
  CHECK(nnshape.simple == 1024);
  CHECK(nnshape.value == 1036);
  // Without all-device blocks the two bounds agree.
  MakespanBound vshape = makespan_bound(make_case("vshape", 4, false), 128);
  CHECK(vshape.value == vshape.simple);
  CHECK(vshape.value == 524);
  // 8 devices: 7 forwards before the last device, 7 backwards after it.
  CHECK(makespan_lower_bound(make_case("mshape", 8, false), 128) == 128 * 6 + 7 + 21);
}

TEST_CASE("makespan bound: never above the proven optimum of the built-in cases", "[makespan][full]") {
  struct Instance {
    const char* name;
    int nmicros;
    long long memory;
  };
  // Small enough for the full solver to prove the optimum in well under a second.
  const Instance instances[] = {{"mshape", 1, 4}, {"mshape", 2, 4}, {"mshape", 4, 4}, {"mshape", 3, 6},
                                {"nnshape", 2, 4}, {"nnshape", 3, 6}, {"kshape", 3, 4}, {"xshape", 2, 4},
                                {"vshape", 3, 4}, {"mllm", 2, 4},   {"finetune", 3, 4}, {"alphafold", 2, 4}};
  for (const Instance& instance : instances) {
    Placement placement = make_case(instance.name, 4, false);
    std::vector<long long> memory(4, instance.memory);
    SearchResult result = proven_full(placement, instance.nmicros, memory, "cadical");
    INFO(instance.name << " N=" << instance.nmicros << " memory " << instance.memory);
    REQUIRE(result.status == SearchStatus::Found);
    REQUIRE(result.makespan == result.proven_lower_bound);  // proven optimal
    CHECK(testing::verify_schedule(*result.schedule).valid);
    CHECK(makespan_lower_bound(placement, instance.nmicros) <= result.makespan);
  }
  // mshape under memory 4 reaches the idle-aware bound exactly at 4
  // micro-batches (6 N + 12 = 36): the bound is tight there.
  SearchResult tight = proven_full(make_case("mshape", 4, false), 4, std::vector<long long>(4, 4), "cadical");
  REQUIRE(tight.status == SearchStatus::Found);
  CHECK(tight.makespan == 36);
  CHECK(makespan_lower_bound(make_case("mshape", 4, false), 4) == 36);
}

TEST_CASE("makespan bound: never above the proven optimum of random placements, both backends agree",
          "[makespan][full]") {
  std::mt19937 random(20261122);
  int tight = 0;
  for (int round = 0; round < 40; ++round) {
    const int ndevs = 2 + round % 3;
    Placement placement = random_placement(random, ndevs, 4 + round % 3);
    const int nmicros = 1 + round % 3;
    SearchResult sat = proven_full(placement, nmicros, {}, "cadical");
    INFO("round " << round << ", " << ndevs << " devices, N=" << nmicros);
    REQUIRE(sat.status == SearchStatus::Found);
    REQUIRE(sat.makespan == sat.proven_lower_bound);
    CHECK(testing::verify_schedule(*sat.schedule).valid);
    MakespanBound bound = makespan_bound(placement, nmicros);
    CHECK(bound.simple <= bound.value);
    CHECK(bound.value <= sat.makespan);
    if (bound.value == sat.makespan) ++tight;
    if (round % 4 == 0) {  // Z3 is slower: a tenth of the rounds
      SearchResult smt = proven_full(placement, nmicros, {}, "z3");
      REQUIRE(smt.status == SearchStatus::Found);
      CHECK(smt.makespan == sat.makespan);
      CHECK(testing::verify_schedule(*smt.schedule).valid);
    }
  }
  // Not vacuous: the bound meets the optimum on many of them.
  CHECK(tight >= 10);
}

TEST_CASE("makespan bound: memory limits add the warmup idle they force, never above a proven optimum",
          "[makespan][full]") {
  // xshape, 16 devices, memory 16: device 7 starts at 7, its first backward
  // cannot start before 37, and 16 forwards of span 1 fill only 16 of those
  // 30 steps: 7 + 14 + 128 x 8 + 21 = 1066, where the list schedule lands.
  const Placement xshape = make_case("xshape", 16, false);
  const std::vector<Memory> limits(16, 16);
  MakespanBound bound = makespan_bound(xshape, 128, limits);
  CHECK(makespan_bound(xshape, 128).value == 1052);
  CHECK(bound.value == 1066);
  CHECK(bound.memory_idle == 14);
  std::optional<ListBest> list = best_list_schedule(xshape, limits, 128);
  REQUIRE(list);
  CHECK(testing::verify_schedule(list->schedule).valid);
  CHECK(makespan(list->schedule) == bound.value);
  // Memory 32 leaves room for all 30 forwards: no memory term.
  CHECK(makespan_bound(xshape, 128, std::vector<Memory>(16, 32)).memory_idle == 0);

  // Soundness under tight limits: the full solver's proven optima.
  struct Instance {
    const char* name;
    int ndevs;
    int nmicros;
    long long memory;
  };
  const Instance instances[] = {{"xshape", 4, 4, 2}, {"xshape", 4, 4, 3}, {"xshape", 4, 3, 4}, {"vshape", 4, 5, 1},
                                {"vshape", 4, 6, 2}, {"mshape", 4, 4, 2}, {"nnshape", 4, 3, 3}, {"kshape", 4, 4, 2},
                                {"mllm", 4, 3, 3},   {"xshape", 6, 4, 3}, {"vshape", 6, 6, 2}};
  int raised = 0;
  for (const Instance& instance : instances) {
    Placement placement = make_case(instance.name, instance.ndevs, false);
    std::vector<long long> memory(instance.ndevs, instance.memory);
    SearchResult result = proven_full(placement, instance.nmicros, memory, "cadical");
    INFO(instance.name << " " << instance.ndevs << " devices, N=" << instance.nmicros << " memory "
                       << instance.memory);
    if (result.status == SearchStatus::Infeasible) continue;
    REQUIRE(result.status == SearchStatus::Found);
    REQUIRE(result.makespan == result.proven_lower_bound);
    CHECK(testing::verify_schedule(*result.schedule).valid);
    MakespanBound aware = makespan_bound(placement, instance.nmicros, memory);
    CHECK(aware.value <= result.makespan);
    CHECK(aware.value >= makespan_bound(placement, instance.nmicros).value);
    if (aware.memory_idle > 0) ++raised;
  }
  // Not vacuous: the memory term raises the bound on some of them.
  CHECK(raised >= 3);
}
