// The repetend as a modulo schedule (ALGORITHMS.md section 2): for a fixed
// period P, one solver call decides whether some repetend with every block
// once, at most Kmax micro-batches in flight and the memory limit exists.
//
// Why this shape: the Python Tessel enumerates offset assignments one by one
// and asks the solver about each; here offsets and phases live in one integer
// s(b) = (Kmax - 1 - o(b)) * P + tau(b), so the whole family is one question,
// dependencies are differences and the period is a constant of the encoding.
#include "solver/modulo_encoding.hpp"

#include <stdexcept>

namespace tessel {

//------------------------------------------------------------------------------
// Memory in the steady state. At steady step S + n P + phi the copies of b
// started number n + sum_{j < Kmax} [s(b) <= phi + j P]
//              = n + Kmax - q(b) - [tau(b) > phi]      (s = q P + tau);
// the n- and Kmax-terms cancel on each device because its memory deltas sum
// to zero over one micro-batch, so the memory at phase phi is
// -sum_b mem(b) * (q(b) + [tau(b) > phi]): one linear bound per device and
// phase, with two terms per block. (Summing the Kmax order literals of s
// directly is equivalent but gives the solver Kmax terms per block.)

static void add_memory_bounds(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                              const std::vector<long long>& memory_limit) {
  if (memory_limit.empty()) return;
  for (int device = 0; device < placement.ndevs; ++device) {
    for (int phase = 0; phase < encoding.period; ++phase) {
      LinearSum sum;
      for (size_t b = 0; b < placement.blocks.size(); ++b) {
        const Block& block = placement.blocks[b];
        if (block.memory == 0) continue;
        bool on_device = false;
        for (int d : block.devices) on_device |= d == device;
        if (!on_device) continue;
        sum.ints.push_back({-block.memory, encoding.quotients[b]});
        sum.bools.push_back({-block.memory, ~backend.at_most(encoding.phases[b], phase)});
      }
      if (sum.bools.empty()) {
        if (memory_limit[device] < 0) backend.add_clause({});
        continue;
      }
      backend.add_linear_at_most(sum, memory_limit[device]);
    }
  }
}

ModuloEncoding encode_modulo(Backend& backend, const Placement& placement,
                             const std::vector<long long>& memory_limit, int period, int max_in_flight,
                             int copies) {
  if (period < 1 || max_in_flight < 1) throw std::invalid_argument("encode_modulo: period and Kmax must be >= 1");
  ModuloEncoding encoding{period, max_in_flight, {}};
  const int horizon = period * max_in_flight;
  for (const Block& block : placement.blocks) {
    // A block longer than the period can never repeat every P steps.
    if (block.span > period) {
      backend.add_clause({});
      encoding.starts.push_back(backend.new_int(0, 0));
      continue;
    }
    encoding.starts.push_back(backend.new_int(0, horizon - block.span));
  }
  // s = q * P + tau, tied by two linear bounds.
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    IntVar quotient = backend.new_int(0, max_in_flight - 1);
    IntVar phase = backend.new_int(0, period - 1);
    LinearSum tie;
    tie.ints = {{1, encoding.starts[b]}, {-period, quotient}, {-1, phase}};
    backend.add_linear_at_most(tie, 0);
    for (auto& term : tie.ints) term.first = -term.first;
    backend.add_linear_at_most(tie, 0);
    encoding.quotients.push_back(quotient);
    encoding.phases.push_back(phase);
  }

  for (const Edge& edge : placement.edges)
    backend.add_difference(encoding.starts[edge.to], encoding.starts[edge.from],
                           placement.blocks[edge.from].span);

  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<IntVar> starts;
    std::vector<int> spans;
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      for (int d : placement.blocks[b].devices)
        if (d == device) {
          starts.push_back(encoding.phases[b]);
          spans.push_back(placement.blocks[b].span);
        }
    if (starts.size() > 1) backend.add_no_overlap_modulo(starts, spans, period);
  }

  add_memory_bounds(backend, encoding, placement, memory_limit);

  // Symmetry: adding a constant to every s(b) shifts the whole schedule in
  // time and keeps every constraint (differences, the circle, and the memory
  // curve, which only moves in phase). So some block may be taken to start at
  // 0 without losing a solution; it also makes "s(b) + span <= lambda" the
  // latency bound.
  std::vector<Lit> some_block_first;
  for (IntVar start : encoding.starts) some_block_first.push_back(backend.at_most(start, 0));
  backend.add_clause(some_block_first);

  // Symmetry between copies of a window placement: the copies are
  // interchangeable (same blocks, no edge between them, the same memory on
  // the same devices), so renaming them turns a solution into another of the
  // same period and latency. Any solution can thus be renamed so that the
  // copies of the first block start in increasing order; the order is strict
  // because two copies of one block share its devices and cannot start at the
  // same step. The shift above commutes with the renaming, so both hold
  // together and no period or latency is lost.
  if (copies > 1) {
    const size_t per_copy = placement.blocks.size() / copies;
    for (int copy = 0; copy + 1 < copies; ++copy)
      backend.add_difference(encoding.starts[(copy + 1) * per_copy], encoding.starts[copy * per_copy], 1);
  }
  return encoding;
}

std::vector<Lit> latency_assumptions(Backend& backend, const ModuloEncoding& encoding,
                                     const Placement& placement, int latency) {
  std::vector<Lit> lits;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    lits.push_back(backend.at_most(encoding.starts[b], latency - placement.blocks[b].span));
  return lits;
}

}  // namespace tessel
