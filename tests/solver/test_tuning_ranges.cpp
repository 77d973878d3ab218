// Every knob of the tuning table (solver/knobs/tuning.hpp) refuses a value below
// its minimum, above its maximum, a fraction where it takes whole numbers,
// and an unknown name, each as an input error naming `--tune` (exit 2 at the
// command line); its own bounds are taken.
#include <catch2/catch.hpp>

#include <iomanip>
#include <sstream>
#include <string>

#include "model/input_error.hpp"
#include "solver/knobs/tuning.hpp"

using namespace tessel;

namespace {

std::string assignment(const TuningKnob& knob, double value) {
  // Every digit: the seeds and step counts pass a million (1e+09 + 1
  // would print as 1e+09).
  std::ostringstream text;
  text << std::setprecision(17) << knob.name << "=" << value;
  return text.str();
}

}  // namespace

TEST_CASE("tuning: every knob refuses values out of its range, takes its bounds", "[tuning]") {
  for (const TuningKnob& knob : tuning_knobs()) {
    INFO(knob.name);
    Tuning tuning;
    CHECK_THROWS_AS(apply_tuning(tuning, assignment(knob, knob.minimum - 1)), InputError);
    CHECK_THROWS_AS(apply_tuning(tuning, assignment(knob, knob.maximum + 1)), InputError);
    if (knob.integer && knob.maximum > knob.minimum)
      CHECK_THROWS_AS(apply_tuning(tuning, assignment(knob, knob.minimum + 0.5)), InputError);
    apply_tuning(tuning, assignment(knob, knob.minimum));
    CHECK(tuning.*knob.field == knob.minimum);
    apply_tuning(tuning, assignment(knob, knob.maximum));
    CHECK(tuning.*knob.field == knob.maximum);
  }
  Tuning tuning;
  CHECK_THROWS_AS(apply_tuning(tuning, "lns_shares=0.5"), InputError);
}

// The plan (plan_seconds) yields to a phase budget set by hand; which knobs
// are such budgets is a column of the table. Every knob of the makespan
// phases but the plan itself is one, and no other.
TEST_CASE("tuning: the makespan phases' knobs are the ones marked as phase budgets", "[tuning]") {
  int marked = 0;
  for (const TuningKnob& knob : tuning_knobs()) {
    INFO(knob.name);
    const bool makespan_phase = std::string(knob.meaning).rfind("makespan", 0) == 0;
    CHECK(knob.phase_budget == (makespan_phase && std::string(knob.name) != "plan_seconds"));
    marked += knob.phase_budget;
  }
  CHECK(marked == 16);
}
