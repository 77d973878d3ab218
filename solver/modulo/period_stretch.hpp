// Why a refuted period settles every smaller one (docs/algorithms.md, "The
// repetend as a modulo schedule"): a repetend of period P stretches into
// one of period P + 1.
//
// Insert one idle step at a phase `cut` of every period: time t = n P + r
// (0 <= r < P) goes to n (P + 1) + r + [r >= cut]. The map is increasing
// and never brings two times closer, so every dependency with its delay
// still holds and no two blocks of a device overlap; micro-batch m + 1
// still starts its blocks one period after m. The memory of a device only
// changes at block starts, which keep their order, so it takes the same
// levels (during the inserted step it stays at the level before it): the
// peak is unchanged. A start s = q P + tau goes to q (P + 1) + tau', at
// most q + 1 later, so s + span <= Kmax P still gives s' + span <=
// Kmax (P + 1): the micro-batches in flight stay within Kmax. So if some
// repetend of period P exists, one of P + 1 does, and a proof that none of
// period P + 1 exists is one for P as well.
#pragma once

#include "model/placement.hpp"
#include "solver/modulo/warmup_cooldown.hpp"

namespace tessel {

// `solution` (period P, of `placement`) with one idle step inserted at
// phase `cut` in [0, P] of every period: a repetend of period P + 1 (see
// above), its latency and micro-batches in flight recomputed.
ModuloSolution stretched(const Placement& placement, const ModuloSolution& solution, int cut);

}  // namespace tessel
