// The costs of a pipeline's actions as a user names them (`--span
// F=1.5,B=3,W=1`, or a dict in Python): spans and memory deltas per action
// letter, exact decimals, turned into the StageCosts of a stage graph. The
// command line and the Python module both read costs through here, so the
// defaults and the letters mean the same everywhere.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "classic/stage_graph.hpp"
#include "model/quantity.hpp"

namespace tessel::classic {

// Action letter -> value ("F", "B", "I", "W", "FB").
using CostValues = std::map<std::string, Decimal>;

// Costs in the zero-bubble papers' words (generate, megatron-order): keys F,
// B, W; a split backward is B (input gradient) + W. Defaults: F=1,B=2
// (unsplit) or F=1,B=1,W=1; memory F=1,B=-1 (unsplit) or F=1,B=0,W=-1.
// Throws InputError (field `span_field` / `memory_field`) for a span <= 0, W
// memory on an unsplit backward, or values too large.
StageCosts scheme_costs(const CostValues& spans, const CostValues& memory, bool split,
                        const std::string& span_field = "--span", const std::string& memory_field = "--memory");

// Costs in PyTorch's current words: F, B (full backward), I (input
// backward), W, FB (an overlapped forward and backward unit). Defaults:
// spans F=1,I=1,W=1,B=I+W,FB=F+B; memory F=1,B=-1,I=0,W=-1.
StageCosts pytorch_costs(const CostValues& spans, const CostValues& memory,
                         const std::string& span_field = "--span", const std::string& memory_field = "--memory");

// Which letters each reading takes (for "a key the scheme does not use").
const std::vector<std::string>& scheme_letters();   // F, B, W
const std::vector<std::string>& pytorch_letters();  // F, B, I, W, FB

}  // namespace tessel::classic
