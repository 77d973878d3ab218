// PyTorch's action table for placements whose blocks carry their stage
// (chain, interleaved, v, stage graphs with branches): the cell of a block is
// its own stage and kind, so no stage has to be inferred from the order of
// the blocks. PyTorch runs each stage on one rank: a block on two ranks, or
// two ranks for one stage, is refused with the reason.
//
// The comms table lowers every edge between ranks the way PyTorch lowers a
// compute-only table (schedules.py, `_add_send_recv`): right after the
// compute that produces the data comes its stage's SEND (SEND_F after a
// forward, SEND_B after an input or full backward), and the receiver's
// RECV_F or RECV_B goes into the receiver's list at the moment the sender
// runs -- the last sender, when a stage has several remote producers (a
// branch joining), since one RECV action receives all of its inputs. PyTorch
// takes that moment from a simulation of the order; here the schedule's
// start times give it: actions are lowered in start order and a consumer
// starts after every producer finished, so each RECV comes after its SENDs
// and before the compute that needs it. Sends never wait (PyTorch posts them
// asynchronously), so the lowering order itself is a run of all ranks in
// which nothing waits: the table cannot deadlock.
#include <algorithm>
#include <map>
#include <sstream>

#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"

namespace tessel {

namespace {

std::string letter_of(const Block& block) {
  switch (block.kind) {
    case BlockKind::Forward: return "F";
    case BlockKind::Backward: return "B";
    case BlockKind::BackwardInput: return "I";
    case BlockKind::BackwardWeight: return "W";
    case BlockKind::Other: break;
  }
  throw InputError("", "placement", "block '" + block.id + "' of kind 'other' has no PyTorch action (F, B, I or W)");
}

// One rank per stage, one device per block: else PyTorch cannot run it.
void require_one_rank_per_stage(const Placement& placement) {
  std::map<int, int> rank_of;
  for (const Block& block : placement.blocks) {
    if (block.devices.size() != 1)
      throw InputError("", "placement", "block '" + block.id + "' runs on " + std::to_string(block.devices.size()) +
                                            " devices; a PyTorch stage lives on one rank");
    letter_of(block);
    auto [found, inserted] = rank_of.emplace(*block.stage, block.devices.front());
    if (!inserted && found->second != block.devices.front())
      throw InputError("", "placement", "stage " + std::to_string(*block.stage) + " has blocks on ranks " +
                                            std::to_string(found->second) + " and " +
                                            std::to_string(block.devices.front()) +
                                            "; a PyTorch stage lives on one rank");
  }
}

// The sends and receives of one placement. A PyTorch stage sends its
// forward output to every stage that consumes it and its input gradient to
// every stage that produced its input (a stage built from a traced graph
// knows its peers, so a branch or a skip is one more destination, not a
// different action). Here: which blocks send (their stage's SEND_F/SEND_B
// follows them) and, per block, how many remote producers must have sent
// before its RECV can be listed: one RECV_F or RECV_B action receives from
// all of them.
struct CommsPlan {
  std::vector<bool> sends;                  // per block
  std::vector<int> remote_inputs;           // per block: edges from other ranks
  std::vector<std::vector<int>> receivers;  // per block: its successors on other ranks
};

// Activations flow F -> F, gradients (I or B) -> (I or B); any other edge
// between ranks (a forward feeding another rank's backward, a weight
// gradient sending anything) has no PyTorch action to carry it.
bool lowerable(const Block& from, const Block& to) {
  bool forward = from.kind == BlockKind::Forward && to.kind == BlockKind::Forward;
  auto gradient = [](const Block& block) {
    return block.kind == BlockKind::Backward || block.kind == BlockKind::BackwardInput;
  };
  return forward || (gradient(from) && gradient(to));
}

CommsPlan plan_comms(const Placement& placement) {
  const size_t count = placement.blocks.size();
  CommsPlan comms{std::vector<bool>(count, false), std::vector<int>(count, 0), std::vector<std::vector<int>>(count)};
  for (const Edge& edge : placement.edges) {
    const Block& from = placement.blocks[edge.from];
    const Block& to = placement.blocks[edge.to];
    if (from.devices == to.devices) continue;
    if (!lowerable(from, to))
      throw InputError("", "placement", "edge " + from.id + " -> " + to.id + " crosses ranks from a " +
                                            kind_name(from.kind) + " block to a " + kind_name(to.kind) +
                                            " block; PyTorch sends only activations (F to F) and input gradients "
                                            "(B or I to B or I) between ranks (the compute-only table has no such "
                                            "limit)");
    comms.sends[edge.from] = true;
    ++comms.remote_inputs[edge.to];
    comms.receivers[edge.from].push_back(edge.to);
  }
  return comms;
}

std::vector<Instance> in_start_order(const Schedule& schedule) {
  std::vector<Instance> instances = schedule.instances;
  std::stable_sort(instances.begin(), instances.end(), [&](const Instance& a, const Instance& b) {
    if (a.start != b.start) return a.start < b.start;
    return schedule.placement.blocks[a.block].devices.front() < schedule.placement.blocks[b.block].devices.front();
  });
  return instances;
}

std::string cell(int stage, const std::string& action, int micro) {
  return std::to_string(stage) + action + std::to_string(micro);
}

}  // namespace

bool carries_stages(const Placement& placement) {
  std::map<std::pair<int, BlockKind>, int> seen;
  for (const Block& block : placement.blocks) {
    if (!block.stage) return false;
    if (++seen[{*block.stage, block.kind}] > 1) return false;
  }
  return !placement.blocks.empty();
}

std::map<Time, Time> start_columns(const Schedule& schedule) {
  std::map<Time, Time> columns;
  for (const Instance& instance : schedule.instances) columns[instance.start] = instance.start;
  const bool sparse = schedule.placement.time_decimals > 0 ||
                      makespan(schedule) > 8 * static_cast<Time>(schedule.instances.size());
  if (!sparse) return columns;
  Time next = 0;
  for (auto& [start, column] : columns) column = next++;
  return columns;
}

std::string write_pytorch_csv_staged(const Schedule& schedule, bool with_comms) {
  const Placement& placement = schedule.placement;
  // docs/formats.md, "Memory traded for time": PyTorch's action table has
  // no recompute or copy action, so such a schedule cannot be written as one.
  if (!schedule.recomputes.empty() || !schedule.transfers.empty())
    throw InputError("", schedule.recomputes.empty() ? "transfers" : "recomputes",
                     "PyTorch's pipelining table has no action for a recompute or a copy to host memory: draw "
                     "this schedule with `export --to svg`, or search the placement without the offers");
  const std::map<Time, Time> columns = start_columns(schedule);
  if (!schedule.fused.empty())
    throw InputError("", "fused", "a schedule with fused units is written by the compute-only writer");
  require_one_rank_per_stage(placement);
  CommsPlan comms = with_comms ? plan_comms(placement) : CommsPlan{};
  std::map<std::pair<int, int>, int> waiting;  // (block, micro) -> remote inputs not yet sent
  std::vector<std::vector<std::string>> rows(placement.ndevs);
  std::vector<std::map<Time, std::string>> cells(placement.ndevs);
  for (const Instance& instance : in_start_order(schedule)) {
    const Block& block = placement.blocks[instance.block];
    int rank = block.devices.front();
    std::string action = letter_of(block);
    if (!with_comms) {
      std::string& slot = cells[rank][columns.at(instance.start)];
      if (!slot.empty())
        throw InputError("", "instances", "two instances start at step " + std::to_string(instance.start) +
                                              " on rank " + std::to_string(rank));
      slot = cell(*block.stage, action, instance.micro);
      continue;
    }
    rows[rank].push_back(cell(*block.stage, action, instance.micro));
    if (!comms.sends[instance.block]) continue;
    rows[rank].push_back(cell(*block.stage, action == "F" ? "SEND_F" : "SEND_B", instance.micro));
    // The receive is listed once the last of its remote producers has sent.
    for (int receiver : comms.receivers[instance.block]) {
      auto left = waiting.emplace(std::make_pair(receiver, instance.micro), comms.remote_inputs[receiver]).first;
      if (--left->second > 0) continue;
      const Block& to = placement.blocks[receiver];
      rows[to.devices.front()].push_back(
          cell(*to.stage, to.kind == BlockKind::Forward ? "RECV_F" : "RECV_B", instance.micro));
    }
  }
  std::ostringstream out;
  for (int rank = 0; rank < placement.ndevs; ++rank) {
    if (with_comms) {
      for (size_t i = 0; i < rows[rank].size(); ++i) out << (i ? "," : "") << rows[rank][i];
    } else {
      Time width = cells[rank].empty() ? 0 : cells[rank].rbegin()->first + 1;
      for (Time column = 0; column < width; ++column) {
        if (column) out << ",";
        auto found = cells[rank].find(column);
        if (found != cells[rank].end()) out << found->second;
      }
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace tessel
