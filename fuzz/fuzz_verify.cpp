// Fuzz target: the verifier's own reader (verify/), which shares no code
// with model/ and so is fuzzed on its own. The first byte picks the document:
// a schedule, checked as `tessel verify FILE` does (with and without a
// memory override), or a partition checked against a fixed graph as
// `tessel partition GRAPH --check FILE` does. A document it cannot read is
// a FormatError (exit 2); anything else escaping is a finding.
#include "fuzz/fuzz_support.hpp"
#include "verify/json_text.hpp"
#include "verify/partition_check.hpp"
#include "verify/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel::verify;
  if (size == 0) return 0;
  const int mode = data[0] % 3;
  try {
    nlohmann::json document = parse_document(tessel::fuzz::text_of(data + 1, size - 1));
    if (mode == 2) {
      static const nlohmann::json graph = nlohmann::json::parse(tessel::fuzz::kDiamondGraph);
      partition_report_to_json(check_partition(graph, document));
      return 0;
    }
    std::optional<std::vector<long long>> memory;
    if (mode == 1) memory = std::vector<long long>{4};
    Report report = check_schedule(document, memory);
    report_to_json(report);
    report_to_text(report);
  } catch (const FormatError&) {
  }
  return 0;
}
