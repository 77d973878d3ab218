// The memory-trading list scheduler (memory_trading.hpp). Every micro-batch
// has its blocks (nodes 0..B-1) and one recompute node per offering block
// (nodes B..B+R-1) and a copy out and a copy in per block offering offload
// (nodes B+R+2o, B+R+2o+1); node ids are micro * nodes + node. A recompute
// or copy node only exists for a micro-batch whose forward chose it. The
// event loop is the one list scheduling runs (list_engine.hpp); each
// device's copy channel is one more "device" of it (index ndevs + d), so
// copies queue on the channel as compute queues on the device.
#include "solver/makespan/constructions/memory_trading.hpp"

#include "solver/makespan/constructions/list_engine.hpp"

#include <algorithm>
#include <array>
#include <queue>
#include <set>
#include <tuple>

namespace tessel {

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
  std::vector<int> offloading;                     // offload index o -> its forward block
  std::vector<int> offload_of;                     // block -> o, or -1
  std::vector<std::vector<int>> copy_in_inputs;    // o -> the other predecessors of `before`
  std::vector<std::vector<int>> feeds_copy_in;     // block -> the o whose copy in waits for it
  std::vector<std::vector<int>> channels;          // o -> the engine's channel indices (ndevs + d)
  std::vector<Time> tail;
};

// The copy nodes: a copy in waits for the copy out and for the other
// predecessors of the block that needs the activation back.
void add_offloads(Graph& graph, const Placement& placement, const std::vector<std::vector<int>>& preds) {
  graph.offload_of.assign(graph.blocks, -1);
  graph.feeds_copy_in.resize(graph.blocks);
  for (int b = 0; b < graph.blocks; ++b) {
    if (!placement.blocks[b].offload) continue;
    const int o = static_cast<int>(graph.offloading.size());
    graph.offload_of[b] = o;
    graph.offloading.push_back(b);
    std::vector<int> inputs = preds[placement.blocks[b].offload->before];
    inputs.erase(std::remove(inputs.begin(), inputs.end(), b), inputs.end());
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (int input : inputs) graph.feeds_copy_in[input].push_back(o);
    graph.copy_in_inputs.push_back(std::move(inputs));
    std::vector<int> channels;
    for (int device : placement.blocks[b].devices) channels.push_back(placement.ndevs + device);
    graph.channels.push_back(std::move(channels));
  }
}

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
  add_offloads(graph, placement, preds);
  graph.tail = chain_tails(placement);
  return graph;
}

// One run: the shared event loop (list_engine.hpp) with recompute nodes,
// memory freed when a recomputing forward ends, and the in-flight cap.
class Trading : public ListEngine {
 public:
  Trading(const Placement& placement, const Graph& graph, const std::vector<Memory>& limits, int total_micros,
          const TradingRun& run, const Deadline& deadline)
      : ListEngine(2 * placement.ndevs, static_cast<size_t>(total_micros) * node_count(graph), deadline),
        placement_(placement), graph_(graph), limits_(limits), total_micros_(total_micros), run_(run),
        nodes_(node_count(graph)), first_copy_(graph.blocks + static_cast<int>(graph.offering.size())),
        left_in_micro_(total_micros, graph.blocks),
        memory_(placement.ndevs, 0), copies_out_until_(placement.ndevs, 0) {}

  std::optional<Schedule> run() {
    remaining_ = static_cast<long long>(total_micros_) * graph_.blocks;
    release_micro(0);
    if (!run_events()) return std::nullopt;
    return schedule();
  }

 private:
  static int node_count(const Graph& graph) {
    return graph.blocks + static_cast<int>(graph.offering.size() + 2 * graph.offloading.size());
  }
  int node_of(long long id) const { return static_cast<int>(id % nodes_); }
  int micro_of(long long id) const { return static_cast<int>(id / nodes_); }
  long long id_of(int micro, int node) const { return static_cast<long long>(micro) * nodes_ + node; }
  bool is_copy(int node) const { return node >= first_copy_; }
  bool is_copy_in(int node) const { return is_copy(node) && (node - first_copy_) % 2 == 1; }
  int offload_index(int node) const { return (node - first_copy_) / 2; }
  int block_of_node(int node) const {
    if (node < graph_.blocks) return node;
    return is_copy(node) ? graph_.offloading[offload_index(node)] : graph_.offering[node - graph_.blocks];
  }
  bool is_recompute(int node) const { return node >= graph_.blocks && !is_copy(node); }
  Time span_of(int node) const {
    const Block& block = placement_.blocks[block_of_node(node)];
    if (is_copy(node)) return is_copy_in(node) ? block.offload->in : block.offload->out;
    return is_recompute(node) ? block.recompute->span : block.span;
  }
  // What the node allocates at its start (a copy out allocates nothing; the
  // memory it frees at its end is queued when the forward chooses it).
  Memory memory_of(int node) const {
    const Block& block = placement_.blocks[block_of_node(node)];
    if (is_copy(node)) return is_copy_in(node) ? block.memory : 0;
    return is_recompute(node) ? block.memory - block.recompute->checkpoint_memory : block.memory;
  }
  const std::vector<int>& devices(long long id) const override {
    const int node = node_of(id);
    if (is_copy(node)) return graph_.channels[offload_index(node)];
    return placement_.blocks[block_of_node(node)].devices;
  }
  int before_of(int node) const {
    const Block& block = placement_.blocks[block_of_node(node)];
    if (node < graph_.blocks) return node;
    return is_copy(node) ? block.offload->before : block.recompute->before;
  }

