// Recompute every offered forward, searched by solve() itself
// (recompute_search.hpp).
#include "solver/recompute_search.hpp"

#include <chrono>

#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/recompute_all.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

// The nested search's answer at N micro-batches, mapped back; nullopt with
// `why` set when there is none.
std::optional<Schedule> answer_at_total(const SearchRequest& request, const RecomputedPlacement& derived,
                                        const SearchReport& nested, std::string& why) {
  if (!nested.best) {
    why = nested.message.empty() ? "no schedule" : nested.message;
    return std::nullopt;
  }
  Schedule best = *nested.best;
  if (best.nmicros != request.total_micros) best = unroll(best, request.total_micros);
  best.repetend.reset();
  std::optional<Schedule> mapped = schedule_with_recomputes(best, derived, request.placement, request.memory_limit);
  if (!mapped) why = "its answer uses fused units, which do not map back";
  return mapped;
}

void take_as_answer(const Schedule& schedule, const verify::Report& checked, const std::string& name,
                    SearchReport& report, Progress& progress) {
  MakespanReport& at = *report.makespan;
  at.makespan = checked.makespan;
  at.shape = Shape::Aperiodic;
  at.construction = name;
  at.bubble_ratio = checked.bubble_ratio;
  at.peak_memory.assign(checked.peak_memory.begin(), checked.peak_memory.end());
  at.proven_optimal = at.makespan == at.proven_lower_bound;
  report.best = schedule;
  progress.improved(schedule, Shape::Aperiodic, at.makespan);
}

}  // namespace

void consider_recomputing_all(const SearchRequest& request, SearchReport& report, Progress& progress) {
  // The derived search's own budget (--tune recompute_all_seconds): its
  // period is usually decided fast (no memory binds once every forward
  // recomputes), and the default search on 16 devices should not take twice
  // as long because forwards offer recomputation (nnshape 8/8: the 1186 of
  // its default search within 1.5 s).
  const double seconds = request.tuning.recompute_all_seconds;
  if (request.strategy == Strategy::Full || !report.makespan || !report.best || request.deadline.expired() ||
      seconds <= 0)
    return;
  const std::optional<RecomputedPlacement> derived = recompute_every_offer(request.placement);
  if (!derived) return;
  const auto begin = std::chrono::steady_clock::now();
  SearchRequest sub = request;
  sub.placement = derived->placement;
  sub.deadline = request.deadline.within(seconds);
  for (size_t d = 0; d < sub.memory_limit.size(); ++d) sub.memory_limit[d] -= derived->limit_cut[d];
  Candidate candidate;
  candidate.name = "recompute every offered forward";
  candidate.shape = Shape::Aperiodic;
  std::optional<Schedule> mapped;
  try {
    Progress quiet;
    const SearchReport nested = solve(sub, quiet);
    mapped = answer_at_total(request, *derived, nested, candidate.note);
    if (nested.makespan) candidate.name += " (" + nested.makespan->construction + ")";
  } catch (const InputError& error) {
    candidate.note = error.reason;  // e.g. one micro-batch no longer fits the lowered limit
  }
  candidate.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (mapped) {
    const verify::Report checked = verify::check_schedule(schedule_to_json(*mapped));
    if (!checked.valid) {
      report.rejected.push_back({candidate.name, checked.violations.empty() ? "invalid"
                                                     : checked.violations.front().kind + ": " +
                                                           checked.violations.front().message});
      return;
    }
    candidate.makespan = checked.makespan;
    candidate.note = choices_summary(*mapped) + "; searched as a placement of its own under the limit lowered by "
                     "what a running forward holds beyond its checkpoint";
    if (checked.makespan < report.makespan->makespan) take_as_answer(*mapped, checked, candidate.name, report, progress);
  }
  report.makespan->candidates.push_back(std::move(candidate));
}

}  // namespace tessel
