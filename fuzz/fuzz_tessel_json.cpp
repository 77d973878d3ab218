// Fuzz target: the Python Tessel's saved plans (model/formats/tessel_json),
// as `tessel import --from tessel-json FILE --case vshape --ndevs 2` reads
// them against a built-in placement. The first byte picks the memory limit
// (none, or 1-3 per device) and whether to unroll to more micro-batches.
#include "cases/builtin_cases.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/formats/tessel_json.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  if (size == 0) return 0;
  static const Placement placement = make_case("vshape", 2, false);
  std::vector<long long> limit;
  if (data[0] & 3) limit.push_back(data[0] & 3);
  const int unroll_to = (data[0] & 4) ? 8 : 0;
  try {
    import_tessel_json(parse_json_text(fuzz::text_of(data + 1, size - 1), "fuzz"), placement, "fuzz", limit,
                       unroll_to);
  } catch (const InputError&) {
  }
  return 0;
}