  // Backward-like work first under 1F1B; under zero bubble weights last.
  ListKey key(long long id) const override {
    const int node = node_of(id), micro = micro_of(id);
    const int block = before_of(node);
    const BlockKind kind = placement_.blocks[block].kind;
    int cls = kind == BlockKind::Backward || kind == BlockKind::BackwardInput ? 0
              : kind == BlockKind::BackwardWeight                           ? (run_.backward_first ? 0 : 2)
                                                                            : 1;
    if (node >= graph_.blocks) cls = 0;
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
    for (int device : placement_.blocks[block_of_node(node)].devices)
      if (memory_[device] + memory_of(node) > limits_[device]) return false;
    return micro_of(id) < admitted_ || admitted_ - finished_micros_ < run_.cap;
  }

  enum class Choice { Keep, Recompute, Offload };

  // What the forward `block`, starting now and ending at `end`, does with
  // its activation: keep it below the pressure; above it offload when the
  // copy out can start as the forward ends (the channel costs no device
  // time), else recompute, else offload all the same.
  Choice choose(int block, Time end) const {
    const Block& info = placement_.blocks[block];
    if (!info.recompute && !info.offload) return Choice::Keep;
    bool pressed = false;
    for (int device : info.devices)
      pressed = pressed || static_cast<double>(memory_[device] + info.memory) >
                               run_.pressure * static_cast<double>(limits_[device]);
    if (!pressed) return Choice::Keep;
    if (!info.offload) return Choice::Recompute;
    bool channel_free = true;
    for (int device : info.devices) channel_free = channel_free && copies_out_until_[device] <= end;
    return channel_free || !info.recompute ? Choice::Offload : Choice::Recompute;
  }

  // The copies of `block` for `micro`: the copy out is ready when the
  // forward ends and frees the memory at its own end; the copy in waits for
  // it and for the other inputs of `before`, timed to end as the last of
  // them does; `before` waits for the copy in.
  void choose_offload(int block, int micro, Time end) {
    const int o = graph_.offload_of[block];
    const OffloadOffer& offer = *placement_.blocks[block].offload;
    const long long out = id_of(micro, first_copy_ + 2 * o), in = out + 1;
    ++waiting_[id_of(micro, offer.before)];
    ready_at_[out] = end;
    expect(out, 0);
    waiting_[in] = 1;
    for (int input : graph_.copy_in_inputs[o]) {
      const long long input_id = id_of(micro, input);
      if (start_[input_id] < 0) ++waiting_[in];
      else ready_at_[in] = std::max(ready_at_[in], start_[input_id] + placement_.blocks[input].span - offer.in);
    }
    chosen_.insert(in);
    remaining_ += 2;
    for (int device : placement_.blocks[block].devices)
      copies_out_until_[device] = std::max(copies_out_until_[device], end) + offer.out;
  }

  // A copy starts on its channel: the copy out frees the activation at its
  // end; the copy in allocates it now and lets `before` start at its end.
  void start_copy(long long id, Time now) {
    const int node = node_of(id), micro = micro_of(id), block = block_of_node(node);
    const Time end = now + span_of(node);
    occupy(id, now, end);
    if (!is_copy_in(node)) {
      for (int device : placement_.blocks[block].devices) frees_.push({end, device, placement_.blocks[block].memory});
      satisfy(id + 1, end);
      return;
    }
    for (int device : placement_.blocks[block].devices) memory_[device] += memory_of(node);
    satisfy(id_of(micro, placement_.blocks[block].offload->before), end);
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
    if (is_copy(node)) return start_copy(id, now);
    if (!is_recompute(node) && micro == admitted_) release_micro(++admitted_);
    const Time end = now + span_of(node);
    if (!is_recompute(node)) {
      const Choice choice = choose(block, end);
      if (choice == Choice::Recompute) choose_recompute(block, micro, end);
      if (choice == Choice::Offload) choose_offload(block, micro, end);
    }
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
    for (int o : graph_.feeds_copy_in[block]) {
      const long long in = id_of(micro, first_copy_ + 2 * o + 1);
      if (chosen_.count(in)) satisfy(in, end - placement_.blocks[graph_.offloading[o]].offload->in);
    }
  }

  Schedule schedule() const {
    Schedule schedule = empty_schedule(placement_, limits_, total_micros_);
    for (long long id = 0; id < static_cast<long long>(start_.size()); ++id) {
      if (start_[id] < 0) continue;
      const int node = node_of(id);
      if (is_copy(node))
        schedule.transfers.push_back({block_of_node(node), micro_of(id),
                                      is_copy_in(node) ? TransferDirection::In : TransferDirection::Out, start_[id]});
      else if (is_recompute(node)) schedule.recomputes.push_back({block_of_node(node), micro_of(id), start_[id]});
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
  int first_copy_;  // the first copy node
  std::vector<int> left_in_micro_;
  std::vector<Memory> memory_;
  std::vector<Time> copies_out_until_;  // per device: when the chosen copies out would be done
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

std::string choices_summary(const Schedule& schedule, const std::function<std::string(Time)>& time_text) {
  const ChoiceCounts counts = count_choices(schedule);
  const std::vector<Block>& blocks = schedule.placement.blocks;
  std::string recomputed, offloaded;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (counts.recomputed[b]) recomputed += (recomputed.empty() ? "" : ", ") + blocks[b].id + " x" + std::to_string(counts.recomputed[b]);
    if (counts.offloaded[b]) offloaded += (offloaded.empty() ? "" : ", ") + blocks[b].id + " x" + std::to_string(counts.offloaded[b]);
  }
  std::string text = recomputed.empty() ? "recomputes nothing"
                                        : "recomputes " + recomputed + " (" +
                                              (time_text ? time_text(counts.recompute_time)
                                                         : format_ticks(counts.recompute_time,
                                                                        schedule.placement.time_decimals)) +
                                              " of device time)";
  if (!offloaded.empty()) text += "; offloads " + offloaded;
  return text;
}

}  // namespace tessel
