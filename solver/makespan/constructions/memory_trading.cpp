// The memory-trading list scheduler (memory_trading.hpp). Every micro-batch
// has its blocks (nodes 0..B-1) and one recompute node per offering block
// (nodes B..B+R-1); node ids are micro * (B + R) + node. A recompute node
// only exists for a micro-batch whose forward chose it. The event loop is
// the one list scheduling runs (list_engine.hpp).
#include "solver/makespan/constructions/memory_trading.hpp"

#include "solver/makespan/constructions/list_engine.hpp"

#include <algorithm>
#include <array>
#include <queue>
#include <set>
#include <tuple>

namespace tessel {

bool offers_memory_choice(const Placement& placement) {
  for (const Block& block : placement.blocks)
    if (block.recompute || block.offload) return true;
  return false;
}

namespace {

// What the simulation needs of the placement, computed once per portfolio.
struct Graph {
  int blocks = 0;
  std::vector<int> offering;                   // recompute node r -> its forward block
  std::vector<int> recompute_of;               // block -> its recompute node index r, or -1
  std::vector<std::vector<std::pair<int, Time>>> successors;  // of blocks: (block, delay)
  std::vector<int> predecessor_count;
  std::vector<std::vector<int>> recompute_inputs;  // r -> the forward and the other predecessors of `before`
  std::vector<std::vector<int>> feeds;             // block -> the r whose inputs include it
  std::vector<Time> tail;
};

Graph graph_of(const Placement& placement) {
  Graph graph;
  graph.blocks = static_cast<int>(placement.blocks.size());
  graph.successors.resize(graph.blocks);
  graph.predecessor_count.assign(graph.blocks, 0);
  graph.recompute_of.assign(graph.blocks, -1);
  graph.feeds.resize(graph.blocks);
  std::vector<std::vector<int>> preds = predecessors(placement);
  for (const Edge& edge : placement.edges) {
    graph.successors[edge.from].push_back({edge.to, edge.delay});
    ++graph.predecessor_count[edge.to];
  }
  for (int b = 0; b < graph.blocks; ++b) {
    if (!placement.blocks[b].recompute) continue;
    const int r = static_cast<int>(graph.offering.size());
    graph.recompute_of[b] = r;
    graph.offering.push_back(b);
    std::vector<int> inputs = preds[placement.blocks[b].recompute->before];
    inputs.push_back(b);
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (int input : inputs) graph.feeds[input].push_back(r);
    graph.recompute_inputs.push_back(std::move(inputs));
  }
  graph.tail = chain_tails(placement);
  return graph;
}

// One run: the shared event loop (list_engine.hpp) with recompute nodes,
// memory freed when a recomputing forward ends, and the in-flight cap.
class Trading : public ListEngine {
 public:
  Trading(const Placement& placement, const Graph& graph, const std::vector<Memory>& limits, int total_micros,
          const TradingRun& run, const Deadline& deadline)
      : ListEngine(placement.ndevs,
                   static_cast<size_t>(total_micros) * (graph.blocks + static_cast<int>(graph.offering.size())), deadline),
        placement_(placement), graph_(graph), limits_(limits), total_micros_(total_micros), run_(run),
        nodes_(graph.blocks + static_cast<int>(graph.offering.size())),
        left_in_micro_(total_micros, graph.blocks),
        memory_(placement.ndevs, 0) {}

  std::optional<Schedule> run() {
    remaining_ = static_cast<long long>(total_micros_) * graph_.blocks;
    release_micro(0);
    if (!run_events()) return std::nullopt;
    return schedule();
  }

 private:
  int node_of(long long id) const { return static_cast<int>(id % nodes_); }
  int micro_of(long long id) const { return static_cast<int>(id / nodes_); }
  long long id_of(int micro, int node) const { return static_cast<long long>(micro) * nodes_ + node; }
  int block_of_node(int node) const { return node < graph_.blocks ? node : graph_.offering[node - graph_.blocks]; }
  bool is_recompute(int node) const { return node >= graph_.blocks; }
  Time span_of(int node) const {
    const Block& block = placement_.blocks[block_of_node(node)];
    return is_recompute(node) ? block.recompute->span : block.span;
  }
  Memory memory_of(int node) const {
    const Block& block = placement_.blocks[block_of_node(node)];
    return is_recompute(node) ? block.memory - block.recompute->checkpoint_memory : block.memory;
  }
  const std::vector<int>& devices(long long id) const override {
    return placement_.blocks[block_of_node(node_of(id))].devices;
  }

