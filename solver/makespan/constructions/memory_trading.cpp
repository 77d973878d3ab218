// The memory-trading list scheduler (memory_trading.hpp). Every micro-batch
// has its blocks (nodes 0..B-1) and one recompute node per offering block
// (nodes B..B+R-1); node ids are micro * (B + R) + node. A recompute node
// only exists for a micro-batch whose forward chose it.
#include "solver/makespan/constructions/memory_trading.hpp"

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

using Key = std::array<long long, 3>;

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

struct Ready {
  Key key;
  long long id;
  bool operator<(const Ready& other) const { return std::tie(key, id) < std::tie(other.key, other.id); }
};

class Trading {
 public:
  Trading(const Placement& placement, const Graph& graph, const std::vector<Memory>& limits, int nmicros,
          const TradingRun& run, const Deadline& deadline)
      : placement_(placement), graph_(graph), limits_(limits), nmicros_(nmicros), run_(run), deadline_(deadline),
        nodes_(graph.blocks + static_cast<int>(graph.offering.size())),
        start_(static_cast<size_t>(nmicros) * nodes_, -1),
        ready_at_(start_.size(), 0),
        waiting_(start_.size(), 0),
        left_in_micro_(nmicros, graph.blocks),
        ready_(placement.ndevs),
        free_at_(placement.ndevs, 0),
        memory_(placement.ndevs, 0) {}

  std::optional<Schedule> run() {
    release_micro(0);
    remaining_ = static_cast<long long>(nmicros_) * graph_.blocks;
    Time now = 0;
    for (long long events = 0; remaining_ > 0; ++events) {
      if (events % 256 == 255 && deadline_.expired()) return std::nullopt;
      release_until(now);
      while (start_free_devices(now)) release_until(now);
      std::optional<Time> next = next_event(now);
      if (!next) return std::nullopt;  // stalled on memory or the cap
      now = *next;
    }
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

  // Backward-like work first under 1F1B; under zero bubble weights last.
  Key key_of(int node, int micro) const {
    const int block = is_recompute(node) ? placement_.blocks[block_of_node(node)].recompute->before : node;
    const BlockKind kind = placement_.blocks[block].kind;
    int cls = kind == BlockKind::Backward || kind == BlockKind::BackwardInput ? 0
              : kind == BlockKind::BackwardWeight                           ? (run_.backward_first ? 0 : 2)
                                                                            : 1;
    if (is_recompute(node)) cls = 0;
    return {cls, micro, -graph_.tail[block]};
  }

  void release_micro(int micro) {
    if (micro >= nmicros_) return;
    for (int block = 0; block < graph_.blocks; ++block) {
      const long long id = id_of(micro, block);
      waiting_[id] = graph_.predecessor_count[block];
      if (waiting_[id] == 0) pending_.push({0, id});
    }
  }

  void release_until(Time now) {
    while (!frees_.empty() && std::get<0>(frees_.top()) <= now) {
      memory_[std::get<1>(frees_.top())] -= std::get<2>(frees_.top());
      frees_.pop();
    }
    while (!pending_.empty() && pending_.top().first <= now) {
      const long long id = pending_.top().second;
      pending_.pop();
      Ready entry{key_of(node_of(id), micro_of(id)), id};
      for (int device : placement_.blocks[block_of_node(node_of(id))].devices) ready_[device].insert(entry);
    }
  }

  bool startable(long long id, Time now) const {
    const int node = node_of(id);
    const Block& block = placement_.blocks[block_of_node(node)];
    for (int device : block.devices)
      if (free_at_[device] > now || memory_[device] + memory_of(node) > limits_[device]) return false;
    return micro_of(id) < admitted_ || admitted_ - finished_micros_ < run_.cap;
  }

  bool start_free_devices(Time now) {
    bool any = false;
    for (int device = 0; device < placement_.ndevs; ++device) {
      if (free_at_[device] > now) continue;
      for (const Ready& entry : ready_[device]) {
        if (!startable(entry.id, now)) continue;
        start(entry.id, now);
        any = true;
        break;
      }
    }
    return any;
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

  void satisfy(long long id, Time ready) {
    ready_at_[id] = std::max(ready_at_[id], ready);
    if (--waiting_[id] == 0) pending_.push({ready_at_[id], id});
  }

  void start(long long id, Time now) {
    const int node = node_of(id), micro = micro_of(id);
    const int block = block_of_node(node);
    if (!is_recompute(node) && micro == admitted_) release_micro(++admitted_);
    const Time end = now + span_of(node);
    if (!is_recompute(node) && chooses_recompute(block)) choose_recompute(block, micro, end);
    Ready entry{key_of(node, micro), id};
    for (int device : placement_.blocks[block].devices) {
      ready_[device].erase(entry);
      free_at_[device] = end;
      memory_[device] += memory_of(node);
    }
    start_[id] = now;
    --remaining_;
    ends_.push(end);
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

  std::optional<Time> next_event(Time now) {
    while (!ends_.empty() && ends_.top() <= now) ends_.pop();
    std::optional<Time> next;
    if (!ends_.empty()) next = ends_.top();
    if (!pending_.empty() && (!next || pending_.top().first < *next)) next = std::max(now + 1, pending_.top().first);
    return next;
  }

  Schedule schedule() const {
    Schedule schedule = empty_schedule(placement_, limits_, nmicros_);
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
  int nmicros_;
  TradingRun run_;
  const Deadline& deadline_;
  int nodes_;
  std::vector<Time> start_;
  std::vector<Time> ready_at_;
  std::vector<int> waiting_;
  std::vector<int> left_in_micro_;
  std::vector<std::set<Ready>> ready_;
  std::vector<Time> free_at_;
  std::vector<Memory> memory_;
  std::set<long long> chosen_;
  using Event = std::pair<Time, long long>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> pending_;
  std::priority_queue<Time, std::vector<Time>, std::greater<Time>> ends_;
  using Free = std::tuple<Time, int, Memory>;  // when, device, how much
  std::priority_queue<Free, std::vector<Free>, std::greater<Free>> frees_;
  long long remaining_ = 0;
  int admitted_ = 0;
  int finished_micros_ = 0;
};

}  // namespace

std::optional<Schedule> trading_list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                              int nmicros, const TradingRun& run, const Deadline& deadline) {
  if (nmicros < 1 || placement.blocks.empty() || static_cast<int>(limits.size()) != placement.ndevs || run.cap < 1)
    return std::nullopt;
  const Graph graph = graph_of(placement);
  return Trading(placement, graph, limits, nmicros, run, deadline).run();
}

std::optional<TradingBest> best_trading_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                                 int nmicros, const Deadline& deadline) {
  if (nmicros < 1 || static_cast<int>(limits.size()) != placement.ndevs || !offers_memory_choice(placement))
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
        const TradingRun run{backward_first, std::min(cap, nmicros), pressure};
        std::optional<Schedule> schedule = Trading(placement, graph, limits, nmicros, run, deadline).run();
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
