// Strategy `fast` end to end (see the header).
#include "solver/strategies/fast_search.hpp"

#include <chrono>
#include <sstream>

#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/strategies/boundary_solver.hpp"
#include "solver/strategies/fast_repetend.hpp"
#include "solver/strategies/fast_shorten.hpp"
#include "solver/strategies/single_micro.hpp"
#include "solver/strategies/single_micro_fit.hpp"

namespace tessel {
namespace {

// The sizes up to which the solver shortens, developer knobs
// (solver/knobs/tuning.hpp): fast_largest_shortened_window (40 blocks: 16 devices
// of the paper's cases; 32 devices take seconds to encode) for the window,
// fast_largest_boundary_instances (1000) for warmup and cooldown.
size_t knob_size(double value) { return static_cast<size_t>(value); }

}  // namespace

SearchResult search_fast(const Placement& placement, const SearchOptions& options, int reference_micros,
                         double bubble_budget, double improve_seconds) {
  require_steady_state(placement);
  const auto begin = std::chrono::steady_clock::now();
  SearchResult result;
  result.lower_bound = period_lower_bound(placement);
  result.proven_lower_bound = result.lower_bound;
  auto report = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };

  // One micro-batch alone, the last resort: the list schedule when it fits,
  // else any order the full solver finds for one micro-batch.
  SingleMicroFit single = single_micro_within_memory(placement, options);
  if (single.status != SearchStatus::Found) {
    result.status = single.status;
    result.message = single.message;
    result.phases.push_back({"construction", seconds_since(begin)});
    return result;
  }
  const std::vector<int>& alone = single.starts;

  FastRepetend fast =
      fast_repetend(placement, options.memory_limit, alone, options.in_flight.value_or(0), options.deadline,
                    static_cast<long long>(options.tuning.fast_periods_one_by_one));
  result.phases.push_back({"construction", seconds_since(begin)});

  // Then improve: the solver shortens the window below the constructed
  // period, only on placements small enough that building its encoding is
  // quick (the encoding is not interrupted while it is built).
  ModuloSolution chosen = fast.solution;
  bool window_shortened = false;
  if (improve_seconds > 0 && chosen.period > result.lower_bound &&
      placement.blocks.size() <= knob_size(options.tuning.fast_largest_shortened_window) && !options.deadline.expired()) {
    const auto improve_begin = std::chrono::steady_clock::now();
    Deadline improve_deadline = options.deadline.within(improve_seconds);
    const int max_in_flight = options.in_flight.value_or(std::max<int>(1, placement.blocks.size()));
    ShortenedWindow shortened = shorten_window(placement, options.memory_limit, chosen, options.backend,
                                               max_in_flight, improve_deadline, options.progress);
    for (const SolverCall& call : shortened.calls) result.calls.push_back(call);
    chosen = shortened.solution;
    window_shortened = shortened.improved;
    result.phases.push_back({"shorten window", seconds_since(improve_begin)});
  }
  {
    std::ostringstream line;
    line << "fast: period " << fast.solution.period << " (L = " << result.lower_bound << ") by " << fast.construction
         << ", latency " << chosen.latency << ", " << fast.candidates << " candidates, " << seconds_since(begin)
         << " s";
    report(line.str());
  }

  const auto build_begin = std::chrono::steady_clock::now();
  WarmupCooldown built = build_warmup_cooldown(placement, options.memory_limit, chosen, options.deadline);
  bool shortened_complete = false, shortened_improved = false;
  // The shortening's encoding does not watch the deadline while it is being
  // built, and past about a thousand instances building alone takes longer
  // than a fast answer may (mshape, 32 devices: over 100 s for 1320); so
  // larger schedules keep the squeezed ends.
  const bool small_enough = built.schedule.instances.size() <= knob_size(options.tuning.fast_largest_boundary_instances);
  // Not past the deadline: shorten_boundary reads a spent deadline as none.
  const bool may_shorten = built.valid && options.boundary_seconds > 0 && small_enough && !options.deadline.expired();
  // The ends' bubbles: what the K-micro-batch schedule spends beyond the
  // simple bound of K micro-batches. Within budget, accept it as it is.
  // Computed only when it matters: the bound grows with the cube of the
  // blocks (minutes on 5000 blocks).
  const double budget = bubble_budget * reference_micros * chosen.period;
  if (may_shorten && makespan(built.schedule) - makespan_lower_bound(placement, built.schedule.nmicros) > budget) {
    Deadline boundary_deadline = options.deadline.within(options.boundary_seconds);
    BoundaryOutcome shortened = shorten_boundary(built.schedule, options.backend, boundary_deadline, options.progress);
    for (const SolverCall& call : shortened.calls) result.calls.push_back(call);
    shortened_complete = shortened.complete;
    shortened_improved = shortened.shorter.has_value();
    if (shortened.shorter) built.schedule = std::move(*shortened.shorter);
  }
  result.phases.push_back({"warmup/cooldown", seconds_since(build_begin)});

  Schedule schedule = built.schedule;
  result.construction = Construction{fast.construction, fast.solution.period, window_shortened};
  result.boundary = {built.squeezed, shortened_improved, shortened_complete};
  result.schedule = schedule;
  result.period = chosen.period;
  result.latency = chosen.latency;
  result.in_flight = chosen.in_flight;
  result.makespan = makespan(schedule);
  result.status = SearchStatus::Found;
  result.message = "constructed by '" + fast.construction + "'" +
                   (window_shortened ? " (period " + std::to_string(fast.solution.period) +
                                           "), shortened by the solver" : "") +
                   ", nothing proven beyond L";
  if (!built.valid) {
    result.schedule.reset();
    result.message += "; " + unusable_warmup_reason(built);
  }
  return result;
}

}  // namespace tessel
