// Strategy `repetend` (ALGORITHMS.md sections 2-3): periods P = L, L+1, ...
// each decided by one solver call on the modulo encoding; the first
// satisfiable one is the answer and every unsatisfiable one below it is part
// of the proof. Then, on the same solver, the latency of one micro-batch is
// bisected downward under assumptions (fewer micro-batches in flight, less
// memory, shorter warmup), and warmup and cooldown are built around it.
//
// The search never starts empty-handed: one micro-batch run alone gives a
// period that always works when memory allows a micro-batch at all, which is
// both the upper end of the period loop and the schedule returned when the
// time limit strikes first.
#include "solver/repetend_search.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "model/input_error.hpp"
#include "solver/backend.hpp"
#include "solver/boundary_solver.hpp"
#include "solver/full_search.hpp"
#include "solver/modulo_encoding.hpp"
#include "solver/single_micro.hpp"

namespace tessel {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const char* answer_name(Answer answer) {
  return answer == Answer::Sat ? "sat" : answer == Answer::Unsat ? "unsat" : "unknown";
}

ModuloSolution solution_from_starts(const Placement& placement, int period, std::vector<int> starts) {
  int earliest = *std::min_element(starts.begin(), starts.end());
  int latency = 0;
  for (size_t b = 0; b < starts.size(); ++b) {
    starts[b] -= earliest;
    latency = std::max(latency, starts[b] + placement.blocks[b].span);
  }
  return {period, starts, latency, (latency + period - 1) / period};
}

void require_steady_state(const Placement& placement) {
  std::vector<long long> balance = memory_balance(placement);
  for (int device = 0; device < placement.ndevs; ++device) {
    if (balance[device] == 0) continue;
    throw InputError("", "blocks[].memory",
                     "the memory deltas on device " + std::to_string(device) + " sum to " +
                         std::to_string(balance[device]) +
                         " over one micro-batch, not 0: memory would grow with every micro-batch, so no "
                         "repetend exists (use --strategy full with a fixed --nmicros)");
  }
}

std::string memory_text(const std::vector<long long>& values) {
  std::ostringstream text;
  for (size_t d = 0; d < values.size(); ++d) text << (d ? "," : "") << values[d];
  return text.str();
}

}  // namespace