  // Backward-like work first under 1F1B; under zero bubble weights last.
  ListKey key(long long id) const override {
    const int node = node_of(id), micro = micro_of(id);
    const int block = is_recompute(node) ? placement_.blocks[block_of_node(node)].recompute->before : node;
    const BlockKind kind = placement_.blocks[block].kind;
    int cls = kind == BlockKind::Backward || kind == BlockKind::BackwardInput ? 0
              : kind == BlockKind::BackwardWeight                           ? (run_.backward_first ? 0 : 2)
                                                                            : 1;
    if (is_recompute(node)) cls = 0;
    return {cls, micro, -graph_.tail[block]};
  }

  void release_micro(int micro) {
    if (micro >= total_micros_) return;
    for (int block = 0; block < graph_.blocks; ++block) expect(id_of(micro, block), graph_.predecessor_count[block]);
  }

  void settle(Time now) override {
    while (!frees_.empty() && std::get<0>(frees_.top()) <= now) {
      memory_[std::get<1>(frees_.top())] -= std::get<2>(frees_.top());
      frees_.pop();
    }
  }

  bool accepts(long long id, Time) override {
    const int node = node_of(id);
    for (int device : devices(id))
      if (memory_[device] + memory_of(node) > limits_[device]) return false;
    return micro_of(id) < admitted_ || admitted_ - finished_micros_ < run_.cap;
  }

  // Whether the forward `block` of `micro`, starting now, recomputes.
  bool chooses_recompute(int block) const {
    const Block& info = placement_.blocks[block];
    if (!info.recompute) return false;
    for (int device : info.devices)
      if (static_cast<double>(memory_[device] + info.memory) > run_.pressure * static_cast<double>(limits_[device]))
        return true;
    return false;
  }

  // The recompute node of `block` for `micro` exists from now on: it waits
  // for its inputs not yet started; `before` waits for it.
  void choose_recompute(int block, int micro, Time end) {
    const int r = graph_.recompute_of[block];
    const long long id = id_of(micro, graph_.blocks + r);
    const RecomputeOffer& offer = *placement_.blocks[block].recompute;
    ++waiting_[id_of(micro, offer.before)];
    waiting_[id] = 0;
    for (int input : graph_.recompute_inputs[r]) {
      const long long input_id = id_of(micro, input);
      if (input == block || start_[input_id] < 0) ++waiting_[id];
      else ready_at_[id] = std::max(ready_at_[id], start_[input_id] + placement_.blocks[input].span);
    }
    chosen_.insert(id);
    ++remaining_;
    for (int device : placement_.blocks[block].devices)
      frees_.push({end, device, placement_.blocks[block].memory - offer.checkpoint_memory});
  }

  void start(long long id, Time now) override {
    const int node = node_of(id), micro = micro_of(id);
    const int block = block_of_node(node);
    if (!is_recompute(node) && micro == admitted_) release_micro(++admitted_);
    const Time end = now + span_of(node);
    if (!is_recompute(node) && chooses_recompute(block)) choose_recompute(block, micro, end);
    occupy(id, now, end);
    for (int device : placement_.blocks[block].devices) memory_[device] += memory_of(node);
    if (is_recompute(node)) {
      satisfy(id_of(micro, placement_.blocks[block].recompute->before), end);
      return;
    }
    if (--left_in_micro_[micro] == 0) ++finished_micros_;
    for (auto [next, delay] : graph_.successors[block]) satisfy(id_of(micro, next), end + delay);
    for (int r : graph_.feeds[block]) {
      const long long recompute = id_of(micro, graph_.blocks + r);
      if (chosen_.count(recompute)) satisfy(recompute, end);
    }
  }

