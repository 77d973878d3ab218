// The full problem as one encoding (docs/algorithms.md, "Full search"): an
// integer start for every copy of every block, each within its own domain;
// the dependencies with their delays; the copies of one block in
// micro-batch order; no overlap on a device; the memory of a device at
// every step. Two searches build it: the full search on the widest domains
// the device work bounds allow (it bisects the makespan and proves), and the
// shift search (makespan/improvements/shift_search.hpp) on narrow domains around a
// schedule in hand (it only finds).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "model/placement.hpp"
#include "model/schedule.hpp"
#include "sat/backend.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct StartDomain {
  int earliest = 0;
  int latest = 0;  // >= earliest
};
using StartDomains = std::vector<std::vector<StartDomain>>;  // [block][micro]

struct FullEncoding {
  std::unique_ptr<Backend> backend;
  std::vector<std::vector<IntVar>> start;  // [block][micro]
};

// Whether the memory limit of `device` can be reached at all: not when every
// allocation of its blocks' `total_micros` copies together stays within it (the
// memory-free case of the hand-made schedules' own peaks, e.g. interleaved
// zero bubble at N = 16 holding all 32 activations). Such a device needs no
// constraint, and its steps x allocations terms neither cost memory nor
// count against the budget.
bool memory_can_bind(const Placement& placement, int device, int total_micros, Memory limit);

// What the encoding on `domains` would hold, to refuse it before it is built
// (solver/knobs/encoding_budget.hpp): per start an order chain of its domain's
// width and, per device, the literals of its no-overlap as the backend
// would encode it (sat/no_overlap_size.hpp: time-indexed, an occupancy
// literal per step a start may cover, or pairwise on long spans over narrow
// domains); per allocation a memory term per step of its domain, on the
// devices whose memory can bind.
struct EncodingSize {
  long long literals = 0;
  long long memory_terms = 0;

  bool within_budget() const;
};
EncodingSize full_encoding_size(const Placement& placement, const std::vector<Memory>& memory_limit, int total_micros,
                                const StartDomains& domains);

// The encoding of `total_micros` micro-batches over steps [0, horizon), each start
// in its domain. Nothing when options.deadline passes while building (the
// pairwise no-overlap of Z3 is quadratic per device, so building many
// micro-batches takes long by itself).
std::optional<FullEncoding> build_full_encoding(const Placement& placement, const SearchOptions& options,
                                                int total_micros, Time horizon, const StartDomains& domains);

// The solver's decisions start from `schedule` (solution-guided search).
void prefer_schedule(FullEncoding& encoding, const Schedule& schedule);

// The schedule of the solver's last satisfying answer.
Schedule decode_schedule(const FullEncoding& encoding, const Placement& placement,
                         const std::vector<Memory>& memory_limit, int total_micros);

}  // namespace tessel
