// Why the makespan is above its bound (see the header). Each reason names
// only what the search decided: "proven" appears only where an UNSAT answer
// (or the boundary solver's completed minimisation) stands behind it.
#include "solver/makespan_gap.hpp"

#include <algorithm>
#include <sstream>

namespace tessel {

double relative_gap(long long makespan, long long bound) {
  if (bound <= 0) return 0;
  return double(makespan - bound) / double(bound);
}

namespace {

std::string full_reason(const GapFacts& facts) {
  const SearchResult& result = *facts.result;
  if (result.status == SearchStatus::Found && result.makespan == result.proven_lower_bound)
    return "the makespan is proven optimal for " + std::to_string(facts.nmicros) +
           " micro-batches (every shorter one is unsatisfiable): the bound is not tight here";
  return "the full solver stopped before proving the makespan optimal (proven lower bound " +
         format_ticks(result.proven_lower_bound, facts.time_decimals) + ")";
}

std::string boundary_reason(const GapFacts& facts) {
  if (facts.boundary_seconds <= 0) return "warmup/cooldown were not shortened by the solver (--tune boundary_seconds=0)";
  if (facts.result->boundary.proven_minimal)
    return "warmup and cooldown are proven minimal around this repetend (its window fixed); "
           "another repetend of the same period or a non-periodic schedule may still be shorter";
  return "the boundary shortening ran out of its budget (--tune boundary_seconds=" +
         [&] {
           std::ostringstream text;
           text << facts.boundary_seconds;
           return text.str();
         }() +
         ") before proving warmup/cooldown minimal";
}

std::string repetend_reason(const GapFacts& facts) {
  const SearchResult& result = *facts.result;
  const int k = std::max(1, result.micros_per_window);
  // Steps the period alone adds over N L at N micro-batches.
  const long long period_excess = (static_cast<long long>(result.period) - result.lower_bound) * facts.nmicros / k;
  const long long gap = facts.makespan - facts.bound.value;
  auto t = [&](long long ticks) { return format_ticks(ticks, facts.time_decimals); };
  std::ostringstream why;
  if (result.period > result.lower_bound) {
    why << "the period is " << t(result.period);
    if (k > 1) why << " for " << k << " micro-batches";
    why << " > " << (k > 1 ? "k L = " : "L = ") << t(result.lower_bound) << ", which alone adds "
        << t(period_excess) << (facts.time_decimals == 0 ? " steps" : "") << " at " << facts.nmicros
        << " micro-batches (gap " << t(gap) << "); the bound assumes L per micro-batch";
    if (result.proven_lower_bound >= result.period)
      why << ", and every shorter period is proven impossible for a repetend, but a non-periodic schedule is "
             "not bound by the period, so the gap itself is not proven";
    else
      why << "; periods from " << t(result.proven_lower_bound) << " up are not decided (time limit)";
    const long long rest = gap - period_excess;
    if (relative_gap(facts.bound.value + rest, facts.bound.value) > 0.01) why << "; beyond that, " << boundary_reason(facts);
    return why.str();
  }
  return boundary_reason(facts);
}

}  // namespace

std::string explain_gap(const GapFacts& facts) {
  if (!facts.result || relative_gap(facts.makespan, facts.bound.value) <= 0.01) return "";
  return facts.full ? full_reason(facts) : repetend_reason(facts);
}

}  // namespace tessel
