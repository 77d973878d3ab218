// A mirrored chain's period decided by dynamic programming (docs/algorithms.md,
// "Chains by dynamic programming").
//
// Many placements are one chain walked out and back: F_0 .. F_{D-1}, then
// B_{D-1} .. B_0 (vshape), with tensor-parallel blocks on every device at
// mirrored places (mshape, nnshape). Pair the chain's i-th block with its
// i-th from the end: a *level*. When every device's own blocks lie in one
// level, a device's circle of exclusivity holds only that level's two blocks
// and the all-device blocks, and its memory is that level's one pair. Once
// the all-device blocks' phases are chosen (they share every device, so their
// phases are global), the repetend is decided level by level from the middle
// of the chain outward: the state is the level's two phases, its value the
// least time from the level's first block to its second (the hold of the
// level's memory), and the next level outward adds the two least gaps whose
// phases match. Least gaps suffice: a longer gap changes no phase, so it frees
// no circle, and it lengthens every hold around it and the latency. The
// memory caps the value per level (m ceil(hold / P) <= limit: one pair holds
// ceil(hold / P) micro-batches at its fullest), Kmax caps the latency.
//
// Each period is decided exactly, with the least latency, in O(A n P^3) for
// A choices of the all-device phases, where the modulo encoding's refutation
// grows with the devices (nnshape, 32 devices, memory 24: period 11 took
// minutes of SAT). The modulo encoding decides every other placement.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "sat/deadline.hpp"

namespace tessel {

struct MirroredChain {
  std::vector<int> blocks;        // placement block indices along the chain
  std::vector<Time> least_gaps;   // blocks[i] -> blocks[i + 1]: span + delay
  std::vector<int> all_device;    // the chain's blocks that run on every device
  std::vector<long long> held_caps;  // per level: micro-batches its pair may hold at once (-1: any)
};

// The placement's edges as paths covering every block (a block without
// edges is a path of one), with each block's delay to its successor; empty
// when a block has two successors or two predecessors, or the edges close a
// cycle.
std::vector<std::vector<int>> edge_paths(const Placement& placement, std::vector<Time>& delay_after);

// The least gap from each block of `path` to the next: its span plus the
// edge's delay (delay_after from edge_paths).
std::vector<Time> least_gaps_along(const Placement& placement, const std::vector<int>& path,
                                   const std::vector<Time>& delay_after);

// The chain when `placement` is one (every block on one device or on all of
// them, memory only in a level's pair on its device, all-device blocks
// without memory, no limit below zero); nullopt otherwise.
std::optional<MirroredChain> mirrored_chain(const Placement& placement, const std::vector<long long>& memory_limit);

// Whether deciding `period` takes about `seconds` at most, at
// `steps_per_second` of the program's counted steps (the estimate is coarse:
// within a factor of a few).
bool chain_period_affordable(const Placement& placement, const MirroredChain& chain, int period, double seconds,
                             double steps_per_second);

struct ChainPeriod {
  Answer answer = Answer::Unknown;  // Unknown: the deadline struck first
  std::vector<int> starts;          // Sat: one micro-batch's starts, least latency
  long long phase_choices = 0;      // all-device phase choices tried
};

// Is there a repetend of this period with at most `max_in_flight`
// micro-batches in flight, and the one of least latency.
ChainPeriod decide_chain_period(const Placement& placement, const MirroredChain& chain, int period,
                                int max_in_flight, const Deadline& deadline);

// One period's program as work several threads may share (in the period
// race a free thread joins a period a program decides before it starts
// another, solver/period/scheduler.hpp).
class PeriodWork {
 public:
  virtual ~PeriodWork() = default;
  // Decides what is left until nothing is, or the deadline strikes; any
  // number of threads at once.
  virtual void help(const Deadline& deadline) = 0;
  // Whether another thread could still take part.
  virtual bool open() const = 0;
  // Once help() has returned on every thread that called it: the answer
  // (Unknown when part of the work was left undone).
  virtual ChainPeriod answer(const Deadline& deadline) = 0;
};

// The chain's period by its phase choices, each decided independently
// (their least latency, ties to the first in enumeration order, so the
// answer is the single thread's whatever the number of helpers).
class ChainPeriodWork : public PeriodWork {
 public:
  ChainPeriodWork(const Placement& placement, const MirroredChain& chain, int period, int max_in_flight);
  void help(const Deadline& deadline) override;
  bool open() const override;
  ChainPeriod answer(const Deadline& deadline) override;

 private:
  const Placement& placement_;
  const MirroredChain& chain_;
  const int period_, max_in_flight_;
  std::vector<std::vector<int>> choices_;
  std::atomic<size_t> next_{0};
  std::atomic<size_t> decided_{0};
  std::atomic<int> helping_{0};
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;  // the best so far
  long long best_;
  size_t best_index_ = 0;
};

// A program decided whole by the thread that asks it (no other can join:
// the crossed chains' walk is one sequence of devices).
class WholePeriodWork : public PeriodWork {
 public:
  explicit WholePeriodWork(std::function<ChainPeriod(const Deadline&)> decide) : decide_(std::move(decide)) {}
  void help(const Deadline& deadline) override { decided_ = decide_(deadline); }
  bool open() const override { return false; }
  ChainPeriod answer(const Deadline&) override { return decided_; }

 private:
  std::function<ChainPeriod(const Deadline&)> decide_;
  ChainPeriod decided_;
};

}  // namespace tessel
