// The certificate directory (docs/formats.md, "tessel.certificate/1"): a
// manifest.json with the placement, the memory limit and one entry per
// claim, and per certified claim a DIMACS CNF and a DRAT proof beside it.
// check_certificate re-encodes every claim with the verifier's encoder,
// compares the CNF byte for byte and checks the proof; it uses nothing of
// tessel outside certify/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/ends.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

enum class ClaimKind {
  Load,    // every period below `below`: some device's load in the window exceeds it (arithmetic)
  Period,  // no repetend of the period (CNF + DRAT)
  Latency, // none of the period with latency <= latency_at_most (CNF + DRAT)
  Makespan,// no schedule of N = k micro-batches below `below`: by a relaxation (certify/ends)
};
const char* kind_name(ClaimKind kind);

// Which relaxation implies a makespan claim (certify/ends.hpp).
enum class Relaxation {
  None,          // not certified
  CriticalPath,  // one micro-batch's longest chain >= below
  Load,          // N load(device) >= below
  Ends,          // N load(device) + the idle its ends prove >= below
  EndsWithoutFillers,  // the same, the ends asked of the placement without its fillers (certify/ends.hpp)
};
const char* relaxation_name(Relaxation relaxation);

// One end of a makespan claim's device: "every schedule idles the device at
// least question.idle of these window steps", refuted as a CNF.
struct EndProof {
  EndQuestion question;
  std::string cnf, proof, cnf_sha256;
  double solve_seconds = 0;
};

struct ManifestClaim {
  ClaimKind kind = ClaimKind::Period;
  Claim claim;
  long long below = 0;           // Load: every period < below
  bool certified = false;
  std::string reason;            // not certified: why
  std::string cnf, proof;        // file names inside the directory
  std::string cnf_sha256;
  std::string solver;
  double solve_seconds = 0;
  Relaxation relaxation = Relaxation::None;  // Makespan
  int device = -1;                           // Makespan: Load and Ends
  std::vector<EndProof> ends;                // Makespan: Ends (a head, a tail, or both)
};

std::string claim_words(const ManifestClaim& claim);

struct Manifest {
  nlohmann::json placement;            // tessel.placement/1 as written
  std::vector<long long> memory_limit; // one per device, static included; empty: none
  std::vector<ManifestClaim> claims;
};

nlohmann::json manifest_to_json(const Manifest& manifest);
// Throws MalformedError naming the field.
Manifest manifest_from_json(const nlohmann::json& document, const std::string& where);

struct ClaimCheck {
  std::string claim;
  bool certified = false;
  std::string reason;      // why not
  double seconds = 0;      // the check's time
  size_t lemmas = 0, checked = 0;
};

// Every claim of the certificate in DIR, checked, in the manifest's order.
// Throws MalformedError for a missing or malformed file.
std::vector<ClaimCheck> check_certificate(const std::string& directory);

// The whole file as bytes; MalformedError when it cannot be read.
std::string read_file(const std::string& path);

}  // namespace tessel::certify
