// The list-scheduling simulator and its portfolio of rules and caps.
// Instances are numbered micro * blocks + block. A priority rule maps an
// instance to a key (smaller first); the event loop, shared with the
// memory-trading scheduler, is list_engine.hpp.
#include "solver/makespan/constructions/list_scheduling.hpp"

#include "solver/makespan/constructions/list_engine.hpp"

#include <algorithm>
#include <array>
#include <queue>
#include <set>
#include <tuple>

namespace tessel {

const char* list_rule_name(ListRule rule) {
  switch (rule) {
    case ListRule::OneFOneB: return "1f1b";
    case ListRule::ZeroBubble: return "zb";
    case ListRule::ZeroBubbleDepth: return "zb depth-first";
    case ListRule::Interleaved: return "interleaved";
    case ListRule::DueDate: return "due date";
    case ListRule::CriticalPath: return "critical path";
    case ListRule::GPipe: return "gpipe";
  }
  return "zb";
}

const std::vector<ListRule>& list_rules() {
  // The rules that win most often on the hand-made families' placements
  // first: a time budget may stop the portfolio early.
  static const std::vector<ListRule> rules = {ListRule::ZeroBubble,  ListRule::OneFOneB,        ListRule::GPipe,
                                              ListRule::Interleaved, ListRule::ZeroBubbleDepth, ListRule::DueDate,
                                              ListRule::CriticalPath};
  return rules;
}

namespace {

using Key = ListKey;

// What the rules and the simulation need of every block, computed once.
struct Facts {
  int ndevs = 0;
  int nblocks = 0;
  Time period = 1;                     // L, the busiest device's load
  std::vector<Time> earliest;          // start when one micro-batch runs alone
  std::vector<Time> tail;              // from the start to the end of its micro-batch
  std::vector<std::vector<std::pair<int, Time>>> successors;  // (block, delay)
  std::vector<int> predecessor_count;
  std::vector<Memory> allocated;       // per device: positive memory of one micro-batch
};

Facts facts_of(const Placement& placement) {
  Facts facts;
  facts.ndevs = placement.ndevs;
  facts.nblocks = static_cast<int>(placement.blocks.size());
  facts.period = std::max<Time>(1, period_lower_bound(placement));
  facts.earliest = earliest_starts(placement);
  facts.successors.resize(facts.nblocks);
  facts.predecessor_count.assign(facts.nblocks, 0);
  for (const Edge& edge : placement.edges) {
    facts.successors[edge.from].push_back({edge.to, edge.delay});
    ++facts.predecessor_count[edge.to];
  }
  facts.tail = chain_tails(placement);
  facts.allocated.assign(facts.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) facts.allocated[device] += std::max<Memory>(0, block.memory);
  return facts;
}

// 0 for what frees activations on the critical path (backward, input
// backward), 1 for forwards and other blocks, 2 for weight backwards.
int kind_class(BlockKind kind) {
  switch (kind) {
    case BlockKind::Backward:
    case BlockKind::BackwardInput: return 0;
    case BlockKind::Forward:
    case BlockKind::Other: return 1;
    case BlockKind::BackwardWeight: return 2;
  }
  return 1;
}

Key key_of(ListRule rule, const Placement& placement, const Facts& facts, int block, int micro) {
  const int cls = kind_class(placement.blocks[block].kind);
  const bool backward = cls != 1;
  const long long earliest = facts.earliest[block], tail = facts.tail[block];
  switch (rule) {
    case ListRule::OneFOneB: return {backward ? 0 : 1, micro, -tail};
    case ListRule::ZeroBubble: return {cls, micro, -tail};
    case ListRule::ZeroBubbleDepth: return {cls, -earliest, micro};
    case ListRule::Interleaved: return {backward ? 0 : 1, micro / std::max(1, facts.ndevs), earliest * 1024 + micro % 1024};
    case ListRule::DueDate: return {micro * facts.period + earliest, cls, micro};
    case ListRule::CriticalPath: return {micro * facts.period - tail, cls, micro};
    case ListRule::GPipe: return {backward ? 1 : 0, micro, -tail};
  }
  return {cls, micro, -tail};
}

// One run of the simulation: the shared event loop (list_engine.hpp) with
// this rule's keys, the memory limits and the in-flight cap.
class Simulation : public ListEngine {
 public:
  Simulation(const Placement& placement, const Facts& facts, const std::vector<Memory>& limits, int total_micros,
             const ListRun& run, const Deadline& deadline)
      : ListEngine(facts.ndevs, static_cast<size_t>(total_micros) * facts.nblocks, deadline),
        placement_(placement), facts_(facts), limits_(limits), total_micros_(total_micros), run_(run),
        left_in_micro_(total_micros, facts.nblocks), memory_(facts.ndevs, 0), reserved_(facts.ndevs, 0) {}

  std::optional<std::vector<Instance>> run() {
    for (int device = 0; device < facts_.ndevs; ++device)
      if (run_.guarded && facts_.allocated[device] > limits_[device]) return std::nullopt;
    remaining_ = static_cast<long long>(start_.size());
    release_micro(0);
    if (!run_events()) return std::nullopt;
    std::vector<Instance> instances;
    instances.reserve(start_.size());
    for (size_t id = 0; id < start_.size(); ++id)
      instances.push_back({static_cast<int>(id % facts_.nblocks), static_cast<int>(id / facts_.nblocks), start_[id]});
    return instances;
  }

