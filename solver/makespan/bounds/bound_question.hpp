// What a solved makespan bound (solver/makespan/bounds/solved_bounds) is asked
// about: the problem at N under the memory limits, and the backend that
// decides its questions by a deadline. The exact ends and the one-device
// relaxation extend it with their own settings.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "sat/deadline.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct BoundQuestion {
  const Placement* placement = nullptr;
  long long total_micros = 0;
  std::vector<Memory> limits;  // one per device (the blocks' own memory); empty: none
  std::string backend = "cadical";
  BackendSettings settings;
  Deadline deadline;
  ProgressSink progress;  // a line per question or window, if set
  // What an encoding may hold for the time it has (knobs/encoding_budget.hpp,
  // affords_encoding): the developer knob encoding_terms_per_second.
  double terms_per_second = kDefaultTuning.encoding_terms_per_second;
};

// `placement` at `total_micros` under the search's memory limits, backend,
// settings and progress, ending at `deadline`.
inline BoundQuestion bound_question(const Placement& placement, long long total_micros, const SearchOptions& options,
                                    const Deadline& deadline) {
  return {&placement,       total_micros,     options.memory_limit,
          options.backend,  options.backend_settings, deadline,
          options.progress, options.tuning.encoding_terms_per_second};
}

}  // namespace tessel
