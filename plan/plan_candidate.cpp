// A candidate plan, step by step: cut (cached per mapping), place, time,
// order or search, judge. Each step is a function of its own so that what a
// plan decided (which cut, which limit, which construction) is in the result.
#include "plan/plan_candidate.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "model/input_error.hpp"
#include "model/memory_limits.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "partition/partition_search.hpp"
#include "partition/rank_balanced_cut.hpp"
#include "plan/chain_orders.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

std::vector<int> stage_ranks(const PipelineOptions& options) {
  std::vector<int> ranks(pipeline_stages(options));
  for (int s = 0; s < static_cast<int>(ranks.size()); ++s) ranks[s] = rank_of_stage(options.mapping, options.devices, s);
  return ranks;
}

long long busiest(const std::vector<long long>& loads) { return *std::max_element(loads.begin(), loads.end()); }

// The exact bottleneck cut (within `deadline`), and the rank-balanced cut;
// the one whose busiest rank is lighter wins, the exact one on a tie.
std::pair<Partition, CutKind> choose_cut(PlanContext& context, const PipelineOptions& options, const Deadline& deadline) {
  auto key = std::make_pair(static_cast<int>(options.mapping), options.chunks);
  if (auto found = context.cuts.find(key); found != context.cuts.end()) return found->second;
  const int S = pipeline_stages(options);
  std::vector<int> ranks = stage_ranks(options);
  PartitionRequest cut_request;
  cut_request.stages = S;
  PartitionAnswer answer = solve_partition(context.graph, cut_request, "exact", context.request.backend, deadline);
  std::pair<Partition, CutKind> cut{rank_balanced_cut(context.graph, S, ranks), CutKind::RankBalanced};
  if (answer.partition) {
    long long balanced = busiest(rank_loads(partition_costs(context.graph, cut.first), ranks));
    if (busiest(rank_loads(partition_costs(context.graph, *answer.partition), ranks)) <= balanced)
      cut = {*answer.partition, CutKind::Exact};
  }
  context.cuts[key] = cut;
  return cut;
}

// --recompute all runs the chain's order and the search on the placement
// whose recomputes are blocks, under the limit lowered by what a running
// forward holds beyond its checkpoint (recompute_all.hpp).
const Placement& searched_placement(const PlanResult& placed) {
  return placed.forced ? placed.forced->placement : placed.timed.placement;
}

std::vector<Memory> searched_limits(const PlanResult& placed) {
  std::vector<Memory> limits = placed.memory_limit;
  if (placed.forced)
    for (size_t d = 0; d < limits.size(); ++d) limits[d] -= placed.forced->limit_cut[d];
  return limits;
}

// A schedule of the searched placement as one of the plan's own (the same
// when nothing is forced).
std::optional<Schedule> mapped_back(const PlanResult& placed, const Schedule& schedule) {
  if (!placed.forced) return schedule;
  return schedule_with_recomputes(schedule, *placed.forced, placed.timed.placement, placed.memory_limit);
}

// The search's answer at N micro-batches on the plan's own placement, timed
// with the delays; nullopt when it does not unroll (an answer with
// recomputes is already at N), has fused units under --recompute all, or
// has copies that the delays would have to move.
std::optional<Schedule> answer_at_n(const PlanResult& placed, int N) {
  Schedule found = *placed.search.best;
  if (found.nmicros != N) {
    if (!found.recomputes.empty() || !found.transfers.empty()) return std::nullopt;
    found = unroll(found, N);
  }
  found.placement = searched_placement(placed);
  if (!found.transfers.empty() && placed.timed.transfers > 0) return std::nullopt;
  found = placed.timed.transfers > 0 ? retimed_schedule(found) : compact_schedule(found);
  return mapped_back(placed, found);
}

// A rank whose static memory alone passes the limit: no schedule exists.
std::string static_memory_problem(const PlanResult& result) {
  for (size_t r = 0; r < result.memory_limit.size(); ++r)
    if (result.staged.static_bytes[r] > result.memory_limit[r])
      return "rank " + std::to_string(r) + " holds " + std::to_string(result.staged.static_bytes[r]) +
             " bytes of parameters, gradients and optimizer state, more than its limit of " +
             std::to_string(result.memory_limit[r]) + " bytes";
  return "";
}

// The verifier judges the schedule against the whole limit: it counts the
// placement's static memory itself, so its peaks include it.
void judge(PlanResult& result) {
  verify::Report check = verify::check_schedule(schedule_to_json(*result.schedule), result.memory_limit);
  if (!check.valid) throw std::logic_error("the planned schedule failed the verifier: " + check.violations.front().message);
  // The verifier counts in the written document's decimals, which drop the
  // placement's trailing zeros (spans of whole hundreds of FLOP read as
  // 1e-7 GFLOP at 7 decimals where the placement keeps 9).
  result.makespan = in_unit(check.makespan, check.time_decimals);
  result.bubble_ratio = check.bubble_ratio;
  result.peak_memory = check.peak_memory;
}

// Under --recompute all the search asks the lowered limits
// (searched_limits), which keep what it finds valid but are stricter than
// the plan's own: what it refutes there may still fit under the real limit
// (a forward recomputed right before its backward needs less than the cut
// assumes of every one). So its "none" is not a proof: the plan says so and
// gives up (exit 3) instead of claiming that no schedule exists.
void not_proven_under_cut(PlanResult& placed) {
  placed.outcome = Outcome::Timeout;
  placed.message += "; that was searched under the limits lowered by what a running forward holds beyond its "
                    "checkpoint, so no schedule is proven impossible under the real ones";
}

