// `tessel search` (SPEC section 3): finds a schedule for a placement under a
// memory limit, prints it with its bounds and proofs, and writes it. Whatever
// it reports as found has passed the independent verifier first: a search
// that produced an invalid schedule is a bug and ends with exit 4, loudly.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "model/unroll.hpp"
#include "solver/backend.hpp"
#include "solver/fast_search.hpp"
#include "solver/full_search.hpp"
#include "solver/makespan_bound.hpp"
#include "solver/makespan_gap.hpp"
#include "solver/staged_schedule.hpp"
#include "solver/repetend_search.hpp"
#include "solver/resolution.hpp"
#include "solver/unit_step_problem.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {
namespace {

// Fast strategy: warmup and cooldown within 0.2% of 128 periods of the
// bound are accepted without the solver (see solver/fast_search.hpp).
constexpr double kFastBubbleBudget = 0.002;

const char* kUsage =
    "tessel search (--case NAME --ndevs D [--infer] | --placement FILE) --memory M\n"
    "              [--strategy repetend|full|fast] [--backend cadical|z3] [--nmicros K]\n"
    "              [--micros-per-window k] [--window-seconds S] [--total-micros N]\n"
    "              [--time-limit SECONDS] [--boundary-seconds S] [-o FILE]\n"
    "              [--staged-output FILE] [--json]\n\n"
    "Strategies:\n"
    "  repetend (default)  the minimal period P of a repetend running every block once per\n"
    "                      period, searched upward from the lower bound L (the busiest device's\n"
    "                      load); every period below P is proven impossible by the solver (for\n"
    "                      repetends with at most Kmax micro-batches in flight). Then\n"
    "                      the shortest latency at that period, then warmup and cooldown (the\n"
    "                      truncated modulo schedule, improved by a squeeze when it stays valid,\n"
    "                      then shortened by the solver within --boundary-seconds).\n"
    "                      --nmicros K sets Kmax (default: the number of blocks of one micro-batch;\n"
    "                      within it memory decides, and the shortest latency gives the fewest).\n"
    "                      The written schedule holds K micro-batches with the repetend window\n"
    "                      marked; 'tessel unroll' expands it to any N. Periods are asked\n"
    "                      only up to the fast construction's (below) when it beats one\n"
    "                      micro-batch at a time, and on time-out that construction is the answer.\n"
    "                      Windows: a repetend may run every block k times per period P_k\n"
    "                      (k micro-batches per window, average period P_k / k). By default\n"
    "                      (--micros-per-window 0) k = 1 is decided first, then k = 2 .. 4 within\n"
    "                      --window-seconds (default 5, at most half the time left): a larger k\n"
    "                      only for windows whose average beats the best so far, stopping once an\n"
    "                      average reaches L; the best average wins (ties: the smaller k). A k\n"
    "                      left undecided in its share is reported 'undecided' and does not make\n"
    "                      the answer a time-out. --micros-per-window k fixes k. Every k tried is\n"
    "                      reported with its proven bound on P_k; 'optimal' means optimal for the\n"
    "                      chosen k (a wider window than 4 is not ruled out).\n"
    "  full                all --nmicros micro-batches at once (required), minimal makespan under\n"
    "                      the memory limit, proven optimal when the bound below it is decided.\n"
    "  fast                a repetend constructed without search (ALGORITHMS.md section 5, the\n"
    "                      Tessel-fast idea): at P = L, L+1, ... phases are packed per device\n"
    "                      (tensor-parallel blocks at the window's two ends, odd devices' order\n"
    "                      reversed; or modulo list scheduling), each block gets the smallest\n"
    "                      micro-batch offset its dependencies allow, and the first candidate\n"
    "                      that passes dependencies, exclusivity and memory is kept; one\n"
    "                      micro-batch at a time is the last resort. On placements of at most 40\n"
    "                      blocks the solver then asks the periods below it, downward, within\n"
    "                      --improve-seconds (default 1; 0 = skip). Then warmup and cooldown as\n"
    "                      for repetend; the solver shortens them only while their bubbles exceed\n"
    "                      0.2% of --total-micros x period, within --boundary-seconds (default 1 s\n"
    "                      for fast). Proves nothing: the only bound is L, so 'proven optimal'\n"
    "                      only when the period equals L. --nmicros bounds K in flight.\n\n"
    "Output: the timeline, period (P_k of the chosen window), lower bound (k L), whether proven optimal, warmup/cooldown steps,\n"
    "peak memory, makespan and bubble ratio at --total-micros (by unrolling) against a lower bound\n"
    "(a device's work plus the idle steps it cannot avoid) with the gap, and where the gap is above\n"
    "1% why, as far as the search knows, and then a staged schedule (the memory-free all-device\n"
    "blocks of every micro-batch first and last, the rest's repetend between; for --total-micros only)\n"
    "when the placement has such blocks; solve time per\n"
    "phase; progress on stderr. Exit 0 found, 1 no schedule exists (proven), 2 bad input,\n"
    "3 time limit (the best schedule so far is still written with -o), 4 internal error.";

struct Metrics {
  int total_micros = 0;
  int makespan = 0;
  double bubble_ratio = 0;
  long long bound = 0;
  MakespanBound bounds;
  std::string gap_reason;  // empty when within 1% of the bound
  std::optional<StagedSchedule> staged;  // tried when the repetend is more than 1% above the bound
};

std::string join(const std::vector<long long>& values) {
  std::ostringstream text;
  for (size_t i = 0; i < values.size(); ++i) text << (i ? "," : "") << values[i];
  return text.str();
}

const char* status_name(SearchStatus status) {
  return status == SearchStatus::Found ? "found" : status == SearchStatus::Infeasible ? "infeasible" : "timeout";
}

// --resolution as ticks of the placement's time unit (raising its scale
// when R has more decimals); nullopt when not given.
std::optional<Time> resolution_ticks(Placement& placement, const po::variables_map& values, const std::string& option) {
  if (!values.count(option)) return std::nullopt;
  const std::string text = values[option].as<std::string>();
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  const std::optional<Decimal> amount = plain ? parse_quantity(text) : std::nullopt;
  if (!amount || amount->digits <= 0)
    throw InputError("", "--" + option, "'" + text + "' is not a positive time (a number such as 0.01 or 1000)");
  if (amount->decimals > placement.time_decimals && !rescale_time(placement, amount->decimals))
    throw InputError("", "--" + option, "'" + text + "' needs more decimals than the placement's times allow");
  std::optional<long long> ticks = to_ticks(*amount, placement.time_decimals);
  if (!ticks || *ticks < 1) throw InputError("", "--" + option, "'" + text + "' is too large");
  return *ticks;
}

// The verifier's verdict on what we are about to report; nullopt when valid.
std::optional<std::string> rejection(const Schedule& schedule, const std::string& what) {
  verify::Report report = verify::check_schedule(schedule_to_json(schedule));
  if (report.valid) return std::nullopt;
  return "the verifier REJECTS the " + what + " (a bug in tessel's search):\n" + verify::report_to_text(report);
}

int run(const po::variables_map& values) {
  Placement placement = placement_from_options(values);
  const std::string placement_file = values.count("placement") ? values["placement"].as<std::string>() : "";
  if (!values.count("memory")) throw InputError("", "--memory", "give the memory limit per device (--memory M or M0,M1,...)");
  std::vector<Memory> limits = memory_limits_for(placement, values["memory"].as<std::string>(), "--memory");
  // --resolution R: search on times rounded up to multiples of R, read the
  // answer back on the real times (solver/resolution.hpp).
  const std::optional<Time> resolution = resolution_ticks(placement, values, "resolution");
  const Placement real_placement = placement;
  if (resolution) placement = quantise_times(placement, *resolution);
  const std::string strategy = values["strategy"].as<std::string>();
  const std::string backend = values["backend"].as<std::string>();
  const int total_micros = values["total-micros"].as<int>();
  const double time_limit = values["time-limit"].as<double>();
  const bool json = values["json"].as<bool>();
  require_writable_output(values, "output");
  require_writable_output(values, "staged-output");

  if (strategy != "repetend" && strategy != "full" && strategy != "fast")
    throw InputError("", "--strategy", "'" + strategy + "' is not one of repetend, full, fast");
  std::vector<std::string> backends = backend_names();
  if (std::find(backends.begin(), backends.end(), backend) == backends.end())
    throw InputError("", "--backend", "'" + backend + "' is not one of cadical, z3");
  if (total_micros < 1) throw InputError("", "--total-micros", "must be >= 1");
  if (time_limit < 0) throw InputError("", "--time-limit", "must be >= 0 (0 = no limit)");
  SearchOptions options;
  options.backend = backend;
  // The unit-step searches see the blocks' own memory against what the
  // static memory leaves; the schedules they return get the placement and
  // limits back, so that the file and the verifier see the whole picture.
  options.memory_limit = unit_step_limits(placement, limits);
  const Placement full_placement = real_placement;
  placement.static_memory.clear();
  auto restore = [&](Schedule& found) {
    found.placement = full_placement;
    found.memory_limit = limits;
  };
  options.deadline = Deadline::after_seconds(time_limit);
  options.boundary_seconds = values["boundary-seconds"].as<double>();
  // fast is meant to answer in about a second: a short default budget.
  if (strategy == "fast" && values["boundary-seconds"].defaulted()) options.boundary_seconds = 1;
  if (options.boundary_seconds < 0) throw InputError("", "--boundary-seconds", "must be >= 0");
  if (values.count("nmicros")) {
    int nmicros = values["nmicros"].as<int>();
    if (nmicros < 1) throw InputError("", "--nmicros", "must be >= 1");
    options.nmicros = nmicros;
  }
  if (values.count("micros-per-window")) {
    int k = values["micros-per-window"].as<int>();
    if (k < 0) throw InputError("", "--micros-per-window", "must be >= 0 (0 = try 1 .. 4)");
    if (k > 64) throw InputError("", "--micros-per-window", "must be <= 64 (the encoding grows k-fold)");
    if (strategy != "repetend") throw InputError("", "--micros-per-window", "applies to strategy repetend only");
    options.micros_per_window = k;
  } else if (strategy == "repetend") {
    options.micros_per_window = 0;
  }
  options.periods_per_solver = values["periods-per-solver"].as<int>();
  if (options.periods_per_solver < 1 || options.periods_per_solver > 64)
    throw InputError("", "--periods-per-solver", "must be in 1 .. 64");
  options.wider_window_seconds = values["window-seconds"].as<double>();
  if (!(options.wider_window_seconds >= 0)) throw InputError("", "--window-seconds", "must be >= 0 (0 = no cap)");
  const double improve_seconds = values["improve-seconds"].as<double>();
  if (improve_seconds < 0) throw InputError("", "--improve-seconds", "must be >= 0 (0 = skip)");
  if (strategy == "full" && !options.nmicros)
    throw InputError("", "--nmicros", "strategy full needs the number of micro-batches (--nmicros N)");
  const auto begin = std::chrono::steady_clock::now();
  options.progress = [&](const std::string& line) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::cerr << "[" << std::fixed << std::setprecision(2) << elapsed << " s] " << line << "\n";
  };

