// The windows of the one-device relaxation (solver/makespan/
// device_relaxation): for every copy (block, micro-batch) of the kept
// device, the earliest start any schedule allows it (its head) and the time
// it needs from its start to the end (its tail). The encoding gives each
// copy an order literal per step of [head, makespan - tail], so these
// windows decide its size, and how far the solver has to search.
//
// Chains give the first heads and tails (copies of a block in micro-batch
// order, each after its predecessors' copies of the same micro-batch). On a
// long run those leave windows almost as wide as the horizon (V-Min, 16
// stages, 128 micro-batches: a copy of micro-batch 64 allowed anywhere in
// [79, 443]); the kept device's own work and memory narrow them:
//   - work: the copies that must run on the device before a copy, from any
//     micro-batch k on, fit between their least head and its start (and
//     mirrored for tails);
//   - memory: a copy that allocates starts only once enough has been
//     freed: every allocation surely made by then (its block's earlier
//     copies, its on-device ancestors' copies of micro-batches up to its
//     own) less every free that may have started (head no later, and not
//     one that waits for this copy) must fit the limit.
// The head rules feed each other (a later allocation waits for a free,
// whose head follows its own allocation's), so they are applied until
// nothing moves. Each is implied by every schedule of the relaxation, so
// the windows lose no schedule.
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct CopyWindows {
  std::vector<std::vector<Time>> head;  // [block][micro]: earliest start
  std::vector<std::vector<Time>> tail;  // [block][micro]: from the copy's start to the end
};

// The kept device's blocks and, within one micro-batch, how far apart
// their starts must be.
struct KeptDevice {
  std::vector<int> own;                     // its blocks
  std::vector<std::vector<Time>> distance;  // [from][to], every block of the placement (-1: no chain)

  bool before(int a, int b) const { return a != b && distance[a][b] > 0; }
};

KeptDevice kept_device(const Placement& placement, int device);

// Heads and tails of every copy of `placement`'s blocks at `total_micros`, those
// of `device`'s blocks narrowed by its work and, when `limit` >= 0, by its
// memory limit (the blocks' own memory, as the verifier counts it).
CopyWindows relaxed_windows(const Placement& placement, long long total_micros, int device, Memory limit);

}  // namespace tessel