 private:
  int block_of(long long id) const { return static_cast<int>(id % facts_.nblocks); }
  int micro_of(long long id) const { return static_cast<int>(id / facts_.nblocks); }

  ListKey key(long long id) const override { return key_of(run_.rule, placement_, facts_, block_of(id), micro_of(id)); }
  const std::vector<int>& devices(long long id) const override { return placement_.blocks[block_of(id)].devices; }

  // Every block of the micro-batch waits for its predecessors from now on.
  void release_micro(int micro) {
    if (micro >= total_micros_) return;
    for (int block = 0; block < facts_.nblocks; ++block)
      expect(static_cast<long long>(micro) * facts_.nblocks + block, facts_.predecessor_count[block]);
  }

  // Whether the next micro-batch may start; it changes only when something
  // starts, so the answer is kept until then.
  bool admissible(int micro) {
    if (micro < admitted_) return true;
    const long long started = static_cast<long long>(start_.size()) - remaining_;
    if (admission_checked_at_ == started) return admission_;
    admission_checked_at_ = started;
    admission_ = admitted_ - finished_micros_ < run_.cap;
    if (!admission_ || !run_.guarded) return admission_;
    for (int device = 0; device < facts_.ndevs; ++device)
      if (memory_[device] + reserved_[device] + facts_.allocated[device] > limits_[device]) admission_ = false;
    return admission_;
  }

  bool accepts(long long id, Time) override {
    const Block& block = placement_.blocks[block_of(id)];
    for (int device : block.devices)
      if (memory_[device] + block.memory > limits_[device]) return false;
    return admissible(micro_of(id));
  }

  void start(long long id, Time now) override {
    const int block = block_of(id), micro = micro_of(id);
    const Block& info = placement_.blocks[block];
    if (micro == admitted_) {
      ++admitted_;
      for (int device = 0; device < facts_.ndevs; ++device) reserved_[device] += facts_.allocated[device];
      release_micro(admitted_);
    }
    const Time end = now + info.span;
    occupy(id, now, end);
    for (int device : info.devices) {
      memory_[device] += info.memory;
      reserved_[device] -= std::max<Memory>(0, info.memory);
    }
    // A micro-batch counts as finished for the cap once its last block has
    // started: its memory is then settled.
    if (--left_in_micro_[micro] == 0) ++finished_micros_;
    for (auto [next, delay] : facts_.successors[block])
      satisfy(static_cast<long long>(micro) * facts_.nblocks + next, end + delay);
  }

  const Placement& placement_;
  const Facts& facts_;
  const std::vector<Memory>& limits_;
  int total_micros_;
  ListRun run_;
  long long admission_checked_at_ = -1;
  bool admission_ = false;
  std::vector<int> left_in_micro_;
  std::vector<Memory> memory_;
  std::vector<Memory> reserved_;
  int admitted_ = 0;
  int finished_micros_ = 0;
};

}  // namespace

std::optional<std::vector<Instance>> list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                                   int total_micros, const ListRun& run, const Deadline& deadline) {
  if (total_micros < 1 || placement.blocks.empty() || static_cast<int>(limits.size()) != placement.ndevs)
    return std::nullopt;
  Facts facts = facts_of(placement);
  return Simulation(placement, facts, limits, total_micros, run, deadline).run();
}

std::vector<ListRun> list_portfolio(const Placement& placement, int total_micros) {
  const int devices = std::max(1, placement.ndevs);
  std::vector<int> caps = {(devices + 1) / 2, devices, devices + devices / 2, 2 * devices, 3 * devices, total_micros};
  std::sort(caps.begin(), caps.end());
  caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
  std::vector<ListRun> runs;
  for (ListRule rule : list_rules()) {
    for (int cap : caps)
      if (cap <= total_micros) runs.push_back({rule, cap, true});
    runs.push_back({rule, total_micros, false});
  }
  return runs;
}

std::optional<ListBest> best_list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                           int total_micros, const Deadline& deadline) {
  if (total_micros < 1 || placement.blocks.empty() || static_cast<int>(limits.size()) != placement.ndevs)
    return std::nullopt;
  Facts facts = facts_of(placement);
  std::optional<ListBest> best;
  Time best_makespan = 0;
  int runs = 0;
  for (const ListRun& run : list_portfolio(placement, total_micros)) {
    if (deadline.expired()) break;
    std::optional<std::vector<Instance>> instances =
        Simulation(placement, facts, limits, total_micros, run, deadline).run();
    if (!instances) continue;
    ++runs;
    Time length = 0;
    for (const Instance& instance : *instances)
      length = std::max(length, instance.start + placement.blocks[instance.block].span);
    if (best && length >= best_makespan) continue;
    best_makespan = length;
    Schedule schedule = empty_schedule(placement, limits, total_micros);
    schedule.instances = std::move(*instances);
    best = ListBest{run, std::move(schedule), 0};
  }
  if (best) best->runs = runs;
  return best;
}

}  // namespace tessel