  SearchResult result;
  try {
    result = strategy == "full"   ? search_full(placement, options)
             : strategy == "fast" ? search_fast(placement, options, total_micros, kFastBubbleBudget, improve_seconds)
                                  : search_repetend(placement, options);
  } catch (const InputError& error) {
    if (!placement_file.empty() && error.file.empty()) throw InputError(placement_file, error.field, error.reason);
    throw;
  }
  const double solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (resolution) {
    result = lift_quantised_result(result, full_placement, limits, *resolution);
    placement = real_placement;
    placement.static_memory.clear();
  }

  if (result.status == SearchStatus::Infeasible) {
    if (json) {
      nlohmann::json out = {{"status", "infeasible"}, {"strategy", strategy}, {"backend", backend},
                            {"lower_bound", result.lower_bound}, {"proven_lower_bound", result.proven_lower_bound},
                            {"message", result.message}, {"solve_seconds", solve_seconds}};
      std::cout << out.dump(2) << "\n";
    }
    std::cerr << "tessel search: no schedule: " << result.message << "\n";
    return kNegative;
  }
  if (!result.schedule) {
    if (json) {
      nlohmann::json out = {{"status", "timeout"}, {"strategy", strategy}, {"backend", backend},
                            {"lower_bound", result.lower_bound}, {"proven_lower_bound", result.proven_lower_bound},
                            {"message", result.message}, {"solve_seconds", solve_seconds}};
      std::cout << out.dump(2) << "\n";
    }
    std::cerr << "tessel search: gave up: " << result.message << " (no schedule to write)\n";
    return kGaveUp;
  }

