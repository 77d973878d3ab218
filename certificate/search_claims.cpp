// The claims of a search report, certified (see the header).
#include "certificate/search_claims.hpp"

#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/placement_json.hpp"

namespace tessel {
namespace {

certify::PlannedClaim refutation(certify::ClaimKind kind, long long period, int k, int max_in_flight) {
  certify::PlannedClaim planned;
  planned.kind = kind;
  planned.claim.period = period, planned.claim.k = k, planned.claim.max_in_flight = max_in_flight;
  return planned;
}

// "Proven optimal" at N rests on bounds and (strategy full) on a solver's
// refutations of makespans; certify/prove re-decides it by a relaxation the
// checker re-derives (certify/ends), or lists it as not certified.
void add_makespan_claim(const SearchReport& report, std::vector<certify::PlannedClaim>& claims) {
  if (!report.makespan || !report.makespan->proven_optimal) return;
  certify::PlannedClaim planned;
  planned.kind = certify::ClaimKind::Makespan;
  planned.below = report.makespan->proven_lower_bound;
  planned.claim.k = report.makespan->total_micros;
  const MakespanBound& bound = report.makespan->bound;
  planned.hint = {bound.device, bound.idle_head, bound.idle_tail};
  claims.push_back(planned);
}

// The claims of one window of k micro-batches: the load bound k L, and
// every period from there to the proven bound refuted.
void add_window_claims(Time load_bound, Time proven, int k, int max_in_flight,
                       std::vector<certify::PlannedClaim>& claims) {
  certify::PlannedClaim load;
  load.kind = certify::ClaimKind::Load;
  load.claim.k = k, load.below = load_bound;
  claims.push_back(load);
  for (Time p = load_bound; p < proven; ++p)
    claims.push_back(refutation(certify::ClaimKind::Period, p, k, max_in_flight));
}

// The other windows the answer rests on: each k the search found no better
// than the chosen one, or proved impossible, with the periods it refuted.
// An impossible window is impossible at every period, which is no finite
// list of period claims: listed, not certified. Undecided windows claim nothing.
void add_other_windows(const PeriodReport& period, int max_in_flight, std::vector<certify::PlannedClaim>& claims) {
  const Time per_micro = period.lower_bound / std::max(1, period.micros_per_window);
  for (const WindowAttempt& window : period.windows) {
    if (window.k == period.micros_per_window) continue;
    if (window.status == WindowStatus::Timeout || window.status == WindowStatus::Undecided) continue;
    add_window_claims(window.k * per_micro, window.proven_lower_bound, window.k, max_in_flight, claims);
    if (window.status != WindowStatus::Infeasible) continue;
    certify::PlannedClaim every = refutation(certify::ClaimKind::Period, window.proven_lower_bound, window.k,
                                             max_in_flight);
    every.not_encodable = "the search proved no window of k = " + std::to_string(window.k) +
                          " fits at any period: an unbounded set of periods, not one claim the encoder states";
    claims.push_back(every);
  }
}

}  // namespace

std::vector<certify::PlannedClaim> claims_of(const SearchRequest& request, const SearchReport& report) {
  std::vector<certify::PlannedClaim> claims;
  if (report.period && report.strategy == Strategy::Repetend) {
    const PeriodReport& period = *report.period;
    const int k = period.micros_per_window;
    const int max_in_flight = request.in_flight.value_or(std::max<int>(1, request.placement.blocks.size()));
    add_window_claims(period.lower_bound, period.proven_lower_bound, k, max_in_flight, claims);
    if (report.outcome == Outcome::Found && period.latency_minimal && period.latency > 0) {
      certify::PlannedClaim latency = refutation(certify::ClaimKind::Latency, period.period, k, max_in_flight);
      latency.claim.latency_at_most = period.latency - 1;
      claims.push_back(latency);
    }
    add_other_windows(period, max_in_flight, claims);
  }
  add_makespan_claim(report, claims);
  if (request.resolution > 0)
    for (certify::PlannedClaim& planned : claims)
      planned.not_encodable = "the search ran on times rounded to the resolution, not on the placement's";
  return claims;
}

certify::Manifest certify_search(const SearchRequest& request, const SearchReport& report,
                                 const std::string& directory, double seconds_per_claim,
                                 const std::function<void(const std::string&)>& progress) {
  std::vector<long long> limit(request.memory_limit.begin(), request.memory_limit.end());
  // The certificate states the placement in its whole ticks, as the limits
  // and the claims count (a period of 11.25 at two decimals is 1125): the
  // checker reads integers, and a placement written with its decimals made
  // every claim of a decimal placement uncheckable.
  Placement in_ticks = request.placement;
  in_ticks.time_decimals = 0;
  in_ticks.memory_decimals = 0;
  try {
    // The search's stop flag reaches every solve: an interrupt while the
    // certificate is written ends it at once (the claims left are listed).
    return certify::write_certificate(directory, placement_to_json(in_ticks), limit,
                                      claims_of(request, report),
                                      certify::SolveLimit(seconds_per_claim, request.deadline.stop), progress);
  } catch (const certify::MalformedError& error) {
    throw InputError(directory, "--certify", error.what());
  }
}

nlohmann::json certificate_summary(const certify::Manifest& manifest, const std::string& directory) {
  nlohmann::json claims = nlohmann::json::array();
  int certified = 0;
  for (const certify::ManifestClaim& claim : manifest.claims) {
    nlohmann::json item = {{"claim", certify::claim_words(claim)}, {"certified", claim.certified}};
    if (!claim.certified) item["reason"] = claim.reason;
    if (claim.kind == certify::ClaimKind::Period || claim.kind == certify::ClaimKind::Latency)
      item["solve_seconds"] = seconds_to_json(claim.solve_seconds);
    certified += claim.certified;
    claims.push_back(item);
  }
  return {{"directory", directory}, {"certified", certified}, {"claims", claims}};
}

}  // namespace tessel
