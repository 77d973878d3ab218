// The tuning table (rows generated from TESSEL_KNOBS, solver/knobs/tuning.hpp)
// and its one setter.
#include "solver/knobs/tuning.hpp"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

const char* knob_level_name(KnobLevel level) {
  return level == KnobLevel::Developer ? "developer" : "user";
}

const std::vector<TuningKnob>& tuning_knobs() {
#define TESSEL_KNOB_ROW(name, value, minimum, maximum, integer, level, phase_budget, meaning) \
  {#name, &Tuning::name, value, minimum, maximum, integer, KnobLevel::level, phase_budget, meaning},
  static const std::vector<TuningKnob> knobs = {TESSEL_KNOBS(TESSEL_KNOB_ROW)};
#undef TESSEL_KNOB_ROW
  return knobs;
}

void apply_tuning(Tuning& tuning, const std::string& assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos)
    throw InputError("", "--tune", "'" + assignment + "' is not name=value (see --tune help)");
  const std::string name = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  std::vector<std::string> names;
  for (const TuningKnob& knob : tuning_knobs()) {
    names.push_back(knob.name);
    if (name != knob.name) continue;
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
      throw InputError("", "--tune", "'" + text + "' is not a number (" + name + ")");
    if (value < knob.minimum || value > knob.maximum || (knob.integer && value != std::floor(value))) {
      std::ostringstream range;
      range << std::setprecision(12) << name << " takes " << (knob.integer ? "an integer " : "a number ") << "in [" << knob.minimum << ", "
            << knob.maximum << "], got " << text;
      throw InputError("", "--tune", range.str());
    }
    tuning.*knob.field = value;
    return;
  }
  std::string nearest = nearest_name(name, names);
  throw InputError("", "--tune", "unknown knob '" + name + "'" +
                                     (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
                                     "; see --tune help");
}

std::string tuning_help(bool developer) {
  // Twelve digits: the seeds and step rates print whole (20261127, not 2.02611e+07).
  std::ostringstream text;
  text << std::setprecision(12);
  text << std::left << std::setw(34) << "knob" << std::setw(11) << "default" << std::setw(20) << "range" << std::setw(11)
       << "level" << "meaning\n";
  for (const TuningKnob& knob : tuning_knobs()) {
    if (knob.level == KnobLevel::Developer && !developer) continue;
    std::ostringstream range;
    range << std::setprecision(12) << "[" << knob.minimum << ", " << knob.maximum << "]";
    text << std::left << std::setw(34) << knob.name << std::setw(11) << knob.default_value << std::setw(20)
         << range.str() << std::setw(11) << knob_level_name(knob.level) << knob.meaning << "\n";
  }
  if (!developer) text << "(--tune help-all lists the developer knobs too: the phases' effort constants)\n";
  return text.str();
}

}  // namespace tessel
