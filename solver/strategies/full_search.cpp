// Strategy `full` (docs/algorithms.md, "Full search"): every instance of `total_micros`
// micro-batches gets a start in [0, H), and the makespan bound T is moved
// under assumptions on one solver (bisection), so that the unsatisfiable
// bound just below the answer is the proof of optimality.
//
// Why these choices: the horizon H comes from a schedule built first (the
// caller's start schedule, solve() passes the repetend search's schedule
// unrolled to total_micros, else micro-batches one after another), which is
// also the answer if the solver runs out of time; the
// repetend's is usually within a few steps of the optimum, so the horizon,
// and with it the encoding, is several times smaller than the serial one; memory is a bound per device and step over order
// literals [start <= t], which both backends handle natively (Z3 as
// comparisons, the SAT backend as its order encoding); the makespan bound is
// the set of literals [start <= T - span], so no constraint is ever retracted.
#include "solver/strategies/full_search.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <sstream>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "sat/backend.hpp"
#include "solver/knobs/encoding_budget.hpp"
#include "solver/makespan/bounds/device_work_bounds.hpp"
#include "solver/makespan/bounds/solved_bounds.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/modulo/schedule_check.hpp"
#include "solver/strategies/full_encoding.hpp"
#include "solver/strategies/single_micro.hpp"

namespace tessel {
namespace {

// Micro-batches one after another, each as its own list schedule.
Schedule serial_schedule(const Placement& placement, const std::vector<long long>& memory_limit, int total_micros) {
  Schedule schedule = empty_schedule(placement, memory_limit, total_micros);
  std::vector<int> starts = single_micro_starts(placement);
  int length = 0;
  for (size_t b = 0; b < starts.size(); ++b) length = std::max<Time>(length, starts[b] + placement.blocks[b].span);
  for (int micro = 0; micro < total_micros; ++micro)
    for (size_t b = 0; b < starts.size(); ++b)
      schedule.instances.push_back({static_cast<int>(b), micro, micro * length + starts[b]});
  sort_instances(schedule);
  return schedule;
}

// Each start's domain within `horizon`: between the work its device must do
// before it and after it. `room`: every domain is non-empty.
StartDomains start_domains(const Placement& placement, int total_micros, Time horizon, bool& room) {
  const DeviceWorkBounds work(placement, total_micros);
  const int nblocks = static_cast<int>(placement.blocks.size());
  StartDomains domains(nblocks);
  room = true;
  for (int b = 0; b < nblocks; ++b)
    for (int micro = 0; micro < total_micros; ++micro) {
      const int earliest = static_cast<int>(work.head(b, micro));
      const int latest = static_cast<int>(horizon - work.tail(b, micro));
      domains[b].push_back({earliest, std::max(earliest, latest)});
      room = room && latest >= earliest;
    }
  return domains;
}

// Why the encoding on `domains` would not fit (encoding_budget.hpp), or nothing.
std::optional<std::string> refusal(const Placement& placement, const SearchOptions& options, int total_micros,
                                   Time horizon, const StartDomains& domains) {
  const EncodingSize size = full_encoding_size(placement, options.memory_limit, total_micros, domains, true);
  if (size.memory_terms > kMaxMemoryTerms)
    return std::to_string(total_micros) + " micro-batches are too many for strategy full: its memory "
           "constraints would hold " + std::to_string(size.memory_terms) + " terms (horizon " +
           std::to_string(horizon) + " steps), more than the " + std::to_string(kMaxMemoryTerms) +
           " that fit in memory; use --strategy repetend (its schedule unrolls to any number of "
           "micro-batches with 'tessel unroll') or fewer --nmicros";
  if (size.literals > kMaxOrderLiterals)
    return std::to_string(total_micros) + " micro-batches over a horizon of " + std::to_string(horizon) +
           " ticks are too many for strategy full: its start variables would take " +
           std::to_string(size.literals) + " literals, more than the " + std::to_string(kMaxOrderLiterals) +
           " that fit in memory (the unit-step encoding grows with the time values); use --strategy "
           "repetend, fewer --nmicros, or --resolution";
  return std::nullopt;
}

// Each start's domain within `horizon`, or InputError when the encoding on
// them would not fit (encoding_budget.hpp). `room`: every domain is
// non-empty.
StartDomains admitted_domains(const Placement& placement, const SearchOptions& options, int total_micros, Time horizon,
                              bool& room) {
  StartDomains domains = start_domains(placement, total_micros, horizon, room);
  if (std::optional<std::string> why = refusal(placement, options, total_micros, horizon, domains))
    throw InputError("", "--nmicros", *why);
  return domains;
}

}  // namespace

namespace {

// Whether the placement offers to trade memory for time anywhere (then the
// bounds that assume every activation kept bound nothing).
bool offers_trading(const Placement& placement) {
  return std::any_of(placement.blocks.begin(), placement.blocks.end(),
                     [](const Block& block) { return block.recompute || block.offload; });
}

// The recomputes and offloads of `schedule` that memory does not need,
// dropped (the latest first): each costs device or channel time and
// changes no dependency, so the makespan stays; with memory to spare
// nothing is traded.
void drop_needless_choices(Schedule& schedule) {
  for (size_t i = schedule.recomputes.size(); i-- > 0;) {
    const RecomputeRun run = schedule.recomputes[i];
    schedule.recomputes.erase(schedule.recomputes.begin() + static_cast<long>(i));
    if (!schedule_fits(schedule)) schedule.recomputes.insert(schedule.recomputes.begin() + static_cast<long>(i), run);
  }
  for (size_t i = schedule.transfers.size(); i-- > 0;) {
    if (i >= schedule.transfers.size() || schedule.transfers[i].direction != TransferDirection::In) continue;
    const std::vector<Transfer> before = schedule.transfers;
    const Transfer copy = schedule.transfers[i];
    schedule.transfers.erase(std::remove_if(schedule.transfers.begin(), schedule.transfers.end(),
                                            [&](const Transfer& t) { return t.block == copy.block && t.micro == copy.micro; }),
                             schedule.transfers.end());
    if (!schedule_fits(schedule)) schedule.transfers = before;
  }
}

// One full search: its question, the schedule in hand and the report so far.
struct FullRun {
  const Placement& placement;
  const SearchOptions& options;
  int total_micros;
  std::chrono::steady_clock::time_point begin;
  SearchResult result;
  std::optional<Schedule> best;
  Time horizon = 0;  // 64-bit: measured times make the serial horizon large before the budget refuses it

