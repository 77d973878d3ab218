// Why the makespan is above its bound (see the header). Each cause names
// only what the search decided: "proven" causes appear only where an UNSAT
// answer (or the boundary solver's completed minimisation) stands behind it.
#include "solver/makespan/bounds/makespan_gap.hpp"

#include <algorithm>

namespace tessel {

namespace {

BoundaryCause boundary_cause(const GapFacts& facts) {
  if (facts.boundary_seconds <= 0) return BoundaryCause::NotShortened;
  if (facts.result->boundary.proven_minimal) return BoundaryCause::ProvenMinimal;
  return BoundaryCause::OutOfBudget;
}

void full_cause(const GapFacts& facts, MakespanGap& gap) {
  const SearchResult& result = *facts.result;
  const bool proven = result.status == SearchStatus::Found && result.makespan == result.proven_lower_bound;
  gap.cause = proven ? GapCause::ProvenOptimal : GapCause::FullStopped;
  gap.proven_lower_bound = result.proven_lower_bound;
}

void repetend_cause(const GapFacts& facts, MakespanGap& gap) {
  const SearchResult& result = *facts.result;
  if (result.period <= result.lower_bound) {
    gap.cause = GapCause::Boundary;
    gap.boundary = boundary_cause(facts);
    return;
  }
  const int k = std::max(1, result.micros_per_window);
  gap.cause = GapCause::Period;
  gap.period = result.period;
  gap.period_lower_bound = result.lower_bound;
  gap.micros_per_window = k;
  gap.proven_lower_bound = result.proven_lower_bound;
  // Steps the period alone adds over N L at N micro-batches.
  gap.period_excess = (static_cast<long long>(result.period) - result.lower_bound) * facts.total_micros / k;
  const long long rest = (facts.makespan - facts.bound.value) - gap.period_excess;
  if (relative_gap(facts.bound.value + rest, facts.bound.value) > 0.01) gap.boundary = boundary_cause(facts);
}

}  // namespace

MakespanGap explain_gap(const GapFacts& facts) {
  MakespanGap gap;
  gap.total_micros = facts.total_micros;
  gap.makespan = facts.makespan;
  gap.bound = facts.bound.value;
  gap.boundary_seconds = facts.boundary_seconds;
  if (!facts.result || relative_gap(facts.makespan, facts.bound.value) <= 0.01) return gap;
  if (facts.full) full_cause(facts, gap);
  else repetend_cause(facts, gap);
  return gap;
}

}  // namespace tessel
