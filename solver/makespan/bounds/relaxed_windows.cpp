// The windows of the one-device relaxation (see the header).
#include "solver/makespan/bounds/relaxed_windows.hpp"

#include <algorithm>
#include <utility>

namespace tessel {
namespace {

// Heads and tails from the chains alone. Copy n of block b starts after
// copy n - 1 of b ends (one device runs them, in micro-batch order) and
// after each predecessor's copy n ends plus the edge's delay; mirrored for
// the time after its start.
CopyWindows chain_windows(const Placement& placement, long long total_micros) {
  const std::vector<int> order = topological_order(placement);
  const size_t nblocks = placement.blocks.size();
  std::vector<std::vector<std::pair<int, Time>>> preds(nblocks), succs(nblocks);
  for (const Edge& edge : placement.edges) {
    preds[edge.to].push_back({edge.from, edge.delay});
    succs[edge.from].push_back({edge.to, edge.delay});
  }
  CopyWindows windows{std::vector<std::vector<Time>>(nblocks, std::vector<Time>(total_micros, 0)),
                      std::vector<std::vector<Time>>(nblocks, std::vector<Time>(total_micros, 0))};
  for (long long n = 0; n < total_micros; ++n)
    for (int b : order) {
      Time head = n > 0 ? windows.head[b][n - 1] + placement.blocks[b].span : 0;
      for (const auto& [pred, delay] : preds[b])
        head = std::max(head, windows.head[pred][n] + placement.blocks[pred].span + delay);
      windows.head[b][n] = head;
    }
  for (long long n = total_micros - 1; n >= 0; --n)
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int b = *it;
      const Time span = placement.blocks[b].span;
      Time tail = span + (n + 1 < total_micros ? windows.tail[b][n + 1] : 0);
      for (const auto& [succ, delay] : succs[b]) tail = std::max(tail, span + delay + windows.tail[succ][n]);
      windows.tail[b][n] = tail;
    }
  return windows;
}

// After copy n of b the device still runs copies n..N-1 of every block that
// depends on b (and n+1..N-1 of b), and after its last copy ends at least
// the shortest of its blocks' last tails remains.
void narrow_tails_by_work(const Placement& placement, const KeptDevice& blocks, CopyWindows& windows) {
  const long long last = static_cast<long long>(windows.tail[blocks.own[0]].size()) - 1;
  Time least_tail = windows.tail[blocks.own[0]][last];
  for (int b : blocks.own) least_tail = std::min(least_tail, windows.tail[b][last] - placement.blocks[b].span);
  for (int b : blocks.own) {
    Time per_micro_after = 0;
    for (int a : blocks.own)
      if (blocks.before(b, a)) per_micro_after += placement.blocks[a].span;
    const Time span = placement.blocks[b].span;
    for (long long n = 0; n <= last; ++n)
      windows.tail[b][n] =
          std::max(windows.tail[b][n], span + (last - n + 1) * per_micro_after + (last - n) * span + least_tail);
  }
}

// One round of the head rules on the kept device; true if a head moved.
class HeadRules {
 public:
  HeadRules(const Placement& placement, const KeptDevice& blocks, Memory limit, CopyWindows& windows)
      : placement_(placement), blocks_(blocks), limit_(limit), head_(windows.head) {}

  bool apply() {
    moved_ = false;
    chains();
    work();
    if (limit_ >= 0) memory();
    return moved_;
  }

 private:
  void raise(int b, long long n, Time value) {
    if (value <= head_[b][n]) return;
    head_[b][n] = value;
    moved_ = true;
  }

  long long total_micros() const { return static_cast<long long>(head_[blocks_.own[0]].size()); }

  // A copy after its block's previous copy and after its micro-batch's
  // earlier copies on the device, at their distance.
  void chains() {
    for (long long n = 0; n < total_micros(); ++n)
      for (int b : blocks_.own) {
        if (n > 0) raise(b, n, head_[b][n - 1] + placement_.blocks[b].span);
        for (int a : blocks_.own)
          if (blocks_.before(a, b)) raise(b, n, head_[a][n] + blocks_.distance[a][b]);
      }
  }

