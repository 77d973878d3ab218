// `tessel check-certificate DIR` (docs/cli.md): checks a certificate that
// `tessel search --certify DIR` wrote, with certify/ alone (the verifier's
// encoder and tessel's own DRAT checker). Exit 0 every claim certified,
// 1 naming the first that is not and why, 2 a missing or malformed file.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "certify/manifest.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

int run_check_certificate(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("directory", po::value<std::string>()->required(), "the certificate directory (manifest.json, *.cnf, *.drat)")
      ("json", po::bool_switch(), "print one JSON object instead of text");
  po::positional_options_description positional;
  positional.add("directory", 1);
  po::variables_map values;
  const std::string usage =
      "tessel check-certificate DIR [--json]\n\n"
      "Checks every claim of a certificate written by 'tessel search --certify DIR': re-encodes the\n"
      "claim from the manifest's placement with the verifier's own encoder, compares it with the\n"
      "CNF in DIR byte for byte, and checks the DRAT proof of its unsatisfiability with tessel's\n"
      "own checker (backward, core-first, RAT supported). Shares no code with the solver.\n"
      "Exit 0 every claim certified, 1 the first claim that is not (and why), 2 malformed file.";
  if (auto done = parse(argc, argv, usage, options, positional, values)) return *done;
  return guarded("check-certificate", [&]() -> int {
    const std::string directory = values["directory"].as<std::string>();
    std::vector<certify::ClaimCheck> checks;
    try {
      checks = certify::check_certificate(directory);
    } catch (const certify::MalformedError& error) {
      throw InputError(directory, "", error.what());
    }
    const certify::ClaimCheck* failed = nullptr;
    nlohmann::json claims = nlohmann::json::array();
    for (const certify::ClaimCheck& check : checks) {
      if (!check.certified && !failed) failed = &check;
      claims.push_back({{"claim", check.claim}, {"certified", check.certified}, {"reason", check.reason},
                        {"seconds", seconds_to_json(check.seconds)}, {"lemmas", check.lemmas}, {"core_lemmas", check.checked}});
    }
    if (values["json"].as<bool>()) {
      std::cout << nlohmann::json({{"valid", failed == nullptr}, {"claims", claims}}).dump(2) << "\n";
    } else {
      for (const certify::ClaimCheck& check : checks) {
        std::printf("%-13s %s", check.certified ? "certified" : "NOT CERTIFIED", check.claim.c_str());
        if (check.lemmas) std::printf(" (%zu lemmas, %zu checked, %.2f s)", check.lemmas, check.checked, check.seconds);
        std::printf("%s%s\n", check.reason.empty() ? "" : ": ", check.reason.c_str());
      }
      const auto certified = std::count_if(checks.begin(), checks.end(), [](const auto& c) { return c.certified; });
      std::printf("%zu of %zu claims certified\n", static_cast<size_t>(certified), checks.size());
    }
    if (!failed) return kSuccess;
    std::cerr << "tessel check-certificate: " << directory << ": claim '" << failed->claim << "' fails: " << failed->reason << "\n";
    return kNegative;
  });
}

}  // namespace tessel::cli