  void report(const std::string& line) const {
    if (options.progress) options.progress(line);
  }
  // The result as it stands, with the best schedule and the time spent.
  SearchResult finish() {
    if (best) drop_needless_choices(*best);
    if (best) {
      result.makespan = makespan(*best);
      result.schedule = best;
    }
    result.phases.push_back({"full", seconds_since(begin)});
    return std::move(result);
  }
};

// An upper bound: the serial schedule when it fits, else every instance in
// a row, each after its longest incoming delay, and every recompute run and
// copy that may be chosen (any valid schedule can be serialised so, in start order,
// without changing any device's memory curve, so this horizon loses
// nothing); a start schedule shorter than it is taken instead.
void take_first_schedule(FullRun& run, const std::optional<Schedule>& start_schedule) {
  const Placement& placement = run.placement;
  Schedule serial = serial_schedule(placement, run.options.memory_limit, run.total_micros);
  if (schedule_fits(serial)) {
    run.best = serial;
    run.horizon = makespan(serial);
  } else {
    std::vector<Time> longest_delay(placement.blocks.size(), 0);
    for (const Edge& edge : placement.edges) longest_delay[edge.to] = std::max(longest_delay[edge.to], edge.delay);
    // A recompute run is one more interval in the row.
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      const Block& block = placement.blocks[b];
      const Time chosen = (block.recompute ? block.recompute->span : 0) +
                          (block.offload ? block.offload->out + block.offload->in : 0);
      run.horizon += (block.span + longest_delay[b] + chosen) * run.total_micros;
    }
  }
  if (start_schedule && start_schedule->nmicros == run.total_micros && schedule_fits(*start_schedule) &&
      makespan(*start_schedule) < run.horizon) {
    run.report("full: start from a schedule of makespan " + std::to_string(makespan(*start_schedule)));
    run.best = *start_schedule;
    run.best->repetend.reset();
    run.horizon = makespan(*start_schedule);
  }
}

// The bisection starts from the best bound there is: the solved bounds
// (solver/makespan/bounds/solved_bounds) within their budgets, at most half
// the time left (the solver needs the rest), when a schedule is in hand that
// they could prove optimal; not again when the caller computed them.
void raise_bound(FullRun& run, MakespanBound bound, bool computed_by_caller) {
  if (!computed_by_caller && run.best && solved_bounds_on(run.options) && makespan(*run.best) > bound.value) {
    bound = raised_by_solved_bounds(run.placement, run.total_micros, run.options, makespan(*run.best), bound,
                                    {0.5, &*run.best});
    if (solved_bound(bound))
      run.report("full: " + std::string(bound_argument_name(bound.argument)) + " proves makespan >= " +
                 std::to_string(bound.value));
  }
  run.result.makespan_bound = bound;
  run.result.proven_lower_bound = std::max<Time>(run.result.proven_lower_bound, bound.value);
}

// The backends' integers are 32-bit: a longer horizon is refused first.
void require_32_bit_horizon(const FullRun& run) {
  if (run.horizon <= std::numeric_limits<int>::max() / 2) return;
  throw InputError("", "--nmicros",
                   std::to_string(run.total_micros) + " micro-batches over a horizon of " + std::to_string(run.horizon) +
                       " ticks are too many for strategy full: its start variables would not fit the solver's "
                       "32-bit integers; use --strategy repetend, fewer --nmicros, or --resolution");
}

// Without a schedule in hand, first ask for any; false when the search ends
// here (no schedule exists, or the time ran out).
bool ask_for_any(FullRun& run, FullEncoding& encoding) {
  auto call_start = std::chrono::steady_clock::now();
  Answer answer = encoding.backend->solve({}, run.options.deadline);
  run.result.calls.push_back({"makespan <= " + std::to_string(run.horizon), answer, seconds_since(call_start)});
  run.report("full: any schedule within " + std::to_string(run.horizon) + " steps: " + answer_name(answer));
  if (answer == Answer::Unsat) {
    run.result.status = SearchStatus::Infeasible;
    run.result.message = "no schedule of " + std::to_string(run.total_micros) + " micro-batches fits the memory limit";
    return false;
  }
  if (answer == Answer::Unknown) {
    run.result.status = SearchStatus::Timeout;
    run.result.message = std::string(stop_reason(run.options.deadline)) + " before any schedule was found";
    return false;
  }
  run.best = decode_schedule(encoding, run.placement, run.options.memory_limit, run.total_micros);
  return true;
}

// Bisect the makespan between the proven bound and the best schedule: a
// sat answer brings its own (often much shorter) schedule, an unsat one
// raises the proven bound. The first question is one step below the
// schedule in hand: when that is optimal (the ties the full search is asked
// to settle), one refutation proves it.
void bisect_makespan(FullRun& run, FullEncoding& encoding) {
  SearchResult& result = run.result;
  const DeviceWorkBounds work(run.placement, run.total_micros);
  result.status = SearchStatus::Found;
  bool first = true;
  while (makespan(*run.best) > result.proven_lower_bound) {
    const Time best = makespan(*run.best);
    const int bound = first ? static_cast<int>(best) - 1
                            : result.proven_lower_bound + (best - 1 - result.proven_lower_bound) / 2;
    first = false;
    std::vector<Lit> assumptions;
    for (size_t b = 0; b < run.placement.blocks.size(); ++b)
      for (int micro = 0; micro < run.total_micros; ++micro)
        assumptions.push_back(encoding.backend->at_most(encoding.start[b][micro],
                                                        bound - static_cast<int>(work.tail(b, micro))));
    // Said before the call: a refutation may take minutes, and the progress
    // line should name the question it is waiting on.
    run.report("full: is makespan <= " + std::to_string(bound) + " possible? (proven >= " +
               std::to_string(result.proven_lower_bound) + ", best " + std::to_string(best) + ")");
    auto call_start = std::chrono::steady_clock::now();
    Answer answer = encoding.backend->solve(assumptions, run.options.deadline);
    double seconds = seconds_since(call_start);
    result.calls.push_back({"makespan <= " + std::to_string(bound), answer, seconds});
    std::ostringstream line;
    line << "full: makespan <= " << bound << ": " << answer_name(answer) << " (" << seconds << " s, "
         << seconds_since(run.begin) << " s elapsed)";
    run.report(line.str());
    if (answer == Answer::Sat) {
      run.best = decode_schedule(encoding, run.placement, run.options.memory_limit, run.total_micros);
      continue;
    }
    if (answer == Answer::Unsat) {
      result.proven_lower_bound = bound + 1;
      continue;
    }
    result.status = SearchStatus::Timeout;
    result.message = std::string(stop_reason(run.options.deadline)) + " while proving makespan " +
                     std::to_string(best) + " optimal (proven lower bound " +
                     std::to_string(result.proven_lower_bound) + ")";
    return;
  }
}

}  // namespace

