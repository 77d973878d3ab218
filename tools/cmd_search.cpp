// `tessel search` (docs/cli.md): parse the options into a SearchRequest,
// call solve() (solver/search.hpp), print the report. The best schedule so
// far is written to -o whenever it improves, so Ctrl-C, SIGTERM or the time
// limit always leave a valid file behind (exit 3).
#include <cstdio>
#include <iostream>
#include <new>
#include <thread>

#include "certificate/search_claims.hpp"
#include "model/input_error.hpp"
#include "model/output_file.hpp"
#include "model/quantity.hpp"
#include "model/schedule_json.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/search.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/interrupt.hpp"
#include "tools/memory_watch.hpp"
#include "tools/search_note_text.hpp"
#include "tools/search_output.hpp"
#include "tools/search_progress.hpp"

namespace tessel::cli {
namespace {

const char* kUsage =
    "tessel search (--case NAME --ndevs D [--infer] | --placement FILE) --memory M\n"
    "              [--strategy repetend|full|fast] [--backend cadical|z3] [--nmicros K]\n"
    "              [--micros-per-window k] [--total-micros N] [--time-limit SECONDS]\n"
    "              [--threads T] [--tune NAME=VALUE ...] [-o FILE] [--repetend-output FILE]\n"
    "              [--resolution R] [--certify DIR [--certify-seconds S]]\n"
    "              [--json] [--quiet]\n\n"
    "Two questions, one answer each:\n"
    "  the period     the repetend (a window that repeats, every block k times) with the\n"
    "                 smallest period; every shorter period is proven impossible by the solver\n"
    "                 (strategy repetend; fast constructs one without proof; full skips it).\n"
    "  the makespan   at --total-micros N (default 128): the best valid schedule of any\n"
    "                 shape - the repetend unrolled, a staged schedule, an aperiodic one - with\n"
    "                 the lower bound and the gap. -o writes it (a repetend stays unrollable with\n"
    "                 'tessel unroll'; any other shape holds exactly N micro-batches).\n\n"
    "Strategies:\n"
    "  repetend (default)  periods L, L+1, ... decided one by one (L: the busiest device's load);\n"
    "                      windows of k = 1 .. 4 micro-batches by default (--micros-per-window 0),\n"
    "                      k = 1 first, wider ones within a share of the time; then the shortest\n"
    "                      latency, warmup and cooldown. --nmicros K bounds the windows in\n"
    "                      flight (default: the number of blocks): k K micro-batches for k > 1.\n"
    "  full                all --nmicros micro-batches at once (required), the minimal makespan,\n"
    "                      proven optimal when the bound below it is decided.\n"
    "  fast                a repetend constructed without search (for many devices); proves\n"
    "                      nothing beyond L.\n\n"
    "The text answer opens with the timeline's first steps (warmup, repetend, at most 120\n"
    "columns); 'tessel show FILE' on the file -o wrote shows all of it.\n"
    "Budgets between the phases are tuning knobs: --tune help lists them (help-all: the developer ones too).\n"
    "--certify DIR writes a certificate of the proven claims (each refuted period of the chosen\n"
    "window, the least latency) that 'tessel check-certificate DIR' checks without the solver.\n"
    "Past three quarters of the memory the process may use (ulimit -v, the cgroup's or the\n"
    "machine's memory) the search stops as on an interrupt.\n"
    "Exit 0 found, 1 no schedule exists (proven), 2 bad input, 3 time limit, interrupt or\n"
    "memory (the best schedule so far is written with -o), 4 internal error.";

// --resolution R in ticks of the placement's time unit (raising its
// decimals when R has more).
Time resolution_ticks(Placement& placement, const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  const std::optional<Decimal> amount = plain ? parse_quantity(text) : std::nullopt;
  if (!amount || amount->digits <= 0)
    throw InputError("", "--resolution", "'" + text + "' is not a positive time (a number such as 0.01 or 1000)");
  if (amount->decimals > placement.time_decimals && !rescale_time(placement, amount->decimals))
    throw InputError("", "--resolution", "'" + text + "' needs more decimals than the placement's times allow");
  const std::optional<long long> ticks = to_ticks(*amount, placement.time_decimals);
  if (!ticks || *ticks < 1) throw InputError("", "--resolution", "'" + text + "' is too large");
  return *ticks;
}

SearchRequest request_from(const po::variables_map& values) {
  SearchRequest request;
  request.placement = placement_from_options(values);
  if (!values.count("memory"))
    throw InputError("", "--memory", "give the memory limit per device (--memory M, M0,M1,..., or bytes: 40GiB)");
  request.memory_limit = memory_limits_for(request.placement, values["memory"].as<std::string>(), "--memory");
  const std::string strategy = values["strategy"].as<std::string>();
  std::optional<Strategy> parsed = parse_strategy(strategy);
  if (!parsed) throw InputError("", "--strategy", "'" + strategy + "' is not one of repetend, full, fast");
  request.strategy = *parsed;
  request.backend = values["backend"].as<std::string>();
  request.total_micros = values["total-micros"].as<int>();
  apply_nmicros(request, values.count("nmicros") ? std::optional<int>(values["nmicros"].as<int>()) : std::nullopt);
  // Strategy full schedules exactly --nmicros micro-batches and finds no
  // repetend: a different --total-micros or a --repetend-output would be
  // ignored, so they are refused.
  if (request.strategy == Strategy::Full && !values["total-micros"].defaulted() &&
      values["total-micros"].as<int>() != request.total_micros)
    throw InputError("", "--total-micros", "strategy full schedules the --nmicros N micro-batches (" +
                                               std::to_string(request.total_micros) + "); leave --total-micros out");
  if (request.strategy == Strategy::Full && values.count("repetend-output"))
    throw InputError("", "--repetend-output", "strategy full finds no repetend to write; use --strategy repetend or fast");
  if (values.count("micros-per-window")) request.micros_per_window = values["micros-per-window"].as<int>();
  if (values.count("time-limit")) {
    const double seconds = values["time-limit"].as<double>();
    if (!(seconds > 0)) throw InputError("", "--time-limit", "must be > 0 seconds (leave it out for no limit)");
    request.deadline = Deadline::after_seconds(seconds);
  }
  request.deadline.stop = install_interrupt_handlers();
  if (values.count("resolution")) request.resolution = resolution_ticks(request.placement, values["resolution"].as<std::string>());
  request.threads = values["threads"].as<int>();
  const double certify_seconds = values["certify-seconds"].as<double>();
  if (!(certify_seconds >= 0)) throw InputError("", "--certify-seconds", "must be >= 0 seconds (0: no limit)");
  if (!values["certify-seconds"].defaulted() && !values.count("certify"))
    throw InputError("", "--certify-seconds", "is the time of --certify's solves: give --certify DIR too");
  if (values.count("tune"))
    for (const std::string& assignment : values["tune"].as<std::vector<std::string>>())
      apply_tuning(request.tuning, assignment);
  return request;
}

// write_schedule_file replaces a file atomically (model/output_file.hpp), so
// a reader (or an interrupt) never sees half a file.
void write_atomically(const std::string& path, const Schedule& schedule) { write_schedule_file(path, schedule); }

// The certificate's lines of the text report: how many claims are
// certified, and each that is not, with why.
std::string certificate_text(const nlohmann::json& certificate) {
  std::string text = "certificate: " + std::to_string(certificate["certified"].get<int>()) + " of " +
                     std::to_string(certificate["claims"].size()) + " claims certified in " +
                     certificate["directory"].get<std::string>() + " (tessel check-certificate checks them)\n";
  for (const nlohmann::json& claim : certificate["claims"])
    if (!claim["certified"].get<bool>())
      text += "  not certified: " + claim["claim"].get<std::string>() + ": " + claim["reason"].get<std::string>() + "\n";
  return text;
}

int exit_code(const SearchReport& report) {
  switch (report.outcome) {
    case Outcome::Found: return kSuccess;
    case Outcome::Infeasible: return kNegative;
    case Outcome::Timeout:
    case Outcome::Interrupted: return kGaveUp;
  }
  return kInternal;
}

int run(const po::variables_map& values) {
  if (values.count("tune"))
    for (const std::string& assignment : values["tune"].as<std::vector<std::string>>())
      if (assignment == "help" || assignment == "help-all") {
        std::cout << tuning_help(assignment == "help-all");
        return kSuccess;
      }
  require_writable_output(values, "output");
  require_writable_output(values, "repetend-output");
  SearchRequest request = request_from(values);
  const bool json = values["json"].as<bool>();
  std::optional<std::string> output;
  if (values.count("output")) output = values["output"].as<std::string>();
  bool written = false;
  // A device or pipe gets the final schedule only, not every improvement.
  const bool write_while_searching = output && output_is_replaceable(*output);
  SearchProgress progress(values["quiet"].as<bool>(), [&](const Schedule& schedule) {
    if (!write_while_searching) return;
    write_atomically(*output, schedule);
    written = true;
  });
  SearchReport report;
  std::optional<MemoryWatch> memory_watch(std::in_place, memory_budget());
  try {
    report = solve(request, progress);
  } catch (const std::bad_alloc&) {
    // The search's memory is released by now; what -o holds is the best
    // schedule offered before (tools/memory_reserve.hpp).
    progress.finish();
    std::cerr << "tessel search: gave up: " << kOutOfMemory
              << (written ? "; the best schedule so far was written" : " (no schedule was written)") << "\n";
    return kGaveUp;
  } catch (const InputError& error) {
    progress.finish();
    const std::string file = values.count("placement") ? values["placement"].as<std::string>() : "";
    if (!file.empty() && error.file.empty() && error.field.rfind("--", 0) != 0)
      throw InputError(file, error.field, error.reason);
    throw;
  }
  progress.finish();
  if (memory_watch->fired()) std::cerr << "tessel search: note: " << memory_watch->note() << "\n";
  memory_watch.reset();
  if (report.best && output) {
    Schedule written = *report.best;
    written.search = provenance(request, report);
    write_atomically(*output, written);
  }
  // No schedule at N (times too large for the constructions at N) but a
  // repetend: -o gets that, and says so, rather than staying unwritten.
  if (!report.best && report.repetend && output) {
    Schedule written = *report.repetend;
    written.search = provenance(request, report);
    write_atomically(*output, written);
    std::cerr << "tessel search: note: no schedule of " << request.total_micros
              << " micro-batches was built; -o holds the repetend schedule (tessel unroll extends it)\n";
  }
  if (report.repetend && values.count("repetend-output")) {
    Schedule written = *report.repetend;
    written.search = provenance(request, report);
    write_atomically(values["repetend-output"].as<std::string>(), written);
  }
  std::optional<nlohmann::json> certificate;
  if (values.count("certify")) {
    const std::string directory = values["certify"].as<std::string>();
    const bool quiet = values["quiet"].as<bool>();
    const certify::Manifest manifest = certify_search(request, report, directory, values["certify-seconds"].as<double>(),
                                                      [&](const std::string& line) { if (!quiet) std::cerr << line << "\n"; });
    certificate = certificate_summary(manifest, directory);
  }
  if (json) {
    nlohmann::json document = report_json(request, report);
    if (certificate) document["certificate"] = *certificate;
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << report_text(request, report);
    if (certificate) std::cout << certificate_text(*certificate);
  }
  // A search that ended well but whose certificate an interrupt cut short
  // is still an interrupted command: exit 3, the schedule and the partial
  // certificate written.
  if (certificate && report.outcome == Outcome::Found && request.deadline.stop && request.deadline.stop->load()) {
    std::cerr << "tessel search: stopped: interrupted while writing the certificate; the schedule and the claims "
                 "certified so far are written\n";
    return kGaveUp;
  }
  switch (report.outcome) {
    case Outcome::Infeasible: std::cerr << "tessel search: no schedule: " << search_message_text(report) << "\n"; break;
    case Outcome::Timeout:
    case Outcome::Interrupted:
      std::cerr << "tessel search: " << (report.outcome == Outcome::Interrupted ? "stopped" : "gave up") << ": "
                << search_message_text(report)
                << (!report.best ? " (no schedule to write)" : output ? "; the best schedule so far was written" : "")
                << "\n";
      break;
    case Outcome::Found:
      if (const std::string message = search_message_text(report); !message.empty())
        std::cerr << "tessel search: note: " << message << "\n";
  }
  return exit_code(report);
}

}  // namespace

int run_search(int argc, char** argv) {
  po::options_description options("options");
  add_placement_options(options);
  options.add_options()
      ("memory", po::value<std::string>(), "memory limit per device: M, M0,M1,... one per device, or bytes (40GiB)")
      ("strategy", po::value<std::string>()->default_value("repetend"), "repetend | full | fast (constructed, no proof)")
      ("backend", po::value<std::string>()->default_value("cadical"), "solver backend: cadical (SAT) | z3 (SMT)")
      ("nmicros", po::value<int>(), "repetend/fast: most windows in flight (k K micro-batches); full: micro-batches (required)")
      ("micros-per-window", po::value<int>(), "repetend: micro-batches per window k (default 0 = try k = 1 .. 4)")
      ("total-micros", po::value<int>()->default_value(128), "N: the makespan is judged and the best schedule built for N micro-batches")
      ("time-limit", po::value<double>(), "seconds for the whole search (default: none); exit 3 with the best schedule so far")
      ("threads", po::value<int>()->default_value(0), "threads (0 = every core): periods race (a chain's program shared by them), the latency gets a second solver, with cadical the last hard period is split into cubes shared by the threads (z3: no cubes)")
      ("tune", po::value<std::vector<std::string>>()->composing(), "set a tuning knob NAME=VALUE (repeatable; --tune help lists them, --tune help-all the developer ones too)")
      ("output,o", po::value<std::string>(), "write the best schedule (tessel.schedule/1) here, also while searching")
      ("repetend-output", po::value<std::string>(), "repetend/fast: also write the repetend schedule (unrollable) here")
      ("resolution", po::value<std::string>(),
       "search on times rounded up to multiples of R (in the placement's unit, e.g. 0.01); the schedule is "
       "valid for the real times, and how far the real optimum may lie below it is printed")
      ("certify", po::value<std::string>(),
       "write a certificate of the proven claims into DIR (CNF + DRAT proof per claim, manifest.json); "
       "'tessel check-certificate DIR' checks it")
      ("certify-seconds", po::value<double>()->default_value(kDefaultCertifySeconds), "--certify: CaDiCaL's seconds per claim (0: no limit)")
      ("json", po::bool_switch(), "print one JSON object instead of text")
      ("quiet", po::bool_switch(), "no progress on stderr");
  po::positional_options_description positional;
  po::variables_map values;
  if (auto code = parse(argc, argv, kUsage, options, positional, values)) return *code;
  return guarded("search", [&] { return run(values); });
}

}  // namespace tessel::cli
