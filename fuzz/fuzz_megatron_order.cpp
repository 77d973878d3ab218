// Fuzz target: Megatron-LM order lists (model/formats/megatron_order and
// classic/order_import), as `tessel import --from megatron-order` reads them
// with no options: chunks and micro-batches taken from the order itself,
// split when it has weight-gradient entries. The first byte picks a
// layer-wise reading (layers per chunk 1-3) instead of the chunk-wise one.
#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/stage_costs.hpp"
#include "fuzz/fuzz_support.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessel;
  if (size == 0) return 0;
  const int layers = data[0] % 4;  // 0: chunk-wise
  try {
    MegatronOrders orders =
        megatron_order_from_json(parse_json_text(fuzz::text_of(data + 1, size - 1), "fuzz"), "fuzz");
    classic::MegatronShape shape;
    const int units = megatron_chunks(orders);
    if (layers > 0 && units % layers == 0) shape.layers_per_chunk.assign(units / layers, layers);
    shape.chunks = shape.layers_per_chunk.empty() ? units : static_cast<int>(shape.layers_per_chunk.size());
    const int nmicros = megatron_micro_count(orders);
    // The command line refuses these before it reads further (tools/cmd_import).
    if (shape.chunks < 1 || shape.chunks > 1000 || nmicros < 1 || nmicros > 100000) return 0;
    const bool split = megatron_has_weights(orders);
    classic::StageCosts costs = classic::scheme_costs({}, {}, split);
    classic::schedule_from_megatron_order(orders, shape, nmicros, split, costs, "fuzz");
  } catch (const InputError&) {
  } catch (const classic::DeadlockError&) {
  }
  return 0;
}