std::optional<std::string> full_encoding_refusal(const Placement& placement, const SearchOptions& options,
                                                 int total_micros, Time horizon) {
  if (horizon > std::numeric_limits<int>::max() / 2) return std::string("a horizon past 32-bit integers");
  bool room = true;
  return refusal(placement, options, total_micros, horizon, start_domains(placement, total_micros, horizon, room));
}

SearchResult search_full(const Placement& placement, const SearchOptions& options,
                         const std::optional<Schedule>& start_schedule, const MakespanBound* known_bound) {
  FullRun run{placement, options, options.total_micros, std::chrono::steady_clock::now()};
  // Memory traded for time offered: the bounds that assume every activation
  // kept (the memory arguments, the solved bounds, a caller's) bound
  // nothing; the one without memory does, and the encoding's refutations
  // when it holds every choice.
  const bool trading = offers_trading(placement);
  run.result.refutes_traded = true;  // the encoding below chooses recomputes and offloads
  MakespanBound bound = trading ? makespan_bound(placement, run.total_micros)
                                : makespan_bound(placement, run.total_micros, options.memory_limit);
  if (!trading && known_bound && known_bound->value > bound.value) bound = *known_bound;
  run.result.lower_bound = run.result.proven_lower_bound = bound.value;
  take_first_schedule(run, start_schedule);
  raise_bound(run, bound, trading || known_bound != nullptr);
  if (run.best && makespan(*run.best) <= run.result.proven_lower_bound) {
    run.result.status = SearchStatus::Found;
    return run.finish();
  }
  require_32_bit_horizon(run);
  // Each start lies between the work its device must do before it and after
  // it (device_work_bounds.hpp). What cannot be built is refused up front
  // (see encoding_budget.hpp).
  bool room = true;
  const StartDomains domains = admitted_domains(placement, options, run.total_micros, run.horizon, room);
  run.report("full: building the encoding of " + std::to_string(run.total_micros) + " micro-batches over " +
             std::to_string(run.horizon) + " steps");
  std::optional<FullEncoding> encoding =
      build_full_encoding(placement, options, run.total_micros, run.horizon, domains, true);
  if (encoding && !encoding->recomputes.empty())
    run.report("full: a recompute chosen per micro-batch of " + std::to_string(encoding->recomputes.size()) +
               " forward block(s)");
  if (encoding && !encoding->offloads.empty())
    run.report("full: an offload chosen per micro-batch of " + std::to_string(encoding->offloads.size()) +
               " forward block(s)");
  if (!encoding) {
    run.result.status = SearchStatus::Timeout;
    run.result.message = std::string(stop_reason(options.deadline)) + " while building the encoding of " +
                         std::to_string(run.total_micros) + " micro-batches" +
                         (run.best ? "; the schedule is the serial one" : "");
    return run.finish();
  }
  // No room within the horizon: no schedule at all.
  if (!room) encoding->backend->add_clause({});
  // Solution-guided: the solver's decisions start from the schedule in hand,
  // so the first question (one step shorter) is asked next to a schedule
  // that nearly answers it (measured: interleaved zero bubble, 16 ranks, 16
  // micro-batches, F=2 B=2 W=1: docs/algorithms.md, "Full search").
  if (run.best) prefer_schedule(*encoding, *run.best);
  if (!run.best && !ask_for_any(run, *encoding)) return run.finish();
  bisect_makespan(run, *encoding);
  return run.finish();
}

}  // namespace tessel
