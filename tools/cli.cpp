// Option parsing, error reporting and placement selection for all commands.
#include "tools/cli.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cases/builtin_cases.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/memory_limits.hpp"
#include "model/output_file.hpp"
#include "model/placement_json.hpp"
#include "verify/json_text.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {

std::optional<int> parse(int argc, char** argv, const std::string& usage,
                         const po::options_description& options,
                         const po::positional_options_description& positional,
                         po::variables_map& values) {
  po::options_description all;
  all.add(options);
  all.add_options()("help,h", "print this help");
  // --help anywhere asks for help, even where an option before it takes a
  // value ('verify --trace --help' would read --help as the trace's
  // directory and then miss --schedule).
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << "usage: " << usage << "\n\n" << all << "\n";
      return kSuccess;
    }
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), values);
    if (values.count("help")) {
      std::cout << "usage: " << usage << "\n\n" << all << "\n";
      return kSuccess;
    }
    po::notify(values);
    // Boost reads "nan" and "inf" as doubles; no option of tessel means
    // either, and a NaN slips through every "must be >= 0" comparison.
    for (const auto& [name, value] : values) {
      const double* number = boost::any_cast<double>(&value.value());
      if (number && !std::isfinite(*number)) {
        std::cerr << "tessel " << argv[0] << ": field '--" << name << "': must be a finite number\nusage: " << usage
                  << "\n(see 'tessel " << argv[0] << " --help')\n";
        return kBadInput;
      }
    }
  } catch (const po::unknown_option& error) {
    // One line: the nearest option, and where the rest is.
    std::vector<std::string> names;
    for (const auto& option : all.options()) names.push_back("--" + option->long_name());
    const std::string nearest = nearest_name(error.get_option_name(), names);
    std::cerr << "tessel " << argv[0] << ": " << error.what()
              << (nearest.empty() ? "" : " (did you mean " + nearest + "?)") << "; see 'tessel " << argv[0]
              << " --help'\n";
    return kBadInput;
  } catch (const po::error& error) {
    std::cerr << "tessel " << argv[0] << ": " << error.what() << "\nusage: " << usage
              << "\n(see 'tessel " << argv[0] << " --help')\n";
    return kBadInput;
  }
  return std::nullopt;
}

int guarded(const std::string& command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& error) {
    std::cerr << "tessel " << command << ": " << error.what() << "\n";
    return kBadInput;
  } catch (const verify::FormatError& error) {
    std::cerr << "tessel " << command << ": field '" << error.field << "': " << error.reason << "\n";
    return kBadInput;
  } catch (const po::error& error) {
    std::cerr << "tessel " << command << ": " << error.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    // Not a bug and not bad input: the input is too large for the memory
    // this process may use (a cap such as ulimit -v, or the machine's).
    // The stack is unwound by now, so there is memory to say so.
    std::cerr << "tessel " << command << ": " << kOutOfMemory << "\n";
    return kGaveUp;
  } catch (const std::exception& error) {
    std::cerr << "tessel " << command << ": internal error (a bug in tessel): " << error.what() << "\n";
    return kInternal;
  }
}

nlohmann::json read_verifier_document(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file");
  // Parsing from memory is about twice as fast as from the stream, which
  // matters for a million instances.
  std::ostringstream buffer;
  buffer << in.rdbuf();
  try {
    return verify::parse_document(buffer.str());
  } catch (const verify::FormatError& error) {
    throw InputError(path, error.field, error.reason);
  }
}

void add_placement_options(po::options_description& options) {
  options.add_options()
      ("case", po::value<std::string>(), "built-in placement (see 'tessel cases')")
      ("ndevs", po::value<int>(), "device count for --case")
      ("infer", po::bool_switch(), "inference: forward blocks only, memory 0 (with --case)")
      ("placement", po::value<std::string>(), "a tessel.placement/1 file instead of --case");
}

Placement placement_from_options(const po::variables_map& values) {
  bool has_case = values.count("case") > 0;
  bool has_file = values.count("placement") > 0;
  if (has_case == has_file) throw InputError("", "--case/--placement", "give exactly one of --case NAME or --placement FILE");
  if (has_file) {
    if (values["infer"].as<bool>()) throw InputError("", "--infer", "--infer applies to --case only");
    return read_placement_file(values["placement"].as<std::string>());
  }
  if (!values.count("ndevs")) throw InputError("", "--ndevs", "--case needs --ndevs D");
  return make_case(values["case"].as<std::string>(), values["ndevs"].as<int>(), values["infer"].as<bool>());
}

std::vector<Decimal> parse_quantities(const std::string& text, int ndevs, const std::string& option) {
  return parse_amounts(text, ndevs, option);
}

namespace {

// A limit in bytes ("6GB") for a placement whose memory amounts are all
// below 1 KiB: those are not bytes (a built-in case counts activations, a
// file may count GiB), so the limit would be read billions of units large
// and every schedule would fit.
void require_byte_unit(const Placement& placement, const std::string& text, const std::string& option) {
  const bool bytes = text.find('B') != std::string::npos;
  if (!bytes) return;
  Memory largest = 0;
  for (const Block& block : placement.blocks) largest = std::max(largest, std::llabs(block.memory));
  for (Memory amount : placement.static_memory) largest = std::max(largest, std::llabs(amount));
  if (largest >= 1024 * power_of_ten(placement.memory_decimals)) return;
  throw InputError("", option, "'" + shown_token(text) + "' is in bytes, but the placement has no byte unit: its " +
                                   "memory amounts are at most " + format_ticks(largest, placement.memory_decimals) +
                                   " (units such as activations); give a plain number such as 6");
}

}  // namespace

std::vector<Memory> memory_limits_for(Placement& placement, const std::string& text, const std::string& option) {
  require_byte_unit(placement, text, option);
  return tessel::memory_limits_for(placement, text, option);
}

void require_writable_output(const po::variables_map& values, const std::string& option) {
  if (!values.count(option)) return;
  check_output_path(values[option].as<std::string>(), "--" + option);
}

}  // namespace tessel::cli