  // Copy n of b after copies k..n of its on-device ancestors and k..n-1 of
  // b, which start no earlier than the least of their heads (heads grow
  // with the micro-batch, so that is micro-batch k's). k goes back at most
  // kWorkReach micro-batches, so that a round stays linear in N (further
  // back the copies' own chain rule has long taken over). A size guard of a
  // bound also computed outside a search, not a knob.
  static constexpr long long kWorkReach = 64;
  void work() {
    for (int b : blocks_.own) {
      Time per_micro_before = 0;
      std::vector<int> group{b};
      for (int a : blocks_.own)
        if (blocks_.before(a, b)) per_micro_before += placement_.blocks[a].span, group.push_back(a);
      const Time span = placement_.blocks[b].span;
      for (long long n = 0; n < total_micros(); ++n)
        for (long long k = n; k >= 0 && n - k <= kWorkReach; --k) {
          Time least = head_[b][k];
          for (int a : group) least = std::min(least, head_[a][k]);
          raise(b, n, least + (n - k + 1) * per_micro_before + (n - k) * span);
        }
    }
  }

  // An allocating copy waits until the frees that may have started by then
  // bring what is surely allocated within the limit.
  void memory() {
    for (int a : blocks_.own) {
      if (placement_.blocks[a].memory <= 0) continue;
      for (long long n = 0; n < total_micros(); ++n) {
        const Memory need = allocated_by(a, n) - limit_;
        if (need <= 0) continue;
        std::vector<std::pair<Time, Memory>> frees = frees_before(a, n);
        std::sort(frees.begin(), frees.end());
        Memory freed = 0;
        for (const auto& [head, amount] : frees) {
          freed += amount;
          if (freed < need) continue;
          raise(a, n, head);
          break;
        }
      }
    }
  }

  // Allocations surely made once copy n of a has started: copies 0..n of a
  // and of every allocating on-device ancestor of a.
  Memory allocated_by(int a, long long n) const {
    Memory allocated = 0;
    for (int c : blocks_.own) {
      const Memory memory = placement_.blocks[c].memory;
      if (memory > 0 && (c == a || blocks_.before(c, a))) allocated += memory * (n + 1);
    }
    return allocated;
  }

  // (head, amount) of every freeing copy that may start no later than copy
  // n of a: not those of micro-batches n on that depend on a.
  std::vector<std::pair<Time, Memory>> frees_before(int a, long long n) const {
    std::vector<std::pair<Time, Memory>> frees;
    for (int f : blocks_.own) {
      const Memory memory = placement_.blocks[f].memory;
      if (memory >= 0) continue;
      const long long end = blocks_.before(a, f) ? n : total_micros();
      for (long long j = 0; j < end; ++j) frees.push_back({head_[f][j], -memory});
    }
    return frees;
  }

  const Placement& placement_;
  const KeptDevice& blocks_;
  const Memory limit_;
  std::vector<std::vector<Time>>& head_;
  bool moved_ = false;
};

}  // namespace

KeptDevice kept_device(const Placement& placement, int device) {
  KeptDevice kept;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (on_device(placement.blocks[b], device)) kept.own.push_back(static_cast<int>(b));
    kept.distance.push_back(start_distances_from(placement, static_cast<int>(b)));
  }
  return kept;
}

CopyWindows relaxed_windows(const Placement& placement, long long total_micros, int device, Memory limit) {
  CopyWindows windows = chain_windows(placement, total_micros);
  const KeptDevice blocks = kept_device(placement, device);
  if (blocks.own.empty() || total_micros <= 0) return windows;
  narrow_tails_by_work(placement, blocks, windows);
  // Every round raises a head by at least one step, and heads stay below
  // the chains' horizon; the cap only bounds the work on odd inputs.
  HeadRules rules(placement, blocks, limit, windows);
  for (int round = 0; round < 64 && rules.apply(); ++round) {
  }
  return windows;
}

}  // namespace tessel
