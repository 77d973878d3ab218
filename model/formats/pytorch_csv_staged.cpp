// PyTorch's action table for placements whose blocks carry their stage
// (chain, interleaved, v, stage graphs with branches): the cell of a block is
// its own stage and kind, so no stage has to be inferred from the order of
// the blocks. PyTorch runs each stage on one rank: a block on two ranks, or
// two ranks for one stage, is refused with the reason.
//
// The comms table follows the lowering PyTorch applies to a compute-only
// table (schedules.py, `_add_send_recv`): after a forward whose next stage
// lives on another rank comes SEND_F, after an input (or full) backward whose
// previous stage lives elsewhere SEND_B, and the matching RECV goes into the
// receiver's list at the moment the sender runs. PyTorch takes that moment
// from a simulation of the order; here the schedule's start times give it:
// actions are lowered in start order, and a consumer starts after its
// producer finished, so every RECV comes before the compute that needs it
// and after its SEND in time; sends never wait (PyTorch posts them
// asynchronously), so no rank can wait on a rank that waits on it.
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

// Rank of every stage; refuses what PyTorch cannot express.
std::map<int, int> stage_ranks(const Placement& placement) {
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
  return rank_of;
}

// PyTorch's runtime sends a forward's output to the next stage and a
// backward's to the previous one, nothing else: an edge that crosses ranks
// between other stages (a branch, a skip) has no send/recv to lower to.
void require_consecutive(const Placement& placement) {
  for (const Edge& edge : placement.edges) {
    const Block& from = placement.blocks[edge.from];
    const Block& to = placement.blocks[edge.to];
    if (from.devices == to.devices) continue;
    int step = *to.stage - *from.stage;
    bool forward = from.kind == BlockKind::Forward && to.kind == BlockKind::Forward && step == 1;
    bool backward = from.kind != BlockKind::Forward && to.kind != BlockKind::Forward && step == -1;
    if (!forward && !backward)
      throw InputError("", "placement", "edge " + from.id + " -> " + to.id + " crosses ranks from stage " +
                                            std::to_string(*from.stage) + " to stage " + std::to_string(*to.stage) +
                                            "; PyTorch's runtime only sends between consecutive stages "
                                            "(the compute-only table has no such limit)");
  }
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

std::string write_pytorch_csv_staged(const Schedule& schedule, bool with_comms) {
  const Placement& placement = schedule.placement;
  if (!schedule.fused.empty())
    throw InputError("", "fused", "a schedule with fused units is written by the compute-only writer");
  std::map<int, int> rank_of = stage_ranks(placement);
  if (with_comms) require_consecutive(placement);
  std::vector<std::vector<std::string>> rows(placement.ndevs);
  std::vector<std::map<Time, std::string>> cells(placement.ndevs);
  for (const Instance& instance : in_start_order(schedule)) {
    const Block& block = placement.blocks[instance.block];
    int stage = *block.stage, rank = block.devices.front();
    std::string action = letter_of(block);
    if (!with_comms) {
      std::string& slot = cells[rank][instance.start];
      if (!slot.empty())
        throw InputError("", "instances", "two instances start at step " + std::to_string(instance.start) +
                                              " on rank " + std::to_string(rank));
      slot = cell(stage, action, instance.micro);
      continue;
    }
    rows[rank].push_back(cell(stage, action, instance.micro));
    int peer = action == "F" ? stage + 1 : action == "B" || action == "I" ? stage - 1 : -1;
    auto peer_rank = rank_of.find(peer);
    if (peer < 0 || peer_rank == rank_of.end() || peer_rank->second == rank) continue;
    rows[rank].push_back(cell(stage, action == "F" ? "SEND_F" : "SEND_B", instance.micro));
    rows[peer_rank->second].push_back(cell(peer, action == "F" ? "RECV_F" : "RECV_B", instance.micro));
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
