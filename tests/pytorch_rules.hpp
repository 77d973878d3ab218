// PyTorch's checks of an action table, written again from their documented
// behaviour (torch.distributed.pipelining: a schedule is validated before it
// runs, and the runtime executes each rank's list in order, blocking on a
// RECV until its SEND was posted) so that the tests judge tessel's tables by
// PyTorch's rules rather than by tessel's own reader:
//  - one rank per stage;
//  - per stage: every micro-batch has exactly one F, one backward (B, or I),
//    and a W exactly when it has an I; per rank the F of a micro-batch comes
//    before its I/B, and the I before its W;
//  - with comms: every SEND has its RECV on the rank of each peer stage on
//    another rank, a compute waits for its inputs (the RECV for those from
//    other ranks, the producing stage's action for those on its own rank),
//    and the lists run to the end without deadlock.
// The stage graph says who feeds whom: PyTorch's stage sends its output to
// every consumer stage and its input gradient to every producer stage, so a
// RECV waits for the SENDs of all remote peers. Without one, stage s feeds
// s + 1 (a chain, PyTorch's default).
// Returns the problems found ("" when the table passes).
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/formats/pytorch_csv.hpp"
#include "model/placement.hpp"

namespace tessel::testing {

using StageLinks = std::set<std::pair<int, int>>;  // (producer stage, consumer stage)

// The stage graph of a placement whose blocks carry stages: its F -> F edges.
inline StageLinks stage_links(const Placement& placement) {
  StageLinks links;
  for (const Edge& edge : placement.edges) {
    const Block& from = placement.blocks[edge.from];
    const Block& to = placement.blocks[edge.to];
    if (from.kind == BlockKind::Forward && to.kind == BlockKind::Forward) links.insert({*from.stage, *to.stage});
  }
  return links;
}

inline std::string pytorch_rule_problem(const PytorchTable& table, int nmicros, StageLinks links = {}) {
  std::map<int, int> rank_of;
  std::map<std::tuple<int, std::string, int>, int> count;  // (stage, action, micro) -> times
  std::set<std::tuple<int, std::string, int>> done_on_rank;
  int last_stage = -1;
  for (const PytorchAction& action : table.actions) {
    auto [found, inserted] = rank_of.emplace(action.stage, action.rank);
    if (!inserted && found->second != action.rank)
      return "stage " + std::to_string(action.stage) + " on ranks " + std::to_string(found->second) + " and " +
             std::to_string(action.rank);
    last_stage = std::max(last_stage, action.stage);
    if (!action.compute()) continue;
    ++count[{action.stage, action.action, action.micro}];
    auto before = [&](const std::string& letter) { return done_on_rank.count({action.stage, letter, action.micro}) > 0; };
    if ((action.action == "I" || action.action == "B") && !before("F"))
      return std::to_string(action.stage) + action.action + std::to_string(action.micro) + " before its F";
    if (action.action == "W" && !before("I"))
      return std::to_string(action.stage) + "W" + std::to_string(action.micro) + " before its I";
    done_on_rank.insert({action.stage, action.action, action.micro});
  }
  for (const auto& [stage, rank] : rank_of)
    for (int micro = 0; micro < nmicros; ++micro) {
      auto times = [&](const std::string& letter) {
        auto found = count.find({stage, letter, micro});
        return found == count.end() ? 0 : found->second;
      };
      std::string name = "stage " + std::to_string(stage) + " micro-batch " + std::to_string(micro);
      if (times("F") != 1) return name + ": " + std::to_string(times("F")) + " F";
      if (times("B") + times("I") != 1) return name + ": " + std::to_string(times("B") + times("I")) + " backwards";
      if (times("W") != times("I")) return name + ": W without I or I without W";
    }
  if (links.empty())
    for (int stage = 0; stage < last_stage; ++stage) links.insert({stage, stage + 1});
  std::map<int, std::vector<int>> producers, consumers;
  for (const auto& [from, to] : links) {
    producers[to].push_back(from);
    consumers[from].push_back(to);
  }
  // The runtime: each rank runs its list; a RECV waits for the SENDs of all
  // its remote peers, a compute for each of its inputs.
  std::vector<std::vector<const PytorchAction*>> lists(table.ranks);
  for (const PytorchAction& action : table.actions) lists[action.rank].push_back(&action);
  std::set<std::tuple<int, std::string, int>> sent, received, computed;
  auto remote = [&](int a, int b) { return rank_of.count(a) && rank_of.count(b) && rank_of[a] != rank_of[b]; };
  auto all_sent = [&](int stage, const std::vector<int>& peers, const char* send, int micro) {
    for (int peer : peers)
      if (remote(stage, peer) && !sent.count({peer, send, micro})) return false;
    return true;
  };
  auto gradient_done = [&](int stage, int micro) {
    return computed.count({stage, "I", micro}) || computed.count({stage, "B", micro});
  };
  auto ready = [&](const PytorchAction& a) {
    if (a.action == "RECV_F") return all_sent(a.stage, producers[a.stage], "SEND_F", a.micro);
    if (a.action == "RECV_B") return all_sent(a.stage, consumers[a.stage], "SEND_B", a.micro);
    if (a.action == "F")
      for (int from : producers[a.stage])
        if (remote(from, a.stage) ? !received.count({a.stage, "RECV_F", a.micro})
                                  : !computed.count({from, "F", a.micro}))
          return false;
    if (a.action == "I" || a.action == "B")
      for (int to : consumers[a.stage])
        if (remote(to, a.stage) ? !received.count({a.stage, "RECV_B", a.micro}) : !gradient_done(to, a.micro))
          return false;
    return true;
  };
  bool comms = false;
  for (const PytorchAction& action : table.actions) comms = comms || !action.compute();
  if (!comms) return "";
  std::vector<size_t> next(table.ranks, 0);
  for (bool moved = true; moved;) {
    moved = false;
    for (int rank = 0; rank < table.ranks; ++rank)
      while (next[rank] < lists[rank].size() && ready(*lists[rank][next[rank]])) {
        const PytorchAction& a = *lists[rank][next[rank]++];
        std::tuple<int, std::string, int> key{a.stage, a.action, a.micro};
        if (a.action.rfind("SEND", 0) == 0) sent.insert(key);
        else if (a.action.rfind("RECV", 0) == 0) received.insert(key);
        else computed.insert(key);
        moved = true;
      }
  }
  for (int rank = 0; rank < table.ranks; ++rank)
    if (next[rank] < lists[rank].size()) {
      const PytorchAction& a = *lists[rank][next[rank]];
      return "deadlock: rank " + std::to_string(rank) + " waits at " + std::to_string(a.stage) + a.action +
             std::to_string(a.micro);
    }
  for (const auto& [stage, action, micro] : sent) {
    bool forward = action == "SEND_F";
    for (int peer : forward ? consumers[stage] : producers[stage])
      if (remote(stage, peer) && !received.count({peer, forward ? "RECV_F" : "RECV_B", micro}))
        return "a SEND without its RECV: " + std::to_string(stage) + action + std::to_string(micro) +
               " for stage " + std::to_string(peer);
  }
  return "";
}

}  // namespace tessel::testing
