// The question a certificate answers, read on its own (docs/algorithms.md,
// "Certificates"): a placement of integer spans and memory, the memory limit
// per device, and the claim "no repetend of period P with every block k
// times per window, at most K windows in flight (and latency at most T)".
// certify/ reads the placement file itself, with no code of the rest of
// tessel, so that what it checks depends only on the problem definition.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessel::certify {

// A malformed certificate or placement: `where` names the file and field.
struct MalformedError : std::runtime_error {
  explicit MalformedError(const std::string& what) : std::runtime_error(what) {}
};

struct Block {
  std::string id;
  long long span = 1;
  long long memory = 0;
  std::vector<int> devices;
};

struct Edge {
  int from = 0, to = 0;
  long long delay = 0;
};

struct Placement {
  int ndevs = 0;
  std::vector<Block> blocks;
  std::vector<Edge> edges;
  std::vector<long long> static_memory;  // one per device
};

// A claim of impossibility the certificate proves.
struct Claim {
  long long period = 0;      // P of the window
  int k = 1;                 // micro-batches per window
  int max_in_flight = 1;     // K: windows in flight (latency <= K P)
  std::optional<long long> latency_at_most;  // a latency claim: none of latency <= this
};

// The tessel.placement/1 document, integers only (a decimal span, memory or
// delay is refused: the encoder counts whole steps). `where` prefixes errors.
Placement placement_from_json(const nlohmann::json& document, const std::string& where);

// k independent copies of every block (copy c of block b is c n + b), edges
// inside each copy: the window of k micro-batches as one micro-batch.
Placement window_of(const Placement& placement, int k);

// The claim in words, as the report and the manifest print it.
std::string claim_text(const Claim& claim);

}  // namespace tessel::certify
