// The makespan portfolio's list, in the order the search runs it. The
// constructions first: the repetend unrolled, and when it is above the
// bound its pattern compacted and other windows of its period; the staged
// schedule when the repetend is more than a percent above the bound; the
// cheap aperiodic ones always. Then, while the best is above the bound, the
// improvements: the solved bounds (they may prove the best optimal, so that
// nothing runs for nothing), the shift search, the end transfer, the tabu
// search on device orders (early, on the side thread, with two threads), the
// neighbourhoods and last the full search (beside the neighbourhoods with
// two threads), which shortens the best or proves it optimal. On the
// hand-made families the neighbourhoods, not the full search, found every
// shorter schedule (papers/g_handmade).
#include "solver/makespan/phases/phases.hpp"

namespace tessel {

std::vector<Phase> makespan_phases() {
  return {repetend_phase(),      modulo_phase(),   variants_phase(),       staged_phase(),
          list_phase(),          trading_phase(),  replay_phase(),   solved_bounds_phase(),  shift_phase(),
          transfer_phase(),      orders_phase(),   neighbourhoods_phase(), full_search_phase()};
}

}  // namespace tessel
