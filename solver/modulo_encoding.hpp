// The repetend as a modulo schedule (ALGORITHMS.md section 2), written against
// the backend facade only, so that every backend decides the same question.
//
// One integer per block, s(b) in [0, Kmax * P): the start of block b relative
// to its micro-batch's first step. Micro-batch m of b starts at m * P + s(b),
// so the offset of ALGORITHMS.md is o(b) = Kmax - 1 - floor(s(b) / P) and the
// phase tau(b) = s(b) mod P. This single variable turns dependencies into
// plain differences and leaves exclusivity to the backend's "no overlap on a
// circle" verb.
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "solver/backend.hpp"

namespace tessel {

struct ModuloEncoding {
  int period = 0;
  int max_in_flight = 0;        // Kmax: s(b) + span(b) <= Kmax * period
  std::vector<IntVar> starts;     // s(b) per block
  std::vector<IntVar> quotients;  // q(b) = floor(s(b) / P), in [0, Kmax)
  std::vector<IntVar> phases;     // tau(b) = s(b) mod P
};

// Requires every device's memory balance to be zero (checked by the caller):
// that is what lets the steady-state memory be written without the warmup.
// `copies` > 1 says the placement is a window placement (window_placement.hpp)
// of that many interchangeable copies, whose order the encoding then fixes.
ModuloEncoding encode_modulo(Backend& backend, const Placement& placement,
                             const std::vector<long long>& memory_limit, int period, int max_in_flight,
                             int copies = 1);

// Assumptions that bound the latency of one micro-batch (max s + span, the
// minimum s being 0 by the symmetry clause) by `latency`.
std::vector<Lit> latency_assumptions(Backend& backend, const ModuloEncoding& encoding,
                                     const Placement& placement, int latency);

}  // namespace tessel