// The search's message in the caller's words (PlanRequest::search_words).
std::string search_words(const PlanContext& context, const SearchReport& report) {
  return context.request.search_words ? context.request.search_words(report) : report.message;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << seconds << " s";
  return text.str();
}

}  // namespace

void plan_line(PlanContext& context, const std::string& text) {
  if (context.phase) context.phase("[" + seconds_text(seconds_since(context.begin)) + "] " + text);
}

PlanResult placed_plan(PlanContext& context, const PipelineOptions& options, const Deadline& cut_deadline,
                       bool recompute_all) {
  PlanResult result;
  result.pipeline = options;
  result.clock = context.clock;
  std::tie(result.partition, result.cut) = choose_cut(context, options, cut_deadline);
  result.costs = partition_costs(context.graph, result.partition);
  result.rank_compute = rank_loads(result.costs, stage_ranks(options));
  result.stages = plan_stages(context.graph, result.partition, options);
  result.staged = pipeline_placement(context.graph, result.partition, options);
  result.timed = timed_placement(context.graph, result.partition, result.staged, context.clock,
                                 context.request.nmicros);
  result.memory_limit = memory_limits_for(result.timed.placement, context.request.memory, "memory");
  result.staged.placement.memory_decimals = result.timed.placement.memory_decimals;
  if (recompute_all) result.forced = recompute_every_offer(result.timed.placement);
  result.message = static_memory_problem(result);
  result.outcome = Outcome::Infeasible;
  return result;
}

void order_chain(PlanResult& placed, int nmicros) {
  if (!static_memory_problem(placed).empty()) return;
  std::string name, why;
  // Under --recompute all the order is judged mapped back, under the real
  // limits: a recompute right before its backward needs no lowered limit.
  FinishOrder finish;
  if (placed.forced) finish = [&](const Schedule& ordered) { return mapped_back(placed, ordered); };
  std::optional<Schedule> schedule =
      chain_order_schedule(searched_placement(placed), nmicros, placed.memory_limit, name, why, finish);
  if (schedule && placed.forced) name += ", every forward recomputed just before its backward";
  if (!schedule) {
    placed.message = "no 1F1B order fits the memory, not even one micro-batch in flight: " + why;
    return;
  }
  placed.schedule = std::move(*schedule);
  placed.construction = name;
  placed.outcome = Outcome::Found;
  judge(placed);
}

void search_plan(PlanContext& context, PlanResult& placed, const Deadline& deadline) {
  if (!static_memory_problem(placed).empty()) return;  // proven: nothing fits, nothing to search
  SearchRequest search;
  // The search sees each transfer delay rounded DOWN to its step (the
  // search rounds spans up to it; a delay rounded up would be charged to
  // every micro-batch and the proven bound would no longer hold, while one
  // rounded down only relaxes the problem: the bound stays a bound). The
  // answer is then timed with the exact delays, in the same order on every
  // rank: exact, valid, same peaks.
  search.placement = searched_placement(placed);
  for (Edge& edge : search.placement.edges) edge.delay -= edge.delay % placed.timed.step;
  search.memory_limit = searched_limits(placed);
  search.resolution = placed.timed.step;
  search.total_micros = context.request.nmicros;
  search.backend = context.request.backend;
  search.deadline = deadline;
  search.threads = context.request.threads;
  // Its recompute-all placement is searched apart: the derived search
  // inside would search it again in the same share.
  if (placed.all_apart) search.tuning.recompute_all_seconds = 0;
  try {
    placed.search = solve(search, context.search_progress);
  } catch (const InputError& error) {
    // A placement the search cannot take (no steady state, an encoding past
    // its budget): this candidate has no searched schedule, the others stand.
    if (placed.schedule) return;
    placed.message = "the search cannot take this placement: " + error.reason;
    if (placed.forced) not_proven_under_cut(placed);
    return;
  }
  if (!placed.search.best) {
    if (!placed.schedule) {
      placed.outcome = placed.search.outcome;
      placed.message = search_words(context, placed.search);
      if (placed.forced && placed.outcome == Outcome::Infeasible) not_proven_under_cut(placed);
    }
    return;
  }
  std::optional<Schedule> at_n = answer_at_n(placed, context.request.nmicros);
  if (!at_n) {
    if (placed.schedule) return;
    placed.message = "the search's answer cannot be written at N micro-batches (" +
                     search_words(context, placed.search) + ")";
    placed.unwritten = true;
    placed.outcome = Outcome::Timeout;  // given up, not proven impossible
    return;
  }
  Schedule found = std::move(*at_n);
  if (placed.search.makespan)
    placed.lower_bound = in_unit(placed.search.makespan->proven_lower_bound, found.placement.time_decimals);
  if (placed.schedule && makespan(*placed.schedule) <= makespan(found)) {
    placed.message = "the search found nothing shorter than the " + placed.construction + " (" +
                     outcome_name(placed.search.outcome) + ")";
    if (placed.search.outcome == Outcome::Timeout || placed.search.outcome == Outcome::Interrupted)
      placed.outcome = placed.search.outcome;
    return;
  }
  placed.schedule = std::move(found);
  placed.construction = "search" + (placed.search.makespan ? ": " + placed.search.makespan->construction : std::string());
  placed.outcome = placed.search.outcome;
  placed.message = search_words(context, placed.search);
  judge(placed);
}

}  // namespace tessel
