// Refuting each claim's CNF with CaDiCaL and a DRAT proof (see the header).
#include "certify/prove/prove.hpp"


#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "certify/encoder.hpp"
#include "certify/prove/makespan.hpp"
#include "certify/prove/refute.hpp"
#include "certify/sha256.hpp"

namespace tessel::certify {
namespace {

const char* const kInterrupted = "interrupted (Ctrl-C or SIGTERM) before CaDiCaL refuted it";

ManifestClaim listed(const PlannedClaim& planned) {
  ManifestClaim claim;
  claim.kind = planned.kind, claim.claim = planned.claim, claim.below = planned.below;
  return claim;
}

bool load_holds(const Placement& placement, const PlannedClaim& planned) {
  long long busiest = 0;
  for (int d = 0; d < placement.ndevs; ++d) {
    long long load = 0;
    for (const Block& block : placement.blocks)
      for (int device : block.devices) load += device == d ? block.span : 0;
    busiest = std::max(busiest, load * planned.claim.k);
  }
  return busiest >= planned.below;
}

ManifestClaim certify_one(const std::string& directory, const Placement& placement,
                          const std::vector<long long>& memory_limit, const PlannedClaim& planned, size_t index,
                          const SolveLimit& limit) {
  ManifestClaim claim = listed(planned);
  if (planned.kind == ClaimKind::Load) {
    claim.certified = load_holds(placement, planned);
    if (!claim.certified) claim.reason = "the load bound does not reach this period";
    return claim;
  }
  const std::string stem = "claim-" + std::to_string(index + 1);
  if (planned.kind == ClaimKind::Makespan) {
    try {
      prove_makespan(directory, stem, placement, memory_limit, planned.hint, limit, claim);
      if (!claim.certified && limit.stopped()) claim.reason = kInterrupted;
    } catch (const MalformedError& why) {
      claim = listed(planned);
      claim.reason = std::string("the verifier's encoder cannot state it: ") + why.what();
    }
    return claim;
  }
  claim.cnf = stem + ".cnf", claim.proof = stem + ".drat";
  Cnf cnf;
  try {
    cnf = encode_claim(placement, memory_limit, planned.claim);
  } catch (const MalformedError& why) {
    claim.cnf.clear(), claim.proof.clear();
    claim.reason = std::string("the verifier's encoder cannot state it: ") + why.what();
    return claim;
  }
  const std::string text = dimacs_text(cnf);
  write_text(directory + "/" + claim.cnf, text);
  claim.cnf_sha256 = sha256_hex(text);
  claim.solver = solver_name();
  const auto begin = std::chrono::steady_clock::now();
  const int answer = refute(cnf, directory + "/" + claim.proof, limit);
  claim.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  claim.certified = answer == 20;
  if (answer == 10)
    claim.reason = "the verifier's encoding has a repetend of this shape: the claim and the verifier's reading of "
                   "the problem disagree";
  if (answer == 0 && limit.stopped()) claim.reason = kInterrupted;
  if (answer == 0 && !limit.stopped()) {
    std::ostringstream seconds;
    seconds << limit.seconds;  // 60, not std::to_string's 60.000000
    claim.reason = "CaDiCaL did not refute the verifier's CNF within " + seconds.str() + " s (--certify-seconds)";
  }
  return claim;
}

}  // namespace

Manifest write_certificate(const std::string& directory, const nlohmann::json& placement_json,
                           const std::vector<long long>& memory_limit, const std::vector<PlannedClaim>& claims,
                           const SolveLimit& per_claim, const std::function<void(const std::string&)>& progress) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory))
    throw MalformedError(directory + ": cannot create the certificate directory");
  Manifest manifest{placement_json, memory_limit, {}};
  std::optional<Placement> placement;
  std::string unreadable;
  try {
    placement = placement_from_json(placement_json, "placement");
  } catch (const MalformedError& why) {
    unreadable = why.what();
  }
  for (size_t i = 0; i < claims.size(); ++i) {
    const PlannedClaim& planned = claims[i];
    if (!planned.not_encodable.empty() || !placement || per_claim.stopped()) {
      ManifestClaim claim = listed(planned);
      claim.reason = per_claim.stopped()               ? kInterrupted
                     : !planned.not_encodable.empty() ? planned.not_encodable
                                                      : "the placement cannot be encoded: " + unreadable;
      manifest.claims.push_back(claim);
      continue;
    }
    manifest.claims.push_back(certify_one(directory, *placement, memory_limit, planned, i, per_claim));
    const ManifestClaim& done = manifest.claims.back();
    if (progress) progress("certify: " + claim_words(done) + ": " + (done.certified ? "certified" : done.reason));
  }
  write_text(directory + "/manifest.json", manifest_to_json(manifest).dump(1) + "\n");
  return manifest;
}

}  // namespace tessel::certify