SearchResult search_repetend(const Placement& placement, const SearchOptions& options) {
  require_steady_state(placement);
  const auto begin = std::chrono::steady_clock::now();
  auto report = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  SearchResult result;
  result.lower_bound = period_lower_bound(placement);
  result.proven_lower_bound = result.lower_bound;

  // One micro-batch alone: the list schedule if it fits, else ask the full
  // solver for any order that does; if none does, no schedule exists at all.
  std::vector<int> alone = single_micro_starts(placement);
  std::vector<long long> alone_peak = single_micro_peak(placement, alone);
  bool alone_fits = true;
  for (int d = 0; d < placement.ndevs; ++d) alone_fits &= options.memory_limit.empty() || alone_peak[d] <= options.memory_limit[d];
  if (!alone_fits) {
    SearchOptions one = options;
    one.nmicros = 1;
    one.progress = nullptr;
    SearchResult single = search_full(placement, one);
    if (single.status == SearchStatus::Infeasible) {
      result.status = SearchStatus::Infeasible;
      result.message = "the memory limit is too small even for one micro-batch: run alone in dependency order "
                       "it needs " + memory_text(alone_peak) + " per device (limit " +
                       memory_text(options.memory_limit) + "), and the solver proved no order of one "
                       "micro-batch fits";
      result.phases.push_back({"period", seconds_since(begin)});
      return result;
    }
    if (single.status == SearchStatus::Timeout) {
      result.status = SearchStatus::Timeout;
      result.message = "time limit reached while looking for any order of one micro-batch that fits memory";
      result.phases.push_back({"period", seconds_since(begin)});
      return result;
    }
    for (const Instance& instance : single.schedule->instances) alone[instance.block] = instance.start;
  }
  ModuloSolution fallback = solution_from_starts(placement, 1, alone);
  fallback.period = std::max(fallback.latency, result.lower_bound);
  fallback.in_flight = 1;

  // Kmax: the user's K, else as many as the blocks of one micro-batch (a
  // modulo schedule of minimal latency never needs more than one period per
  // block of its longest chain in flight).
  const int max_in_flight = options.nmicros.value_or(std::max<int>(1, placement.blocks.size()));
  std::optional<ModuloSolution> found;
  std::unique_ptr<Backend> backend;
  ModuloEncoding encoding;
  bool gave_up = false;
  for (int period = result.lower_bound; period <= fallback.period; ++period) {
    backend = make_backend(options.backend);
    auto call_start = std::chrono::steady_clock::now();
    encoding = encode_modulo(*backend, placement, options.memory_limit, period, max_in_flight);
    Answer answer = backend->solve({}, options.deadline);
    double seconds = seconds_since(call_start);
    result.calls.push_back({"period " + std::to_string(period), answer_name(answer), seconds});
    std::ostringstream line;
    line << "repetend: period " << period << ": " << answer_name(answer) << " (" << seconds << " s, "
         << seconds_since(begin) << " s elapsed)";
    report(line.str());
    if (answer == Answer::Unsat) {
      result.proven_lower_bound = period + 1;
      continue;
    }
    if (answer == Answer::Unknown) {
      gave_up = true;
      break;
    }
    std::vector<int> starts;
    for (IntVar var : encoding.starts) starts.push_back(backend->value(var));
    found = solution_from_starts(placement, period, starts);
    break;
  }
  result.phases.push_back({"period", seconds_since(begin)});

  if (!found && !gave_up && fallback.in_flight <= max_in_flight) {
    // Cannot happen when the encoding is right: the fallback is a solution
    // of the largest period tried. Say so rather than hide it.
    throw std::logic_error("repetend search: period " + std::to_string(fallback.period) +
                           " decided unsat although one micro-batch alone fits");
  }
  if (!found && !gave_up) {
    result.status = SearchStatus::Infeasible;
    result.message = "no repetend with at most " + std::to_string(max_in_flight) +
                     " micro-batches in flight fits the memory limit";
    return result;
  }

  // Second objective: the shortest latency at this period.
  bool latency_gave_up = false;
  if (found) {
    auto latency_begin = std::chrono::steady_clock::now();
    int low = critical_path(placement);
    while (low < found->latency) {
      int mid = low + (found->latency - low) / 2;
      auto call_start = std::chrono::steady_clock::now();
      Answer answer = backend->solve(latency_assumptions(*backend, encoding, placement, mid), options.deadline);
      double seconds = seconds_since(call_start);
      result.calls.push_back({"latency <= " + std::to_string(mid), answer_name(answer), seconds});
      std::ostringstream line;
      line << "repetend: latency <= " << mid << ": " << answer_name(answer) << " (" << seconds << " s)";
      report(line.str());
      if (answer == Answer::Sat) {
        std::vector<int> starts;
        for (IntVar var : encoding.starts) starts.push_back(backend->value(var));
        found = solution_from_starts(placement, found->period, starts);
      } else if (answer == Answer::Unsat) {
        low = mid + 1;
      } else {
        latency_gave_up = true;
        break;
      }
    }
    result.phases.push_back({"latency", seconds_since(latency_begin)});
  }

  ModuloSolution chosen = found ? *found : fallback;
  auto build_begin = std::chrono::steady_clock::now();
  WarmupCooldown built = build_warmup_cooldown(placement, options.memory_limit, chosen);
  // The solver shortens both ends within its own budget (never past the
  // deadline): an unfinished shortening still leaves a valid schedule.
  BoundaryOutcome shortened{built.schedule, false, false, {}};
  if (options.boundary_seconds > 0) {
    Deadline boundary_deadline = Deadline::after_seconds(options.boundary_seconds);
    if (options.deadline.at < boundary_deadline.at) boundary_deadline = options.deadline;
    shortened = shorten_boundary(built.schedule, options.backend, boundary_deadline, options.progress);
  }
  for (const SolverCall& call : shortened.calls) result.calls.push_back(call);
  result.phases.push_back({"warmup/cooldown", seconds_since(build_begin)});
  if (shortened.improved) built.schedule = shortened.schedule;
  built.schedule.search = {{"strategy", "repetend"},
                           {"backend", options.backend},
                           {"proven_lower_bound", result.proven_lower_bound},
                           {"squeezed", built.squeezed},
                           {"boundary_solved", shortened.improved},
                           {"boundary_proven_minimal", shortened.complete}};
  result.schedule = built.schedule;
  result.period = chosen.period;
  result.latency = chosen.latency;
  result.nmicros_in_flight = chosen.in_flight;
  result.makespan = makespan(built.schedule);
  if (gave_up) {
    result.status = SearchStatus::Timeout;
    result.message = "time limit reached while deciding period " + std::to_string(result.proven_lower_bound) +
                     "; the schedule is the fallback (one micro-batch at a time, period " +
                     std::to_string(chosen.period) + ")";
  } else if (latency_gave_up) {
    result.status = SearchStatus::Timeout;
    result.message = "time limit reached while minimising the latency at period " + std::to_string(chosen.period) +
                     "; the period is decided, the latency may not be minimal";
  } else {
    result.status = SearchStatus::Found;
  }
  return result;
}

}  // namespace tessel
