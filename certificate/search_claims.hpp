// From a search report to its certificate (issue 50; docs/algorithms.md,
// "Certificates"): the claims the report calls proven — the load bound, each
// refuted period of the chosen window, the least latency — handed to
// certify/prove, which states and refutes them with the verifier's encoder
// and none of the solver's code. This bridge is the only place that reads
// both a SearchReport and certify/.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/prove/prove.hpp"
#include "solver/search.hpp"

namespace tessel {

// The claims of `report` in the order the manifest lists them; a claim the
// verifier's encoder cannot state carries the reason.
std::vector<certify::PlannedClaim> claims_of(const SearchRequest& request, const SearchReport& report);

// CaDiCaL's seconds per claim unless told: most period claims of the paper's
// cases on 4 and 8 devices take under a second, a few a minute or more
// (cases/bench/certify_grid.md); past this a claim is listed not certified
// with the reason, and --certify-seconds gives it longer.
constexpr double kDefaultCertifySeconds = 60;

// Writes the certificate of `report` into `directory` (each solve within
// `seconds_per_claim`, 0: none, and the request's stop flag: an interrupt
// ends the solves, the claims left are listed not certified). Throws
// InputError when it cannot be written.
certify::Manifest certify_search(const SearchRequest& request, const SearchReport& report,
                                 const std::string& directory, double seconds_per_claim,
                                 const std::function<void(const std::string&)>& progress);

// What the report's JSON says of the certificate: the directory, and per
// claim its words, whether it is certified, and why not.
nlohmann::json certificate_summary(const certify::Manifest& manifest, const std::string& directory);

}  // namespace tessel
