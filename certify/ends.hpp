// The makespan's relaxations, as the verifier reads them (docs/algorithms.md,
// "Certificates", "Makespan claims"). "No schedule of N micro-batches has a
// makespan below B" is too large a question to refute whole, so it is
// implied by smaller ones the checker re-derives from the placement:
//   - the critical path: one micro-batch's longest chain is >= B;
//   - the load: some device d has N load(d) >= B;
//   - the device's ends: a device d idles at least I1 steps among the first
//     W1 steps of every schedule and at least I2 among the last W2, with
//     W1 + W2 <= N load(d) <= makespan (so the two stretches never
//     overlap), and N load(d) + I1 + I2 >= B.
// Each end is a CNF of this file, refuted by a DRAT proof: "some schedule
// idles d at most I - 1 steps in its first W steps". The last W steps are
// the first W of the schedule read backwards (edges reversed, memory
// freed at the ends of blocks, counted down from the level after all N).
#pragma once

#include <optional>
#include <vector>

#include "certify/clauses.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

struct EndQuestion {
  bool tail = false;      // the last `window` steps instead of the first
  int device = 0;
  long long window = 1;   // W
  long long idle = 1;     // I: the claim is "idle >= I in every schedule"
  long long micros = 1;   // N
};

// The CNF that is satisfiable exactly when some schedule of N micro-batches
// (only its instances that start inside the window, any subset closed under
// the edges) idles `device` at most idle - 1 of the window's steps, with
// no overlap on any device and every device's memory within its limit.
// Throws MalformedError when it cannot be stated (window or idle < 1, a
// device out of range).
Cnf encode_end(const Placement& placement, const std::vector<long long>& memory_limit, const EndQuestion& question);

// How many micro-batches can have an instance start inside a window of W
// steps: each has a source block there, and the copies of a source do not
// overlap (at most ceil(W / span) of them), capped by N.
long long micros_in_window(const Placement& placement, long long window, long long micros);

// The placement with its fillers cut out: the memory-free blocks that run on
// every device, with their edges. While a filler runs no other block runs
// anywhere, so cutting its steps out of any schedule (and the later steps
// moved up) leaves a schedule of the rest, N x (the fillers' spans) shorter:
// no other block loses a step, the order of steps is kept (so no overlap
// and, with every edge's delay 0, every edge holds), and memory takes the
// same levels (fillers hold none). So the makespan is at least N x the
// fillers' spans plus the least makespan without them, and a device's ends
// may be asked of the placement without them. Empty when there is no
// filler, no other block, or an edge with a delay (which the cut could
// shorten).
std::optional<Placement> without_fillers(const Placement& placement);

// One micro-batch's longest chain (spans and delays).
long long critical_path(const Placement& placement);

// The steps of work device d does per micro-batch.
long long device_load(const Placement& placement, int device);

}  // namespace tessel::certify