  Schedule& schedule = *result.schedule;
  restore(schedule);
  if (strategy == "full")
    schedule.search = {{"strategy", "full"}, {"backend", backend}, {"proven_lower_bound", result.proven_lower_bound}};
  schedule.search["solve_seconds"] = solve_seconds;
  if (auto problem = rejection(schedule, "schedule it found")) {
    std::cerr << "tessel search: " << *problem << "\n";
    return kInternal;
  }

  // Throughput at --total-micros: the repetend unrolled (below K micro-batches
  // unroll drops the ones past N, and refuses when that breaks memory), the
  // full schedule as it is.
  Metrics metrics;
  metrics.total_micros = strategy == "full" ? schedule.nmicros : total_micros;
  std::optional<Schedule> at_total;
  std::string not_unrolled = "the schedule has no repetend";
  if (strategy == "full") {
    at_total = schedule;
  } else if (schedule.repetend) {
    try {
      at_total = unroll(schedule, total_micros);
    } catch (const InputError& error) {
      not_unrolled = error.reason;
    }
  }
  if (at_total && strategy != "full") {
    if (auto problem = rejection(*at_total, "schedule unrolled to " + std::to_string(total_micros) + " micro-batches")) {
      std::cerr << "tessel search: " << *problem << "\n";
      return kInternal;
    }
  }
  std::vector<long long> peak;
  {
    verify::Report report = verify::check_schedule(schedule_to_json(at_total ? *at_total : schedule));
    peak = report.peak_memory;
    if (at_total) {
      metrics.makespan = report.makespan;
      metrics.bubble_ratio = report.bubble_ratio;
    }
  }
  metrics.bounds = makespan_bound(placement, metrics.total_micros);
  metrics.bound = metrics.bounds.value;
  if (at_total)
    metrics.gap_reason = explain_gap({strategy == "full", &result, &schedule, options.boundary_seconds,
                                      metrics.total_micros, metrics.makespan, metrics.bounds});
  const int warmup = schedule.repetend ? schedule.repetend->start : 0;
  const int cooldown = schedule.repetend ? makespan(schedule) - schedule.repetend->end : 0;
  const bool optimal = strategy == "full" ? result.makespan == result.proven_lower_bound
                                          : result.period == result.proven_lower_bound;

