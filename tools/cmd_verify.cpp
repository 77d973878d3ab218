// `tessel verify SCHEDULE [--memory M] [--json]`: the independent check of
// docs/algorithms.md, "The problem", on a tessel.schedule/1 file. Exit 0 valid, 1 invalid, 2
// unreadable file (the message names the file and the field).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "model/input_error.hpp"
#include "model/quantity.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {

namespace {

// The device count, needed to expand a single --memory value; a document too
// broken to say is left for the verifier's own reader to reject.
std::optional<int> device_count(const nlohmann::json& document) {
  if (!document.is_object() || !document.contains("placement")) return std::nullopt;
  const nlohmann::json& placement = document["placement"];
  if (!placement.is_object() || !placement.contains("ndevs") || !placement["ndevs"].is_number_integer())
    return std::nullopt;
  long long ndevs = placement["ndevs"].get<long long>();
  if (ndevs < 1 || ndevs > 1000000) return std::nullopt;
  return static_cast<int>(ndevs);
}

// --memory as the file would hold it ("40GiB" is 42949672960, "7.5" stays
// 7.5): the verifier reads the limit like the rest of the file, in its unit.
nlohmann::json limits_as_json(const std::string& text, int ndevs) {
  nlohmann::json limits = nlohmann::json::array();
  for (const Decimal& amount : parse_quantities(text, ndevs, "--memory"))
    limits.push_back(amount.decimals == 0 ? nlohmann::json(amount.digits)
                                          : nlohmann::json(ticks_to_double(amount.digits, amount.decimals)));
  return limits;
}

}  // namespace

int run_verify(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--trace" || std::string(argv[i]).rfind("--trace=", 0) == 0)
      return run_verify_trace(argc, argv);
  po::options_description options("options");
  options.add_options()
      ("schedule", po::value<std::string>()->required(), "the tessel.schedule/1 file to check")
      ("memory", po::value<std::string>(),
       "memory limit replacing the file's: one number, or one per device \"6,6,4,4\"; byte units (40GiB)")
      ("json", po::bool_switch(), "print one JSON object (valid, violations, violation_counts, makespan, "
                                  "bubble_ratio, peak_memory, busy_steps, ...) instead of text")
      ("timing", po::bool_switch(), "print the seconds spent reading the JSON and checking to stderr");
  po::positional_options_description positional;
  positional.add("schedule", 1);
  po::variables_map values;
  const std::string usage =
      "tessel verify SCHEDULE [--memory M] [--json]\n"
      "   or: tessel verify --trace DIR --schedule SCHEDULE [--json] [--svg FILE]  (a run's traces; --trace --help)\n\n"
      "Checks a schedule against the four conditions (every instance exactly once, no two\n"
      "instances on one device at one step, every dependency, memory under the limit at every\n"
      "step) and, when the file claims a repetend, that its window really repeats with that\n"
      "period and micro-batch step. Prints 'valid' with makespan, bubble ratio, peak memory and\n"
      "busy steps per device, or every violation (the first 20 of each kind, and the count).\n"
      "Exit 0 valid, 1 invalid, 2 unreadable file.";
  if (auto done = parse(argc, argv, usage, options, positional, values)) return *done;

  return guarded("verify", [&]() -> int {
    const std::string path = values["schedule"].as<std::string>();
    using Clock = std::chrono::steady_clock;
    auto began = Clock::now();
    nlohmann::json document = read_verifier_document(path);
    auto parsed = Clock::now();
    verify::Report report;
    try {
      if (values.count("memory")) {
        std::optional<int> ndevs = device_count(document);
        if (!ndevs) verify::check_schedule(document);  // throws the reader's FormatError
        if (!ndevs) throw InputError(path, "placement.ndevs", "missing or not a device count");
        document["memory_limit"] = limits_as_json(values["memory"].as<std::string>(), *ndevs);
      }
      report = verify::check_schedule(document);
    } catch (const verify::FormatError& error) {
      throw InputError(path, error.field, error.reason);
    }
    if (values["timing"].as<bool>()) {
      auto checked = Clock::now();
      auto seconds = [](Clock::duration span) { return std::chrono::duration<double>(span).count(); };
      std::fprintf(stderr, "tessel verify: read JSON %.3f s, checks %.3f s\n", seconds(parsed - began),
                   seconds(checked - parsed));
    }
    if (values["json"].as<bool>())
      std::cout << verify::report_to_json(report).dump(1) << "\n";
    else
      std::cout << verify::report_to_text(report);
    return report.valid ? kSuccess : kNegative;
  });
}

}  // namespace tessel::cli
