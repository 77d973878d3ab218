// Fuzz target: the tessel.schedule/1 reader of model/ (model/schedule_json),
// the one `unroll`, `show` and `export` use. An accepted schedule is written
// back and read again.
#include "fuzz/fuzz_support.hpp"
#include "model/input_error.hpp"
#include "model/schedule_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  try {
    Schedule schedule = schedule_from_json(parse_json_text(fuzz::text_of(data, size), "fuzz"), {"fuzz", ""});
    schedule_from_json(schedule_to_json(schedule), {"written", ""});
  } catch (const InputError&) {
  }
  return 0;
}
