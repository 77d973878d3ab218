// The plan: the chain's textbook orders first (the yardstick, and an answer
// at any time limit), then the search of every asked mapping in its share of
// the time, then the fastest verified schedule.
#include "plan/plan.hpp"

#include <algorithm>

#include "model/input_error.hpp"
#include "plan/plan_candidate.hpp"

namespace tessel {

namespace {

void check_request(const Graph& graph, const PlanRequest& request) {
  std::string problem = pipeline_options_problem(request.pipeline);
  if (!problem.empty()) throw InputError("", "devices", problem);
  if (pipeline_stages(request.pipeline) > static_cast<int>(graph.nodes.size()))
    throw InputError("", "devices", std::to_string(pipeline_stages(request.pipeline)) + " stages for a graph of " +
                                        std::to_string(graph.nodes.size()) + " operators");
  if (request.nmicros < 1 || request.nmicros > 4096) throw InputError("", "nmicros", "must be in [1, 4096]");
}

PipelineOptions with_mapping(PipelineOptions options, StageMapping mapping, int chunks, bool split) {
  options.mapping = mapping;
  options.chunks = chunks;
  options.split_backward = split;
  return options;
}

// --mapping auto: chain, interleaved with 2 chunks (and 4 when every stage
// still gets 4 operators), v; each with and without split backward.
std::vector<PipelineOptions> auto_candidates(const Graph& graph, const PipelineOptions& base) {
  std::vector<PipelineOptions> candidates;
  const int nodes = static_cast<int>(graph.nodes.size());
  for (bool split : {false, true}) {
    candidates.push_back(with_mapping(base, StageMapping::Chain, 1, split));
    if (base.devices > 1 && 2 * base.devices <= nodes) {
      candidates.push_back(with_mapping(base, StageMapping::Interleaved, 2, split));
      candidates.push_back(with_mapping(base, StageMapping::V, 2, split));
    }
    if (base.devices > 1 && 16 * base.devices <= nodes)
      candidates.push_back(with_mapping(base, StageMapping::Interleaved, 4, split));
  }
  return candidates;
}

bool same_plan(const PipelineOptions& a, const PipelineOptions& b) {
  return a.mapping == b.mapping && a.chunks == b.chunks && a.split_backward == b.split_backward;
}

// --recompute auto searches each mapping twice: the placement offering
// recomputation (the search chooses per micro-batch) and, apart, the one
// recomputing every forward, exactly as --recompute all searches it. So
// auto's candidates hold all's and none's (its 1F1B yardstick keeps
// everything; its searches keep where that pays), and auto is never longer
// than either for the same search (docs/plan.md, "Recompute and offload").
bool all_apart(const PlanRequest& request) { return request.pipeline.recompute == RecomputeMode::Auto; }

// What --recompute all and the candidate that recomputes all search.
bool recomputes_all(const PlanRequest& request, bool apart) {
  return request.pipeline.recompute == RecomputeMode::All || apart;
}

bool is_apart(const PlanResult& result) {
  return result.forced.has_value() && result.pipeline.recompute == RecomputeMode::Auto;
}

bool same_candidate(const PlanResult& result, const PipelineOptions& options, bool apart) {
  return same_plan(result.pipeline, options) && is_apart(result) == apart;
}

// The asked mapping's own result (under auto: the one offering the choice).
std::vector<PlanResult>::const_iterator own_result(const std::vector<PlanResult>& results,
                                                   const PipelineOptions& options) {
  return std::find_if(results.begin(), results.end(),
                      [&](const PlanResult& r) { return same_candidate(r, options, false); });
}

PlanRow row_of(const PlanResult& result) {
  PlanRow row;
  row.label = plan_label(result);
  row.recompute_all = result.forced.has_value();
  row.pipeline = result.pipeline;
  row.status = result.unwritten                                         ? "not_written"
               : result.schedule && result.outcome == Outcome::Infeasible ? "found"
                                                                          : outcome_name(result.outcome);
  row.construction = result.construction;
  if (result.schedule) row.makespan = result.makespan;
  row.lower_bound = result.lower_bound;
  row.peak_memory = result.peak_memory;
  row.note = result.schedule ? "" : result.message;
  return row;
}

std::string best_so_far(const std::vector<PlanResult>& results) {
  const PlanResult* best = nullptr;
  for (const PlanResult& result : results)
    if (result.schedule && (!best || result.makespan < best->makespan)) best = &result;
  return best ? "best so far " + plan_label(*best) + " " + format_makespan(best->makespan, best->clock)
              : "nothing found yet";
}

// The chain's textbook orders: 1F1B, and ZB-H1 when a split backward is
// asked; under --recompute auto also as --recompute all orders them, every
// forward recomputed just before its backward. The first is the yardstick.
void order_chains(PlanContext& context, const std::vector<PipelineOptions>& asked, std::vector<PlanResult>& results) {
  bool any_split = std::any_of(asked.begin(), asked.end(), [](const PipelineOptions& o) { return o.split_backward; });
  for (bool apart : {false, true}) {
    if (apart && !all_apart(context.request)) continue;
    for (bool split : {false, true}) {
      if (split && !any_split) continue;
      PipelineOptions chain = with_mapping(context.request.pipeline, StageMapping::Chain, 1, split);
      const Deadline& deadline = context.request.deadline;
      results.push_back(placed_plan(context, chain, deadline.within(std::min(10.0, deadline.seconds_left() / 8)),
                                    recomputes_all(context.request, apart)));
      results.back().all_apart = all_apart(context.request) && !apart;
      order_chain(results.back(), context.request.nmicros);
      PlanResult& chain_plan = results.back();
      plan_line(context, "order: " + plan_label(chain_plan) + " (" + cut_name(chain_plan.cut) + " cut): " +
                             (chain_plan.schedule ? chain_plan.construction + " " +
                                                        format_makespan(chain_plan.makespan, chain_plan.clock)
                                                  : chain_plan.message));
    }
  }
}

// The chains not asked for get a short search of their own (a tenth of the
// time, at most 10 s): the floor a plan keeps is then the best chain found,
// not only its textbook order.
void search_chains(PlanContext& context, const std::vector<PipelineOptions>& asked, std::vector<PlanResult>& results) {
  for (PlanResult& chain : results) {
    if (std::any_of(asked.begin(), asked.end(), [&](const PipelineOptions& o) { return same_plan(o, chain.pipeline); }))
      continue;
    const Deadline& deadline = context.request.deadline;
    search_plan(context, chain, deadline.within(std::min(10.0, deadline.seconds_left() / 10)));
    plan_line(context, "search: " + plan_label(chain) + ": " +
                           (chain.schedule ? format_makespan(chain.makespan, chain.clock) + " (" + chain.construction + ")"
                                           : chain.message));
  }
}

// One asked candidate (`apart`: auto's that recomputes all) placed when
// not yet, and searched until `deadline`.
void search_candidate(PlanContext& context, const PipelineOptions& options, bool apart, const Deadline& deadline,
                      std::vector<PlanResult>& results) {
  auto existing = std::find_if(results.begin(), results.end(),
                               [&](const PlanResult& r) { return same_candidate(r, options, apart); });
  if (existing == results.end()) {
    results.push_back(placed_plan(context, options, deadline.within(std::min(10.0, deadline.seconds_left() / 4)),
                                  recomputes_all(context.request, apart)));
    existing = results.end() - 1;
    existing->all_apart = all_apart(context.request) && !apart;
    plan_line(context, "partition: " + plan_label(*existing) + ": " + cut_name(existing->cut) + " cut");
  }
  search_plan(context, *existing, deadline);
  plan_line(context, "search: " + plan_label(*existing) + ": " +
                         (existing->schedule ? format_makespan(existing->makespan, existing->clock) + " (" +
                                                   outcome_name(existing->search.outcome) + ")"
                                             : existing->message) +
                         "; " + best_so_far(results));
}

// Each asked mapping gets an equal share of the time left. Under
// --recompute auto its candidate recomputing all goes first with half of
// it (what it leaves goes to the other): the placement that offers the
// choice has its memory-trading schedules within milliseconds
// (solver/solve/traded_start.hpp), while the recompute-all search needs its
// time as --recompute all gives it.
void search_asked(PlanContext& context, const std::vector<PipelineOptions>& asked, std::vector<PlanResult>& results) {
  for (size_t i = 0; i < asked.size(); ++i) {
    const Deadline& deadline = context.request.deadline;
    Deadline share = deadline.within(deadline.seconds_left() / static_cast<double>(asked.size() - i));
    if (all_apart(context.request))
      search_candidate(context, asked[i], true, share.within(share.seconds_left() / 2), results);
    search_candidate(context, asked[i], false, share, results);
  }
}

// The fastest verified schedule; on a tie the asked mapping, in asking order.
const PlanResult* fastest(const std::vector<PlanResult>& results, const std::vector<PipelineOptions>& asked) {
  const PlanResult* best = nullptr;
  auto asked_rank = [&](const PlanResult& r) {
    for (size_t i = 0; i < asked.size(); ++i)
      if (same_plan(asked[i], r.pipeline)) return static_cast<int>(i);
    return static_cast<int>(asked.size());
  };
  for (const PlanResult& result : results) {
    if (!result.schedule) continue;
    if (!best || result.makespan < best->makespan ||
        (result.makespan == best->makespan && asked_rank(result) < asked_rank(*best)))
      best = &result;
  }
  return best;
}

std::string choice_text(const PlanRequest& request, const PlanAnswer& answer, const std::vector<PipelineOptions>& asked,
                        const std::vector<PlanResult>& results) {
  if (!answer.chosen.schedule) return "";
  std::string written = plan_label(answer.chosen);
  if (request.auto_mapping) return "auto: " + written + " is the fastest of " + std::to_string(answer.compared.size()) + " plans";
  if (same_plan(asked.front(), answer.chosen.pipeline)) return written + " as asked";
  auto own = own_result(results, asked.front());
  std::string why = own == results.end() || !own->schedule
                        ? "the " + plan_label(asked.front()) + " plan has no schedule (" +
                              (own == results.end() ? std::string("not searched") : own->message) + ")"
                        : "the " + plan_label(asked.front()) + " plan found (" +
                              format_makespan(own->makespan, own->clock) + ") is not faster" +
                              (answer.outcome == Outcome::Timeout ? " within the time limit" : "");
  return "asked " + plan_label(asked.front()) + ", wrote " + written + " (" + answer.chosen.construction + "): " + why +
         "; its stages differ, so stages.json, the placement and the tables are the " + written + " plan's";
}

}  // namespace

PlanAnswer plan_pipeline(const Graph& graph, const PlanRequest& request, const PlanProgressLine& phase) {
  check_request(graph, request);
  PlanClock clock = plan_clock(graph, request.device_flops, request.link_bandwidth, request.link_latency);
  if (request.host_bandwidth != 0) set_host_bandwidth(clock, request.host_bandwidth);
  PlanContext context{graph, request, clock, phase, {}, Deadline::Clock::now(), {}};
  std::vector<PipelineOptions> asked = request.auto_mapping ? auto_candidates(graph, request.pipeline)
                                                            : std::vector<PipelineOptions>{request.pipeline};
  std::vector<PlanResult> results;
  order_chains(context, asked, results);
  PlanAnswer answer;
  answer.clock = context.clock;
  answer.one_f_one_b_order = results.front().construction;
  if (results.front().schedule) answer.one_f_one_b = results.front().makespan;
  else answer.one_f_one_b_note = results.front().message;
  search_chains(context, asked, results);
  search_asked(context, asked, results);
  for (const PlanResult& result : results) answer.compared.push_back(row_of(result));
  const PlanResult* best = fastest(results, asked);
  // A chain's short search that runs out of its tenth is expected; only an
  // asked mapping's search that the time limit cut makes the plan a time-out.
  bool stopped = request.deadline.stopped();
  for (const PlanResult& result : results)
    if ((result.outcome == Outcome::Timeout || result.outcome == Outcome::Interrupted) &&
        std::any_of(asked.begin(), asked.end(), [&](const PipelineOptions& o) { return same_plan(o, result.pipeline); }))
      stopped = true;
  if (best) {
    answer.chosen = *best;
    answer.outcome = stopped ? (request.deadline.stopped() ? Outcome::Interrupted : Outcome::Timeout) : Outcome::Found;
  } else {
    auto searched = own_result(results, asked.front());
    answer.chosen = *searched;
    answer.outcome = stopped ? (request.deadline.stopped() ? Outcome::Interrupted : Outcome::Timeout)
                             : Outcome::Infeasible;
    answer.message = searched->message;
  }
  answer.choice = choice_text(request, answer, asked, results);
  if (best && stopped)
    answer.message = "kept " + plan_label(*best) + " (" + best->construction + ", " +
                     format_makespan(best->makespan, best->clock) +
                     "); a longer --time-limit may find a faster plan";
  answer.seconds = seconds_since(context.begin);
  plan_line(context, "verify: " + (best ? plan_label(*best) + " " + format_makespan(best->makespan, best->clock) +
                                              " verified"
                                        : std::string("no schedule")));
  return answer;
}

}  // namespace tessel
