// Fuzz target: the tessel.placement/1 reader (model/placement_json). Any
// bytes go through the same parse and validation as `tessel search
// --placement FILE`; an accepted placement is written back and read again,
// so the writer and the reader agree on everything the reader lets through.
#include "fuzz/fuzz_support.hpp"
#include "model/input_error.hpp"
#include "model/placement_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  try {
    Placement placement = placement_from_json(parse_json_text(fuzz::text_of(data, size), "fuzz"), {"fuzz", ""});
    placement_from_json(placement_to_json(placement), {"written", ""});
  } catch (const InputError&) {
  }
  return 0;
}
