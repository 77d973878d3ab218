// Reading, writing and checking a certificate directory (see the header).
#include "certify/manifest.hpp"

#include <algorithm>
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

const char* relaxation_name(Relaxation relaxation) {
  switch (relaxation) {
    case Relaxation::None: return "none";
    case Relaxation::CriticalPath: return "critical_path";
    case Relaxation::Load: return "load";
    case Relaxation::Ends: return "ends";
    case Relaxation::EndsWithoutFillers: return "ends_without_fillers";
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

namespace {

void add_relaxation(const ManifestClaim& claim, nlohmann::json& item) {
  item["relaxation"] = relaxation_name(claim.relaxation);
  if (claim.relaxation == Relaxation::CriticalPath) return;
  item["device"] = claim.device;
  if (claim.relaxation != Relaxation::Ends && claim.relaxation != Relaxation::EndsWithoutFillers) return;
  nlohmann::json ends = nlohmann::json::array();
  for (const EndProof& end : claim.ends)
    ends.push_back({{"end", end.question.tail ? "tail" : "head"}, {"window", end.question.window},
                    {"idle", end.question.idle}, {"cnf", end.cnf}, {"cnf_sha256", end.cnf_sha256},
                    {"proof", end.proof}, {"solve_seconds", end.solve_seconds}});
  item["ends"] = ends;
}

}  // namespace

nlohmann::json manifest_to_json(const Manifest& manifest) {
  nlohmann::json claims = nlohmann::json::array();
  for (const ManifestClaim& claim : manifest.claims) {
    nlohmann::json item = {{"claim", claim_words(claim)}, {"kind", kind_name(claim.kind)}, {"k", claim.claim.k},
                           {"certified", claim.certified}};
    if (claim.kind == ClaimKind::Load || claim.kind == ClaimKind::Makespan) item["below"] = claim.below;
    else item["period"] = claim.claim.period, item["max_in_flight"] = claim.claim.max_in_flight;
    if (claim.claim.latency_at_most) item["latency_at_most"] = *claim.claim.latency_at_most;
    if (!claim.reason.empty()) item["reason"] = claim.reason;
    if (!claim.cnf.empty())
      item["cnf"] = claim.cnf, item["cnf_sha256"] = claim.cnf_sha256, item["proof"] = claim.proof;
    // The solver's time on the claim, certified or not (a claim that ran out of
    // --certify-seconds keeps the seconds it was given).
    if (!claim.solver.empty()) item["solver"] = claim.solver, item["solve_seconds"] = claim.solve_seconds;
    if (claim.kind == ClaimKind::Makespan && claim.relaxation != Relaxation::None) add_relaxation(claim, item);
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

// Edits between two keys (insert, delete, replace), for naming the key a
// misspelt one was meant to be.
size_t edits(const std::string& from, const std::string& to) {
  std::vector<size_t> previous(to.size() + 1), current(to.size() + 1);
  for (size_t j = 0; j <= to.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= from.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= to.size(); ++j)
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (from[i - 1] != to[j - 1])});
    std::swap(previous, current);
  }
  return previous[to.size()];
}

// A key the format does not define is an error, not ignored: a misspelt
// "below" read as absent would change what the checker accepts.
void only_known_keys(const nlohmann::json& object, const std::vector<std::string>& known, const std::string& where) {
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    std::string list, nearest;
    size_t fewest = 3;  // more edits than this is not a typo
    for (const std::string& name : known) {
      list += (list.empty() ? "" : ", ") + name;
      if (edits(item.key(), name) < fewest) fewest = edits(item.key(), name), nearest = name;
    }
    throw MalformedError(where + "." + item.key() + ": unknown key" +
                         (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") + "; the keys here are " + list);
  }
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

void file_names(const std::vector<const std::string*>& names, const std::string& where) {
  for (const std::string* name : names)
    if (name->empty() || name->find('/') != std::string::npos || *name == "..")
      throw MalformedError(where + ": '" + *name + "' is not a file name inside the certificate");
}

EndProof end_from_json(const nlohmann::json& item, long long micros, const std::string& where) {
  EndProof end;
  only_known_keys(item, {"end", "window", "idle", "cnf", "cnf_sha256", "proof", "solve_seconds"}, where);
  const std::string which = text(item, "end", where);
  if (which != "head" && which != "tail") throw MalformedError(where + ".end: '" + which + "' is not head or tail");
  end.question.tail = which == "tail";
  end.question.window = number(item, "window", where, 1);
  end.question.idle = number(item, "idle", where, 1);
  end.question.micros = micros;
  end.cnf = text(item, "cnf", where), end.proof = text(item, "proof", where);
  end.cnf_sha256 = text(item, "cnf_sha256", where);
  file_names({&end.cnf, &end.proof}, where);
  return end;
}

void relaxation_from_json(const nlohmann::json& item, ManifestClaim& claim, const std::string& where) {
  const std::string name = text(item, "relaxation", where);
  if (name == "critical_path") claim.relaxation = Relaxation::CriticalPath;
  else if (name == "load") claim.relaxation = Relaxation::Load;
  else if (name == "ends") claim.relaxation = Relaxation::Ends;
  else if (name == "ends_without_fillers") claim.relaxation = Relaxation::EndsWithoutFillers;
  else throw MalformedError(where + ".relaxation: '" + name + "' is not critical_path, load, ends or ends_without_fillers");
  if (claim.relaxation == Relaxation::CriticalPath) return;
  claim.device = static_cast<int>(number(item, "device", where, 0));
  if (claim.relaxation != Relaxation::Ends && claim.relaxation != Relaxation::EndsWithoutFillers) return;
  const nlohmann::json& ends = need(item, "ends", where);
  if (!ends.is_array() || ends.empty() || ends.size() > 2) throw MalformedError(where + ".ends: not a list of one or two ends");
  for (size_t e = 0; e < ends.size(); ++e) {
    claim.ends.push_back(end_from_json(ends[e], claim.claim.k, where + ".ends[" + std::to_string(e) + "]"));
    claim.ends.back().question.device = claim.device;
  }
  if (claim.ends.size() == 2 && claim.ends[0].question.tail == claim.ends[1].question.tail)
    throw MalformedError(where + ".ends: two ends of the same side");
}

ManifestClaim claim_from_json(const nlohmann::json& item, const std::string& where) {
  ManifestClaim claim;
  if (!item.is_object()) throw MalformedError(where + ": not an object");
  only_known_keys(item,
                  {"claim", "kind", "k", "period", "max_in_flight", "latency_at_most", "below", "certified", "reason",
                   "cnf", "cnf_sha256", "proof", "solver", "solve_seconds", "relaxation", "device", "ends"},
                  where);
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
  if (item.contains("solver")) claim.solver = text(item, "solver", where);
  if (item.contains("solve_seconds")) {
    const nlohmann::json& seconds = item.at("solve_seconds");
    if (!seconds.is_number() || seconds.get<double>() < 0)
      throw MalformedError(where + ".solve_seconds: not a number of seconds >= 0");
    claim.solve_seconds = seconds.get<double>();
  }
  if (claim.certified && claim.kind == ClaimKind::Makespan) relaxation_from_json(item, claim, where);
  else if (claim.certified && claim.kind != ClaimKind::Load) {
    claim.cnf = text(item, "cnf", where), claim.proof = text(item, "proof", where);
    claim.cnf_sha256 = text(item, "cnf_sha256", where);
    file_names({&claim.cnf, &claim.proof}, where);
  }
  return claim;
}

}  // namespace

Manifest manifest_from_json(const nlohmann::json& document, const std::string& where) {
  if (!document.is_object() || document.value("format", "") != "tessel.certificate/1")
    throw MalformedError(where + ".format: not \"tessel.certificate/1\"");
  only_known_keys(document, {"format", "placement", "memory_limit", "claims"}, where);
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

// Compares `name` with the CNF the verifier's encoder writes, its hash with
// `sha256`, and checks `proof` against it; the reason is empty when it passes.
std::string check_cnf_proof(const std::string& directory, const Cnf& encoded, const std::string& name,
                            const std::string& sha256, const std::string& proof_name, ClaimCheck& check) {
  const std::string expected = dimacs_text(encoded);
  const std::string written = read_file(directory + "/" + name);
  if (written != expected)
    return name + " is not the verifier's encoding of the claim (first difference on line " +
           std::to_string(first_different_line(written, expected)) + ")";
  if (sha256_hex(written) != sha256) return "cnf_sha256 in the manifest is not the hash of " + name;
  const std::vector<ProofStep> proof = parse_drat(read_file(directory + "/" + proof_name), directory + "/" + proof_name);
  const DratResult result = check_drat(parse_dimacs(expected, name), proof);
  check.lemmas += result.lemmas, check.checked += result.checked;
  return result.valid ? "" : proof_name + ": " + result.reason;
}

ClaimCheck check_refutation(const std::string& directory, const Placement& placement, const Manifest& manifest,
                            const ManifestClaim& claim) {
  ClaimCheck check;
  check.claim = claim_words(claim);
  const auto begin = std::chrono::steady_clock::now();
  check.reason = check_cnf_proof(directory, encode_claim(placement, manifest.memory_limit, claim.claim), claim.cnf,
                                 claim.cnf_sha256, claim.proof, check);
  check.certified = check.reason.empty();
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return check;
}

// The arithmetic of a makespan claim's relaxation, re-derived from the
// placement (certify/ends.hpp); the reason is empty when it implies the claim.
// `asked`: the placement the ends were asked of (without the fillers, for
// ends_without_fillers), whose work bounds the ends' windows.
std::string relaxation_reason(const Placement& placement, const Placement& asked, const ManifestClaim& claim) {
  const long long micros = claim.claim.k, below = claim.below;
  if (claim.relaxation == Relaxation::CriticalPath) {
    const long long path = critical_path(placement);
    return path >= below ? "" : "the critical path is " + std::to_string(path) + ", below " + std::to_string(below);
  }
  if (claim.device >= placement.ndevs) return "device " + std::to_string(claim.device) + " is not in the placement";
  const long long work = micros * device_load(placement, claim.device);
  const long long asked_work = micros * device_load(asked, claim.device);
  long long idle = 0, windows = 0;
  for (const EndProof& end : claim.ends) idle += end.question.idle, windows += end.question.window;
  if (windows > asked_work)
    return "the ends' windows (" + std::to_string(windows) + " steps) may overlap: device " +
           std::to_string(claim.device) + " works only " + std::to_string(asked_work) + " steps" +
           (claim.relaxation == Relaxation::EndsWithoutFillers ? " without the fillers" : "");
  if (work + idle < below)
    return "device " + std::to_string(claim.device) + " works " + std::to_string(work) + " steps and idles at least " +
           std::to_string(idle) + ", below " + std::to_string(below);
  return "";
}

ClaimCheck check_makespan(const std::string& directory, const Placement& placement, const Manifest& manifest,
                          const ManifestClaim& claim) {
  ClaimCheck check;
  check.claim = claim_words(claim);
  const auto begin = std::chrono::steady_clock::now();
  const std::optional<Placement> rest = without_fillers(placement);
  const bool cut = claim.relaxation == Relaxation::EndsWithoutFillers;
  if (cut && !rest)
    check.reason = "ends_without_fillers: the placement has no filler to cut out (a memory-free block on every "
                   "device, with some other block and no edge delay)";
  const Placement& asked = cut && rest ? *rest : placement;
  if (check.reason.empty()) check.reason = relaxation_reason(placement, asked, claim);
  for (const EndProof& end : claim.ends) {
    if (!check.reason.empty()) break;
    check.reason = check_cnf_proof(directory, encode_end(asked, manifest.memory_limit, end.question), end.cnf,
                                   end.cnf_sha256, end.proof, check);
  }
  check.certified = check.reason.empty();
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
    else if (claim.kind == ClaimKind::Load) checks.push_back(check_load(placement, claim));
    else if (claim.kind == ClaimKind::Makespan) checks.push_back(check_makespan(directory, placement, manifest, claim));
    else checks.push_back(check_refutation(directory, placement, manifest, claim));
  }
  return checks;
}

}  // namespace tessel::certify
