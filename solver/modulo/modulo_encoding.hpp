// The repetend as a modulo schedule (docs/algorithms.md, "The repetend as a modulo schedule"), written against
// the backend facade only, so that every backend decides the same question.
//
// Two small integers per block instead of one start over a horizon of Kmax P:
// the phase tau(b) in [0, P) and the quotient q(b) in [0, Kmax), with the
// start of micro-batch m of b at m P + s(b), s(b) = q(b) P + tau(b). The
// offset of docs/algorithms.md is o(b) = Kmax - 1 - q(b). Dependencies then need
// two literals per edge (quotient gap >= 1, >= 2), the memory of a device is
// one offset count plus a small sum per phase, and the period enters only a
// few guarded constraints — so one encoding can hold a run of periods, each
// chosen by an assumption (incremental across periods).
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_variables.hpp"

namespace tessel {

// What encode_modulo may add beyond the constraints of the question.
struct ModuloRules {
  // Symmetry breaking (a sentence per rule on why it keeps every optimum at
  // the rule in modulo_encoding.cpp); off only to test exactly that.
  bool symmetry = true;
  // The placement is a window placement (window_placement.hpp) of this many
  // interchangeable copies, whose order the symmetry rules then fix.
  int copies = 1;
  // Recomputes to choose (copies must then be 1: the runs appended after a
  // window placement's copies break the rules' block arithmetic, so a window
  // with choices is encoded as one placement without the copies' order), and
  // the placement without their blocks, whose longest paths the memory
  // implications use.
  std::vector<OptionalRecompute> optional;
  // Offloads to choose (the same conditions); a forward offering both is
  // kept, recomputed or offloaded, never two at once.
  std::vector<OptionalOffload> offloads;
  const Placement* without_optional = nullptr;
};

// Periods periods.first .. periods.last in one encoding; ask for one with
// period_assumption(). Requires every device's memory balance to be zero
// (checked by the caller): that is what lets the steady-state memory be
// written without the warmup. Periods shorter than a block's span are
// encoded as impossible. The deadline is checked between the encoding's
// steps (per device for exclusivity and memory): past it the encoding comes
// back with `complete` false and must not be solved.
struct PeriodRange {
  int first = 0;
  int last = 0;
};
ModuloEncoding encode_modulo(Backend& backend, const Placement& placement,
                             const std::vector<long long>& memory_limit, PeriodRange periods, int max_in_flight,
                             const ModuloRules& rules = {}, const Deadline& deadline = {});

// A fresh literal that, assumed together with the period's, bounds every
// s(b) + span(b) by `latency` (the latency of one micro-batch, the minimum s
// being 0 by the symmetry rule).
Lit latency_literal(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                    int latency);

// s(b) = q(b) P + tau(b) of the last Sat answer for `period`.
std::vector<int> decode_starts(Backend& backend, const ModuloEncoding& encoding, int period);

}  // namespace tessel
