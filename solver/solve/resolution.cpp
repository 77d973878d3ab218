// Searching at a coarser time resolution (see the header for why the
// answer stays valid and what the printed bound means).
#include "solver/solve/resolution.hpp"

#include <algorithm>
#include <stdexcept>

#include "solver/makespan/closed_bound/makespan_bound.hpp"

namespace tessel {
namespace {

Time round_up(Time value, Time resolution) { return (value + resolution - 1) / resolution; }

// How far below R times a proven rounded bound the real optimum may lie,
// for windows of k micro-batches (k n blocks). In a simple cycle each block
// is left once (its span counted at most once) and each dependency crossed
// once (its delay at most once); a span or delay that R divides loses
// nothing, any other less than R; the window's own edge (phase <= P - 1)
// less than R too. `offers`: the cycles also pass the offers' runs and
// copies (the choice's blocks, solver/solve/recompute_choice.hpp), each a
// span of its own; the dependencies they add carry no delay.
Time bound_slack(const Placement& real, Time resolution, int k = 1, bool offers = false) {
  long long spans = 0, delays = 0;
  for (const Block& block : real.blocks) {
    spans += block.span % resolution != 0;
    if (!offers) continue;
    if (block.recompute) spans += block.recompute->span % resolution != 0;
    if (block.offload) spans += (block.offload->out % resolution != 0) + (block.offload->in % resolution != 0);
  }
  for (const Edge& edge : real.edges) delays += edge.delay % resolution != 0;
  return (k * spans + k * delays + 1) * resolution;
}

}  // namespace

Placement quantise_times(const Placement& placement, Time resolution) {
  if (resolution < 1) throw std::invalid_argument("quantise_times: resolution must be >= 1 tick");
  Placement rounded = placement;
  for (Block& block : rounded.blocks) block.span = std::max<Time>(1, round_up(block.span, resolution));
  for (Edge& edge : rounded.edges) edge.delay = round_up(edge.delay, resolution);
  // The offers' runs and copies are times too (the choice inside the
  // repetend and the full search schedule them on this placement).
  for (Block& block : rounded.blocks) {
    if (block.recompute) block.recompute->span = round_up(block.recompute->span, resolution);
    if (block.offload) {
      block.offload->out = round_up(block.offload->out, resolution);
      block.offload->in = round_up(block.offload->in, resolution);
    }
  }
  return rounded;
}

Time real_period_bound(const Placement& real, Time resolution, Time rounded_bound, int k, bool offers) {
  const Time floor = k * period_lower_bound(real);
  return std::max<Time>(floor, (rounded_bound - 1) * resolution - bound_slack(real, resolution, k, offers) + 1);
}

SearchResult lift_quantised_result(SearchResult result, const Placement& real, const std::vector<Memory>& limits,
                                   Time resolution) {
  const Time r = resolution;
  // A proven rounded bound B (every rounded period below B impossible) as a
  // bound on the real times, never below L.
  const int k = std::max(1, result.micros_per_window);
  const Time real_floor = period_lower_bound(real);
  const bool repetend = result.period > 0;
  if (repetend) {
    result.proven_lower_bound = real_period_bound(real, r, result.proven_lower_bound, k, false);
    result.lower_bound = k * real_floor;
  } else {
    const int total_micros = result.schedule ? result.schedule->nmicros : 1;
    result.lower_bound = result.proven_lower_bound = makespan_lower_bound(real, total_micros);
    result.makespan_bound.reset();  // of the rounded times: the report computes the real one
  }
  result.period *= r;
  result.latency *= r;
  for (WindowAttempt& attempt : result.windows) {
    attempt.period *= r;
    attempt.latency *= r;
    attempt.proven_lower_bound = real_period_bound(real, r, attempt.proven_lower_bound, attempt.k, false);
  }
  if (result.schedule) {
    Schedule& schedule = *result.schedule;
    schedule.placement = real;
    schedule.memory_limit = limits;
    for (Instance& instance : schedule.instances) instance.start *= resolution;
    if (schedule.repetend) {
      schedule.repetend->start *= resolution;
      schedule.repetend->end *= resolution;
      schedule.repetend->period *= resolution;
    }
    sort_instances(schedule);
    result.makespan = makespan(schedule);
    if (schedule.search.is_object()) {
      schedule.search["resolution_ticks"] = resolution;
      schedule.search["proven_lower_bound"] = result.proven_lower_bound;
    }
  }
  return result;
}

std::string resolution_error_text(const Placement& real, Time resolution, const SearchResult& lifted) {
  const std::string r = format_ticks(resolution, real.time_decimals);
  std::string text = "times rounded up to multiples of " + r +
                     " for the search; the schedule is valid for the real times (verified on them)";
  if (lifted.period > 0)
    text += "; the real optimal period may be up to " + format_ticks(lifted.period - lifted.proven_lower_bound,
                                                                    real.time_decimals) +
            " shorter (proven: no real period below " + format_ticks(lifted.proven_lower_bound, real.time_decimals) +
            ", the rounding costing at most " +
            format_ticks(bound_slack(real, resolution, lifted.micros_per_window), real.time_decimals) +
            " per cycle of the constraint graph: R for each span or delay R does not divide, and one more)";
  return text;
}

}  // namespace tessel
