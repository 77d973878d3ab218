// Reading, writing and checking a certificate directory (see the header).
#include "certify/manifest.hpp"

#include <chrono>
#include <fstream>
#include <sstream>

#include "certify/dimacs.hpp"
#include "certify/drat_check.hpp"
#include "certify/encoder.hpp"
#include "certify/sha256.hpp"

namespace tessel::certify {

const char* kind_name(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::Load: return "load";
    case ClaimKind::Period: return "period";
    case ClaimKind::Latency: return "latency";
    case ClaimKind::Makespan: return "makespan";
  }
  return "?";
}

std::string claim_words(const ManifestClaim& claim) {
  if (claim.kind == ClaimKind::Makespan)
    return "no schedule of " + std::to_string(claim.claim.k) + " micro-batches with a makespan below " +
           std::to_string(claim.below);
  if (claim.kind == ClaimKind::Load)
    return "no repetend with window k = " + std::to_string(claim.claim.k) + " and a period below " +
           std::to_string(claim.below) + " (the busiest device's load in the window)";
  return claim_text(claim.claim);
}

nlohmann::json manifest_to_json(const Manifest& manifest) {
  nlohmann::json claims = nlohmann::json::array();
  for (const ManifestClaim& claim : manifest.claims) {
    nlohmann::json item = {{"claim", claim_words(claim)}, {"kind", kind_name(claim.kind)}, {"k", claim.claim.k},
                           {"certified", claim.certified}};
    if (claim.kind == ClaimKind::Load || claim.kind == ClaimKind::Makespan) item["below"] = claim.below;
    else item["period"] = claim.claim.period, item["max_in_flight"] = claim.claim.max_in_flight;
    if (claim.claim.latency_at_most) item["latency_at_most"] = *claim.claim.latency_at_most;
    if (!claim.reason.empty()) item["reason"] = claim.reason;
    if (!claim.cnf.empty()) {
      item["cnf"] = claim.cnf, item["cnf_sha256"] = claim.cnf_sha256, item["proof"] = claim.proof;
      item["solver"] = claim.solver, item["solve_seconds"] = claim.solve_seconds;
    }
    claims.push_back(item);
  }
  nlohmann::json memory = manifest.memory_limit.empty() ? nlohmann::json(nullptr) : nlohmann::json(manifest.memory_limit);
  return {{"format", "tessel.certificate/1"}, {"placement", manifest.placement}, {"memory_limit", memory},
          {"claims", claims}};
}

namespace {

const nlohmann::json& need(const nlohmann::json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) throw MalformedError(where + ": missing '" + key + "'");
  return object.at(key);
}

long long number(const nlohmann::json& object, const char* key, const std::string& where, long long least) {
  const nlohmann::json& value = need(object, key, where);
  if (!value.is_number_integer() || value.get<long long>() < least)
    throw MalformedError(where + "." + key + ": not a whole number >= " + std::to_string(least));
  return value.get<long long>();
}

std::string text(const nlohmann::json& object, const char* key, const std::string& where) {
  const nlohmann::json& value = need(object, key, where);
  if (!value.is_string()) throw MalformedError(where + "." + key + ": not a string");
  return value.get<std::string>();
}

ManifestClaim claim_from_json(const nlohmann::json& item, const std::string& where) {
  ManifestClaim claim;
  const std::string kind = text(item, "kind", where);
  if (kind == "load") claim.kind = ClaimKind::Load;
  else if (kind == "period") claim.kind = ClaimKind::Period;
  else if (kind == "latency") claim.kind = ClaimKind::Latency;
  else if (kind == "makespan") claim.kind = ClaimKind::Makespan;
  else throw MalformedError(where + ".kind: '" + kind + "' is not load, period, latency or makespan");
  claim.claim.k = static_cast<int>(number(item, "k", where, 1));
  if (claim.kind == ClaimKind::Load || claim.kind == ClaimKind::Makespan) claim.below = number(item, "below", where, 0);
  else {
    claim.claim.period = number(item, "period", where, 1);
    claim.claim.max_in_flight = static_cast<int>(number(item, "max_in_flight", where, 1));
  }
  if (claim.kind == ClaimKind::Latency) claim.claim.latency_at_most = number(item, "latency_at_most", where, 0);
  const nlohmann::json& certified = need(item, "certified", where);
  if (!certified.is_boolean()) throw MalformedError(where + ".certified: not true or false");
  claim.certified = certified.get<bool>();
  if (item.contains("reason")) claim.reason = text(item, "reason", where);
  if (claim.certified && claim.kind == ClaimKind::Makespan)
    throw MalformedError(where + ".certified: a makespan claim is never certified by this checker");
  if (claim.certified && claim.kind != ClaimKind::Load) {
    claim.cnf = text(item, "cnf", where), claim.proof = text(item, "proof", where);
    claim.cnf_sha256 = text(item, "cnf_sha256", where);
    for (const std::string* name : {&claim.cnf, &claim.proof})
      if (name->empty() || name->find('/') != std::string::npos || *name == "..")
        throw MalformedError(where + ": '" + *name + "' is not a file name inside the certificate");
  }
  return claim;
}

}  // namespace

