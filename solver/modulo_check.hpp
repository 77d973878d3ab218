// An independent re-check of every modulo solution the encoding decodes,
// from the definition of a repetend (SPEC section 1 on the unrolled steady
// state), sharing no code with modulo_encoding.cpp: a wrong encoding is then
// caught at the answer that exposes it instead of being printed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel {

// Why the starts s(b) (micro-batch m of b at m P + s(b)) are not a valid
// steady state of period P with at most `max_in_flight` micro-batches in
// flight under the memory limit; nullopt when they are.
std::optional<std::string> modulo_violation(const Placement& placement, const std::vector<long long>& memory_limit,
                                            int period, const std::vector<int>& starts, int max_in_flight);

}  // namespace tessel