  // Above 1% a staged schedule (solver/staged_schedule.hpp) may do better;
  // bounded: at most 30 s and the time limit, boundary budget at most 5 s.
  if (strategy == "repetend" && !metrics.gap_reason.empty()) {
    SearchOptions staged_options = options;
    staged_options.boundary_seconds = std::min(options.boundary_seconds, 5.0);
    staged_options.deadline = Deadline::after_seconds(30);
    if (options.deadline.at < staged_options.deadline.at) staged_options.deadline = options.deadline;
    if (!staged_options.deadline.expired())
      metrics.staged = staged_schedule(placement, staged_options, metrics.total_micros);
    if (metrics.staged) {
      restore(metrics.staged->schedule);
      if (auto problem = rejection(metrics.staged->schedule, "staged schedule")) {
        std::cerr << "tessel search: " << *problem << "\n";
        return kInternal;
      }
      if (values.count("staged-output"))
        write_schedule_file(values["staged-output"].as<std::string>(), metrics.staged->schedule);
    }
  }
  if (values.count("output")) write_schedule_file(values["output"].as<std::string>(), schedule);

  nlohmann::json windows = nlohmann::json::array();
  for (const WindowAttempt& attempt : result.windows)
    windows.push_back({{"k", attempt.k},
                       {"status", attempt.status},
                       {"period", attempt.period ? nlohmann::json(attempt.period) : nlohmann::json(nullptr)},
                       {"average_period", attempt.period ? nlohmann::json(double(attempt.period) / attempt.k)
                                                         : nlohmann::json(nullptr)},
                       {"proven_lower_bound", attempt.proven_lower_bound},
                       {"optimal", attempt.period != 0 && attempt.period == attempt.proven_lower_bound},
                       {"latency", attempt.latency},
                       {"seconds", attempt.seconds}});

