// Fuzz target: PyTorch pipelining action tables (model/formats/pytorch_csv
// and classic/order_import), as `tessel import --from pytorch-csv` reads
// them. The first byte picks the dialect and how OVERLAP_F_B cells run; the
// rest is the CSV. A table that parses is timed with the default costs; a
// table that can never run is a DeadlockError (exit 1), not a finding.
#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/stage_costs.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  if (size == 0) return 0;
  const PytorchDialect dialect = (data[0] & 1) ? PytorchDialect::legacy : PytorchDialect::current;
  const auto overlap = (data[0] & 2) ? classic::OverlapMode::sequential : classic::OverlapMode::fused;
  try {
    PytorchTable table = read_pytorch_csv(fuzz::text_of(data + 1, size - 1), "fuzz.csv", dialect);
    classic::StageCosts costs = classic::pytorch_costs({}, {});
    classic::schedule_from_pytorch_table(table, dialect, costs, "fuzz.csv", nullptr, overlap);
  } catch (const InputError&) {
  } catch (const classic::DeadlockError&) {
  }
  return 0;
}