Manifest manifest_from_json(const nlohmann::json& document, const std::string& where) {
  if (!document.is_object() || document.value("format", "") != "tessel.certificate/1")
    throw MalformedError(where + ".format: not \"tessel.certificate/1\"");
  Manifest manifest;
  manifest.placement = need(document, "placement", where);
  const nlohmann::json& memory = need(document, "memory_limit", where);
  if (!memory.is_null()) {
    if (!memory.is_array()) throw MalformedError(where + ".memory_limit: not a list or null");
    for (const nlohmann::json& value : memory) {
      if (!value.is_number_integer()) throw MalformedError(where + ".memory_limit[]: not a whole number");
      manifest.memory_limit.push_back(value.get<long long>());
    }
  }
  const nlohmann::json& claims = need(document, "claims", where);
  if (!claims.is_array()) throw MalformedError(where + ".claims: not a list");
  for (size_t i = 0; i < claims.size(); ++i)
    manifest.claims.push_back(claim_from_json(claims[i], where + ".claims[" + std::to_string(i) + "]"));
  return manifest;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MalformedError(path + ": cannot be read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw MalformedError(path + ": cannot be read");
  return bytes.str();
}

namespace {

// The first line where two texts differ, for the reason.
size_t first_different_line(const std::string& a, const std::string& b) {
  size_t line = 1;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i) line += a[i] == '\n';
  return line;
}

ClaimCheck check_load(const Placement& placement, const ManifestClaim& claim) {
  ClaimCheck check;
  check.claim = claim_words(claim);
  long long busiest = 0;
  for (int d = 0; d < placement.ndevs; ++d) {
    long long load = 0;
    for (const Block& block : placement.blocks)
      for (int device : block.devices) load += device == d ? block.span : 0;
    busiest = std::max(busiest, load * claim.claim.k);
  }
  check.certified = busiest >= claim.below;
  if (!check.certified)
    check.reason = "the busiest device's load in the window is " + std::to_string(busiest) + ", below " +
                   std::to_string(claim.below);
  return check;
}

ClaimCheck check_refutation(const std::string& directory, const Placement& placement, const Manifest& manifest,
                            const ManifestClaim& claim) {
  ClaimCheck check;
  check.claim = claim_words(claim);
  const auto begin = std::chrono::steady_clock::now();
  const std::string expected = dimacs_text(encode_claim(placement, manifest.memory_limit, claim.claim));
  const std::string written = read_file(directory + "/" + claim.cnf);
  if (written != expected) {
    check.reason = claim.cnf + " is not the verifier's encoding of the claim (first difference on line " +
                   std::to_string(first_different_line(written, expected)) + ")";
    return check;
  }
  if (sha256_hex(written) != claim.cnf_sha256) {
    check.reason = "cnf_sha256 in the manifest is not the hash of " + claim.cnf;
    return check;
  }
  const std::vector<ProofStep> proof = parse_drat(read_file(directory + "/" + claim.proof), directory + "/" + claim.proof);
  const Cnf cnf = parse_dimacs(expected, claim.cnf);
  const DratResult result = check_drat(cnf, proof);
  check.certified = result.valid;
  check.lemmas = result.lemmas, check.checked = result.checked;
  if (!result.valid) check.reason = claim.proof + ": " + result.reason;
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return check;
}

}  // namespace

std::vector<ClaimCheck> check_certificate(const std::string& directory) {
  const std::string path = directory + "/manifest.json";
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& error) {
    throw MalformedError(path + ": not JSON (" + std::string(error.what()) + ")");
  }
  const Manifest manifest = manifest_from_json(document, path);
  const Placement placement = placement_from_json(manifest.placement, path + ".placement");
  std::vector<ClaimCheck> checks;
  for (const ManifestClaim& claim : manifest.claims) {
    if (!claim.certified) {
      ClaimCheck check;
      check.claim = claim_words(claim), check.reason = "not certified: " + claim.reason;
      checks.push_back(check);
    }
    else checks.push_back(claim.kind == ClaimKind::Load ? check_load(placement, claim)
                                                        : check_refutation(directory, placement, manifest, claim));
  }
  return checks;
}

}  // namespace tessel::certify
