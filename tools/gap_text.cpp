// The gap's sentence (see the header): the same words the search printed
// when solver/ built them, now from the cause and its numbers.
#include "tools/gap_text.hpp"

#include <sstream>

#include "model/quantity.hpp"

namespace tessel {

namespace {

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

std::string boundary_text(const MakespanGap& gap) {
  switch (gap.boundary) {
    case BoundaryCause::NotShortened:
      return "warmup/cooldown were not shortened by the solver (--tune boundary_seconds=0)";
    case BoundaryCause::ProvenMinimal:
      return "warmup and cooldown are proven minimal around this repetend (its window fixed); "
             "another repetend of the same period or a non-periodic schedule may still be shorter";
    case BoundaryCause::OutOfBudget:
      return "the boundary shortening ran out of its budget (--tune boundary_seconds=" +
             seconds_text(gap.boundary_seconds) + ") before proving warmup/cooldown minimal";
    case BoundaryCause::None: break;
  }
  return "";
}

std::string period_text(const MakespanGap& gap, int decimals) {
  auto t = [&](long long ticks) { return format_ticks(ticks, decimals); };
  const int k = gap.micros_per_window;
  std::ostringstream why;
  why << "the period is " << t(gap.period);
  if (k > 1) why << " for " << k << " micro-batches";
  why << " > " << (k > 1 ? "k L = " : "L = ") << t(gap.period_lower_bound) << ", which alone adds "
      << t(gap.period_excess) << (decimals == 0 ? " steps" : "") << " at " << gap.total_micros
      << " micro-batches (gap " << t(gap.makespan - gap.bound) << "); the bound assumes L per micro-batch";
  if (gap.proven_lower_bound >= gap.period)
    why << ", and every shorter period is proven impossible for a repetend, but a non-periodic schedule is "
           "not bound by the period, so the gap itself is not proven";
  else
    why << "; periods from " << t(gap.proven_lower_bound) << " up are not decided (time limit)";
  if (gap.boundary != BoundaryCause::None) why << "; beyond that, " << boundary_text(gap);
  return why.str();
}

}  // namespace

std::string gap_text(const MakespanGap& gap, int time_decimals) {
  switch (gap.cause) {
    case GapCause::None: return "";
    case GapCause::ProvenOptimal:
      return "the makespan is proven optimal for " + std::to_string(gap.total_micros) +
             " micro-batches (every shorter one is unsatisfiable): the bound is not tight here";
    case GapCause::FullStopped:
      return "the full solver stopped before proving the makespan optimal (proven lower bound " +
             format_ticks(gap.proven_lower_bound, time_decimals) + ")";
    case GapCause::Period: return period_text(gap, time_decimals);
    case GapCause::Boundary: return boundary_text(gap);
    case GapCause::NotTight:
      return "the best schedule found (" + gap.construction + ") stays above the bound; the bound is not proven tight";
  }
  return "";
}

}  // namespace tessel
