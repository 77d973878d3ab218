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

// A forward's choice for one micro-batch held as a schedule in hand made it
// (the traded neighbourhoods, solver/makespan/improvements/traded_windows.hpp,
// re-solve a window and hold every choice outside it): kept, recomputed with
// its run starting in [at, at_latest], or offloaded with its copy out
// starting in [at, at_latest] and its copy in in [back, back_latest] (a
// latest below its first: that one step). Free: the encoding chooses.
enum class HeldKind { Free, Keep, Recompute, Offload };
struct HeldChoice {
  HeldKind kind = HeldKind::Free;
  int at = 0;
  int back = 0;
  int at_latest = -1;
  int back_latest = -1;
};
using HeldChoices = std::vector<std::vector<HeldChoice>>;  // [block][micro]; empty: every choice free

// A forward whose activation the encoding may give back per micro-batch
// and recompute (docs/algorithms.md, "Memory traded for time"): chosen, a
// run of the offer's span on the forward's devices starts at `start`, after
// the forward ends and ending before the offer's `before` block; not
// chosen, `start` is pinned to the forward's end, where its memory terms
// cancel, and the run occupies nothing.
struct RecomputeChoices {
  int forward = -1;           // block index
  std::vector<Lit> chosen;    // [micro]
  std::vector<IntVar> start;  // [micro]
  std::vector<StartDomain> domain;  // [micro]: where `start` may be
};

// A forward whose activation the encoding may copy to host memory and back
// per micro-batch: chosen, the copy out starts at `out` after the forward
// ends, the whole memory is freed when it ends, the copy in starts at `in`
// after it (memory allocated again) and ends before the offer's `before`
// block; both on the copy channel of each of the forward's devices, one
// copy at a time there. Not chosen, `out` is pinned to the forward's end
// and `in` to the copy out's end, where the memory terms cancel.
struct OffloadChoices {
  int forward = -1;  // block index
  std::vector<Lit> chosen;
  std::vector<IntVar> out;
  std::vector<IntVar> in;
  std::vector<StartDomain> out_domain, in_domain;  // [micro]
};

struct FullEncoding {
  std::unique_ptr<Backend> backend;
  std::vector<std::vector<IntVar>> start;  // [block][micro]
  std::vector<RecomputeChoices> recomputes;  // empty without choices
  std::vector<OffloadChoices> offloads;      // empty without choices
};

// The forwards whose recompute the encoding with choices offers: those that
// offer it, save memory by it, and sit on a device whose memory can bind
// (elsewhere recomputing only costs time: keeping is as good).
std::vector<int> recompute_forwards(const Placement& placement, const std::vector<Memory>& memory_limit,
                                    int total_micros);

// The same for offload (the forward's whole memory is what it saves).
std::vector<int> offload_forwards(const Placement& placement, const std::vector<Memory>& memory_limit,
                                  int total_micros);

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
// `with_choices`: the recompute runs and copies of the forwards that may
// choose them are counted too (a held choice's run and copies within its range).
EncodingSize full_encoding_size(const Placement& placement, const std::vector<Memory>& memory_limit, int total_micros,
                                const StartDomains& domains, bool with_choices = false, const HeldChoices& held = {});

// The encoding of `total_micros` micro-batches over steps [0, horizon), each start
// in its domain. Nothing when options.deadline passes while building (the
// pairwise no-overlap of Z3 is quadratic per device, so building many
// micro-batches takes long by itself). `with_choices`: a recompute chosen
// per forward of recompute_forwards and micro-batch, an offload per forward
// of offload_forwards (never both for one micro-batch); the copies of a block
// are then not ordered by micro-batch (a forward recomputed early and one
// kept later are not interchangeable: the symmetry would cut schedules).
// `held` (with choices): the choices not Free there are taken as given, their
// runs and copies within the ranges it gives.
std::optional<FullEncoding> build_full_encoding(const Placement& placement, const SearchOptions& options,
                                                int total_micros, Time horizon, const StartDomains& domains,
                                                bool with_choices = false, const HeldChoices& held = {});

// The solver's decisions start from `schedule` (solution-guided search).
void prefer_schedule(FullEncoding& encoding, const Schedule& schedule);

// The schedule of the solver's last satisfying answer, its chosen
// recomputes and copies listed.
Schedule decode_schedule(const FullEncoding& encoding, const Placement& placement,
                         const std::vector<Memory>& memory_limit, int total_micros);

}  // namespace tessel
