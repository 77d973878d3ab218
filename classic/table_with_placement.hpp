// A PyTorch action table read back with the placement it was written from
// (its sidecar, model/formats/pytorch_sidecar.hpp), so real spans and memory
// survive a round trip instead of the default unit costs. The order is
// run as soon as possible (classic/order_execution.hpp), so the imported
// schedule is never longer than the exported one.
#pragma once

#include <string>

#include "model/formats/pytorch_csv.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

// The table's compute actions as orders over the sidecar's placement, run as
// soon as possible. Every cell must name a block of the placement (stage and
// kind) on the rank that holds it; InputError names the cell otherwise.
// Throws DeadlockError when the order can never run.
Schedule schedule_from_table_and_placement(const PytorchTable& table, const Schedule& sidecar,
                                           const std::string& file);

}  // namespace tessel::classic