  if (json) {
    nlohmann::json phases = nlohmann::json::object();
    for (const PhaseTime& phase : result.phases) phases[phase.phase] = phase.seconds;
    nlohmann::json calls = nlohmann::json::array();
    for (const SolverCall& call : result.calls)
      calls.push_back({{"question", call.what}, {"answer", call.answer}, {"seconds", call.seconds}});
    nlohmann::json out = {
        {"status", status_name(result.status)},
        {"strategy", strategy},
        {"backend", backend},
        {"period", strategy == "full" ? nlohmann::json(nullptr) : nlohmann::json(result.period)},
        {"micros_per_period", schedule.repetend ? schedule.repetend->micros_per_period : 0},
        {"lower_bound", result.lower_bound},
        {"proven_lower_bound", result.proven_lower_bound},
        {"optimal", optimal && result.status == SearchStatus::Found},
        {"average_period", strategy == "full" ? nlohmann::json(nullptr)
                                              : nlohmann::json(double(result.period) / result.micros_per_window)},
        {"period_lower_bound_per_micro", strategy == "full" ? nlohmann::json(nullptr)
                                                            : nlohmann::json(result.lower_bound / result.micros_per_window)},
        {"windows", windows},
        {"nmicros_in_flight", strategy == "full" ? schedule.nmicros : result.nmicros_in_flight},
        {"latency", result.latency},
        {"latency_minimal", strategy == "full" ? nlohmann::json(nullptr) : nlohmann::json(result.latency_minimal)},
        {"warmup_steps", warmup},
        {"cooldown_steps", cooldown},
        {"peak_memory", peak},
        {"total_micros", metrics.total_micros},
        {"makespan_at_total", at_total ? nlohmann::json(metrics.makespan) : nlohmann::json(nullptr)},
        {"bubble_ratio_at_total", at_total ? nlohmann::json(metrics.bubble_ratio) : nlohmann::json(nullptr)},
        {"makespan_bound_at_total", metrics.bound},
        {"makespan_simple_bound_at_total", metrics.bounds.simple},
        {"makespan_gap_at_total", at_total ? nlohmann::json(metrics.makespan - metrics.bound) : nlohmann::json(nullptr)},
        {"makespan_gap_reason", metrics.gap_reason},
        {"staged_makespan_at_total", metrics.staged ? nlohmann::json(makespan(metrics.staged->schedule)) : nlohmann::json(nullptr)},
        {"makespan", makespan(schedule)},
        {"solve_seconds", solve_seconds},
        {"phase_seconds", phases},
        {"solver_calls", calls},
        {"message", result.message},
        {"verified", true}};
    if (strategy == "fast") {
      out["construction"] = schedule.search.value("construction", std::string());
      out["gap_to_lower_bound"] = result.period - result.lower_bound;
      out["constructed_period"] = schedule.search.value("constructed_period", 0);
      out["window_shortened_by_solver"] = schedule.search.value("window_shortened_by_solver", false);
    }
    if (resolution) out["resolution"] = resolution_error_text(placement, *resolution, result);
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << render_timeline(schedule, 200) << "\n";
    std::cout << "placement        " << placement.name << " (" << placement.ndevs << " devices, "
              << placement.blocks.size() << " blocks), memory limit " << join(limits) << "\n";
    std::cout << "strategy         " << strategy << " (backend " << backend << ")\n";
    if (resolution) std::cout << "resolution       " << resolution_error_text(placement, *resolution, result) << "\n";
    if (strategy == "full") {
      std::cout << "micro-batches    " << schedule.nmicros << "\n";
      std::cout << "makespan         " << result.makespan << "  (lower bound " << result.lower_bound
                << ", proven lower bound " << result.proven_lower_bound << ", "
                << (optimal ? "proven optimal" : "not proven optimal") << ")\n";
    } else {
      const int k = result.micros_per_window;
      if (strategy == "fast") {
        const int gap = result.period - result.lower_bound;
        std::cout << "period           " << result.period << "  (lower bound L = " << result.lower_bound
                  << ", gap to L " << gap << " = " << std::setprecision(3)
                  << 100.0 * gap / std::max(1, result.lower_bound) << "%, "
                  << (gap == 0 ? "proven optimal (P = L)" : "not proven optimal: constructed, not searched")
                  << ")\n";
        std::cout << "construction     " << schedule.search.value("construction", std::string("?"));
        if (schedule.search.value("window_shortened_by_solver", false))
          std::cout << " (period " << schedule.search.value("constructed_period", 0)
                    << "), window shortened by the solver (--improve-seconds)";
        std::cout << "\n";
      } else if (k == 1) {
        std::cout << "period           " << result.period << "  (lower bound L = " << result.lower_bound
                  << ", proven lower bound " << result.proven_lower_bound << ", "
                  << (optimal ? "proven optimal" : "not proven optimal") << ")\n";
      } else {
        std::cout << "period           " << result.period << " for a window of k = " << k
                  << " micro-batches, average " << std::setprecision(4) << double(result.period) / k
                  << "  (lower bound k L = " << result.lower_bound << ", proven lower bound "
                  << result.proven_lower_bound << ", " << (optimal ? "proven optimal" : "not proven optimal")
                  << " for this k)\n";
      }
      if (result.windows.size() > 1 || k > 1) {
        std::cout << "windows tried    k  status      P_k  average  proven P_k >=  seconds\n";
        for (const WindowAttempt& attempt : result.windows) {
          std::ostringstream row;
          row << "                 " << std::left << std::setw(3) << attempt.k << std::setw(12) << attempt.status
              << std::right << std::setw(3);
          if (attempt.period) row << attempt.period; else row << "-";
          row << "  " << std::setw(7);
          if (attempt.period) row << std::fixed << std::setprecision(2) << double(attempt.period) / attempt.k;
          else row << "-";
          row << "  " << std::setw(13) << attempt.proven_lower_bound << "  " << std::setw(7) << std::fixed
              << std::setprecision(2) << attempt.seconds;
          std::cout << row.str() << "\n";
        }
        std::cout << std::defaultfloat;
      }
      std::cout << "in flight        K = " << result.nmicros_in_flight << " micro-batches, latency "
                << result.latency << " steps\n";
      std::cout << "warmup/cooldown  " << warmup << " / " << cooldown << " steps\n";
    }
    std::cout << "peak memory      " << join(peak) << "\n";
    if (at_total) {
      std::cout << "at " << metrics.total_micros << " micro-batches: makespan " << metrics.makespan
                << ", bubble ratio " << std::setprecision(4) << metrics.bubble_ratio << ", bound " << metrics.bound
                << " (gap " << metrics.makespan - metrics.bound << ", " << std::setprecision(3)
                << 100 * relative_gap(metrics.makespan, metrics.bound) << "%)\n";
      if (metrics.bound != metrics.bounds.simple)
        std::cout << "                 bound: device " << metrics.bounds.device << " idles >= "
                  << metrics.bounds.idle_head << " steps before and " << metrics.bounds.idle_tail
                  << " after (simple bound " << metrics.bounds.simple << ")\n";
      if (!metrics.gap_reason.empty()) std::cout << "gap above 1%     " << metrics.gap_reason << "\n";
      if (metrics.staged && makespan(metrics.staged->schedule) < metrics.makespan)
        std::cout << "staged           " << makespan(metrics.staged->schedule) << " steps at " << metrics.total_micros
                  << " micro-batches, verified: the memory-free all-device blocks of every micro-batch first ("
                  << metrics.staged->prefix_blocks << ") and last (" << metrics.staged->suffix_blocks
                  << "), the rest as a repetend of period " << metrics.staged->middle_period
                  << " between; built for this N only, it does not unroll (--staged-output FILE writes it)\n";
    } else {
      std::cout << "at " << metrics.total_micros << " micro-batches: not unrolled (" << not_unrolled << ")\n";
    }
    std::cout << "solve time       " << std::setprecision(3) << solve_seconds << " s (";
    for (size_t i = 0; i < result.phases.size(); ++i)
      std::cout << (i ? ", " : "") << result.phases[i].phase << " " << result.phases[i].seconds << " s";
    std::cout << ")\n";
    std::cout << "verified         valid\n";
  }
  if (result.status == SearchStatus::Found && !result.message.empty())
    std::cerr << "tessel search: note: " << result.message << "\n";
  if (result.status == SearchStatus::Timeout) {
    std::cerr << "tessel search: gave up: " << result.message
              << (values.count("output") ? "; the best schedule so far was written" : "") << "\n";
    return kGaveUp;
  }
  return kSuccess;
}

}  // namespace

