// The copy channels of the modulo encoding (solver/modulo/modulo_encoding.hpp)
// when offloads are chosen (docs/algorithms.md, "Memory traded for time"):
// every device has one channel beside its compute, on which one copy runs
// at a time. A chosen offload's copy out and copy in are blocks on the
// forward's devices' channels, with their own phases and quotients; on each
// channel they must not overlap on the period's circle (which covers every
// micro-batch: copies of micro-batch m and m' differ by whole periods).
// Copies never meet the compute's blocks: those are another circle.
#pragma once

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_variables.hpp"

namespace tessel {

// Each pair of copies on `device`'s channel (those of one offload among
// them, as other micro-batches' copies), guarded by both offloads' literals,
// for every period of the encoding.
void add_channel_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                             int device);

}  // namespace tessel
