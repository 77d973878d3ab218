// PyTorch's checks of an action table, written again from their documented
// behaviour (torch.distributed.pipelining: a schedule is validated before it
// runs, and the runtime executes each rank's list in order, blocking on a
// RECV until its SEND was posted) so that the tests judge tessel's tables by
// PyTorch's rules rather than by tessel's own reader:
//  - one rank per stage;
//  - per stage: every micro-batch has exactly one F, one backward (B, or I),
//    and a W exactly when it has an I; per rank the F of a micro-batch comes
//    before its I/B, and the I before its W;
//  - with comms: every SEND has its RECV on the rank of the peer stage, a
//    compute waits for its input (RECV, or the neighbouring stage's action
//    on the same rank), and the lists run to the end without deadlock.
// Returns the problems found ("" when the table passes).
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/formats/pytorch_csv.hpp"

namespace tessel::testing {

inline std::string pytorch_rule_problem(const PytorchTable& table, int nmicros) {
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
  // The runtime: each rank runs its list; a RECV waits for its SEND, a
  // compute for its input.
  std::vector<std::vector<const PytorchAction*>> lists(table.ranks);
  for (const PytorchAction& action : table.actions) lists[action.rank].push_back(&action);
  std::set<std::tuple<int, std::string, int>> sent, received, computed;
  auto ready = [&](const PytorchAction& a) {
    if (a.action == "RECV_F") return sent.count({a.stage - 1, "SEND_F", a.micro}) > 0;
    if (a.action == "RECV_B") return sent.count({a.stage + 1, "SEND_B", a.micro}) > 0;
    if (a.action == "F" && a.stage > 0)
      return received.count({a.stage, "RECV_F", a.micro}) || computed.count({a.stage - 1, "F", a.micro});
    if ((a.action == "I" || a.action == "B") && a.stage < last_stage)
      return received.count({a.stage, "RECV_B", a.micro}) || computed.count({a.stage + 1, "I", a.micro}) ||
             computed.count({a.stage + 1, "B", a.micro});
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
    std::string recv = action == "SEND_F" ? "RECV_F" : "RECV_B";
    int peer = action == "SEND_F" ? stage + 1 : stage - 1;
    if (!received.count({peer, recv, micro}))
      return "a SEND without its RECV: " + std::to_string(stage) + action + std::to_string(micro);
  }
  return "";
}

}  // namespace tessel::testing