int run_search(int argc, char** argv) {
  po::options_description options("options");
  add_placement_options(options);
  options.add_options()
      ("memory", po::value<std::string>(), "memory limit per device: M, or M0,M1,... one per device")
      ("strategy", po::value<std::string>()->default_value("repetend"), "repetend | full | fast (constructed, no proof)")
      ("backend", po::value<std::string>()->default_value("cadical"), "solver backend: cadical (SAT, default: fastest in `tessel bench`) | z3 (SMT)")
      ("nmicros", po::value<int>(), "repetend: most windows in flight Kmax; full: micro-batches (required)")
      ("micros-per-window", po::value<int>(),
       "repetend: micro-batches per window k (default 0 = try k = 1 .. 4, keep the best average period)")
      ("window-seconds", po::value<double>()->default_value(5),
       "repetend, automatic k: seconds shared by the windows k > 1 (also at most half the time left; 0 = no cap)")
      ("periods-per-solver", po::value<int>()->default_value(1),
       "repetend: consecutive periods asked of one incremental solver before a new one is built")
      ("total-micros", po::value<int>()->default_value(128), "micro-batches for the makespan and bubble ratio report")
      ("time-limit", po::value<double>()->default_value(0), "seconds for the whole search, encoding included, 0 = none (exit 3 when hit before the period "
       "is decided; a latency or wider window it cuts short is reported, exit 0)")
      ("boundary-seconds", po::value<double>()->default_value(20),
       "repetend/fast: budget for shortening warmup/cooldown with the solver, within --time-limit (0 = skip; "
       "fast: default 1)")
      ("improve-seconds", po::value<double>()->default_value(1),
       "fast: budget for the solver's shortening of the constructed window below its period, on placements "
       "of at most 40 blocks (0 = skip)")
      ("output,o", po::value<std::string>(), "write the schedule (tessel.schedule/1) to this file")
      ("staged-output", po::value<std::string>(),
       "repetend, gap above 1%: write the staged schedule of --total-micros micro-batches, when one was built")
      ("resolution", po::value<std::string>(),
       "search on times rounded up to multiples of this time (in the placement's unit, e.g. 0.01); the "
       "schedule is valid for the real times, and how far the real optimum may lie below it is printed")
      ("json", po::bool_switch(), "print one JSON object instead of text");
  po::positional_options_description positional;
  po::variables_map values;
  if (auto code = parse(argc, argv, kUsage, options, positional, values)) return *code;
  return guarded("search", [&] { return run(values); });
}

}  // namespace tessel::cli