  Schedule schedule() const {
    Schedule schedule = empty_schedule(placement_, limits_, total_micros_);
    for (long long id = 0; id < static_cast<long long>(start_.size()); ++id) {
      if (start_[id] < 0) continue;
      const int node = node_of(id);
      if (is_recompute(node)) schedule.recomputes.push_back({block_of_node(node), micro_of(id), start_[id]});
      else schedule.instances.push_back({node, micro_of(id), start_[id]});
    }
    return schedule;
  }

  const Placement& placement_;
  const Graph& graph_;
  const std::vector<Memory>& limits_;
  int total_micros_;
  TradingRun run_;
  int nodes_;
  std::vector<int> left_in_micro_;
  std::vector<Memory> memory_;
  std::set<long long> chosen_;
  using Free = std::tuple<Time, int, Memory>;  // when, device, how much
  std::priority_queue<Free, std::vector<Free>, std::greater<Free>> frees_;
  int admitted_ = 0;
  int finished_micros_ = 0;
};

}  // namespace

std::optional<Schedule> trading_list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                              int total_micros, const TradingRun& run, const Deadline& deadline) {
  if (total_micros < 1 || placement.blocks.empty() || static_cast<int>(limits.size()) != placement.ndevs || run.cap < 1)
    return std::nullopt;
  const Graph graph = graph_of(placement);
  return Trading(placement, graph, limits, total_micros, run, deadline).run();
}

std::optional<TradingBest> best_trading_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                                 int total_micros, const Deadline& deadline) {
  if (total_micros < 1 || static_cast<int>(limits.size()) != placement.ndevs || !offers_memory_choice(placement))
    return std::nullopt;
  const Graph graph = graph_of(placement);
  const int devices = std::max(1, placement.ndevs);
  std::vector<int> caps = {devices, devices + devices / 2, 2 * devices, 3 * devices};
  std::optional<TradingBest> best;
  int runs = 0;
  for (double pressure : {0.6, 0.8, 0.95})
    for (bool backward_first : {false, true})
      for (int cap : caps) {
        if (deadline.expired()) break;
        const TradingRun run{backward_first, std::min(cap, total_micros), pressure};
        std::optional<Schedule> schedule = Trading(placement, graph, limits, total_micros, run, deadline).run();
        if (!schedule) continue;
        ++runs;
        if (best && makespan(*schedule) >= makespan(best->schedule)) continue;
        best = TradingBest{run, std::move(*schedule), 0};
      }
  if (best) best->runs = runs;
  return best;
}

ChoiceCounts count_choices(const Schedule& schedule) {
  ChoiceCounts counts;
  counts.recomputed.assign(schedule.placement.blocks.size(), 0);
  counts.offloaded.assign(schedule.placement.blocks.size(), 0);
  for (const RecomputeRun& run : schedule.recomputes) {
    ++counts.recomputed[run.block];
    counts.recompute_time += schedule.placement.blocks[run.block].recompute->span;
  }
  for (const Transfer& copy : schedule.transfers)
    if (copy.direction == TransferDirection::Out) ++counts.offloaded[copy.block];
  return counts;
}

std::string choices_summary(const Schedule& schedule) {
  const ChoiceCounts counts = count_choices(schedule);
  const std::vector<Block>& blocks = schedule.placement.blocks;
  std::string recomputed, offloaded;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (counts.recomputed[b]) recomputed += (recomputed.empty() ? "" : ", ") + blocks[b].id + " x" + std::to_string(counts.recomputed[b]);
    if (counts.offloaded[b]) offloaded += (offloaded.empty() ? "" : ", ") + blocks[b].id + " x" + std::to_string(counts.offloaded[b]);
  }
  std::string text = recomputed.empty() ? "recomputes nothing"
                                        : "recomputes " + recomputed + " (" +
                                              format_ticks(counts.recompute_time, schedule.placement.time_decimals) +
                                              " of device time)";
  if (!offloaded.empty()) text += "; offloads " + offloaded;
  return text;
}

}  // namespace tessel
