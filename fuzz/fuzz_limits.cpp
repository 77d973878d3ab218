// Fuzz target: limits given on the command line (model/quantity and
// model/memory_limits): "--memory 40GiB", "1.5", "6,6,4,4" against a
// two-device placement whose memory has one decimal, so that a limit with
// more decimals rescales it. Every amount is turned into ticks, where
// overflow would show.
#include "cases/builtin_cases.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/input_error.hpp"
#include "model/memory_limits.hpp"
#include "model/quantity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  const std::string text = fuzz::text_of(data, size);
  if (std::optional<Decimal> amount = parse_quantity(text)) {
    for (int decimals = 0; decimals <= kMaxDecimals; ++decimals)
      if (std::optional<long long> ticks = to_ticks(*amount, decimals)) format_ticks(*ticks, decimals);
  }
  try {
    Placement placement = make_case("vshape", 2, false);
    memory_limits_for(placement, text, "--memory");
  } catch (const InputError&) {
  }
  return 0;
}
