// The repetend's pattern for every micro-batch, compacted
// (solver/makespan/constructions/modulo_compacted.hpp): on the paper's placements, windows
// of one and two micro-batches, and any N (below the micro-batches in
// flight, a few windows, 128), the result holds exactly N micro-batches and
// passes the verifier within the search's memory limits, never longer than
// the modulo schedule it comes from (one micro-batch per window); a schedule without a repetend claim
// gives nothing; and on kshape, 16 devices, memory 16 it reaches the
// makespan bound that the squeezed warmup and cooldown miss.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/modulo_compacted.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

verify::Report checked(const Schedule& schedule) {
  const verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
  return report;
}

SearchResult repetend_of(const Placement& placement, Memory limit, int micros_per_window) {
  SearchOptions options;
  options.memory_limit.assign(placement.ndevs, limit);
  options.micros_per_window = micros_per_window;
  options.threads = 1;
  options.deadline = Deadline::after_seconds(120);  // a hang guard
  SearchResult found = search_repetend(placement, options);
  REQUIRE(found.schedule);
  REQUIRE(found.schedule->repetend);
  return found;
}

}  // namespace

TEST_CASE("modulo compacted: valid at any N, exactly N micro-batches, within the limits", "[makespan][modulo]") {
  const char* names[] = {"vshape", "xshape", "mshape", "kshape", "nnshape"};
  for (const char* name : names)
    for (int micros_per_window : {1, 2}) {
      const Placement placement = make_case(name, 4, false);
      const SearchResult found = repetend_of(placement, 4, micros_per_window);
      for (int nmicros : {1, std::max(1, found.in_flight - 1), 3 * found.in_flight + 1, 128}) {
        INFO(name << ", k = " << micros_per_window << ", N = " << nmicros);
        const std::optional<Schedule> compact = modulo_compacted(*found.schedule, nmicros);
        REQUIRE(compact);
        CHECK(compact->nmicros == nmicros);
        CHECK(compact->instances.size() == placement.blocks.size() * static_cast<size_t>(nmicros));
        CHECK(!compact->repetend);
        const verify::Report report = checked(*compact);
        for (int device = 0; device < placement.ndevs; ++device) CHECK(report.peak_memory[device] <= 4);
        // Never longer than the plain modulo schedule (one window: N
        // micro-batches a period apart, each one latency long).
        if (micros_per_window == 1) CHECK(report.makespan <= (nmicros - 1) * found.period + found.latency);
      }
    }
}

TEST_CASE("modulo compacted: nothing without a repetend claim", "[makespan][modulo]") {
  const Placement placement = make_case("vshape", 4, false);
  SearchResult found = repetend_of(placement, 4, 1);
  Schedule plain = unroll(*found.schedule, 16);
  plain.repetend.reset();
  CHECK(!modulo_compacted(plain, 16));
  CHECK(!modulo_compacted(*found.schedule, 0));
}

TEST_CASE("modulo compacted: kshape on 16 devices reaches the makespan bound", "[makespan][modulo]") {
  // Its squeezed warmup and cooldown give 803-810 at 128 depending on how
  // far the boundary solver got; the pattern compacted gives the bound.
  const Placement placement = make_case("kshape", 16, false);
  const SearchResult found = repetend_of(placement, 16, 1);
  const std::optional<Schedule> compact = modulo_compacted(*found.schedule, 128);
  REQUIRE(compact);
  const verify::Report report = checked(*compact);
  const std::vector<Memory> limits(16, 16);
  CHECK(report.makespan == makespan_lower_bound(placement, 128, limits));
  CHECK(report.makespan < makespan(unroll(*found.schedule, 128)));
}
