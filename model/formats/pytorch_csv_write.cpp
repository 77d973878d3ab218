// Writing PyTorch pipelining's compute-only CSV action table (the current
// dialect: F, I, B, W, and fused units as B or (a;b)OVERLAP_F_B cells).
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"

namespace tessel {

namespace {

// A bidirectional placement (DualPipe, classic/stage_graph.hpp): every block
// carries its stage and each (stage, kind) has two blocks, the later-listed
// one the "up" copy. Its cells use the stage, and the up copies' micro-batches
// are numbered after the down ones', as `import` reads them back.
bool bidirectional(const Placement& placement, std::vector<int>& stage, std::vector<int>& micro_offset,
                   int nmicros) {
  std::map<std::pair<int, BlockKind>, int> seen;
  for (const Block& block : placement.blocks) {
    if (!block.stage) return false;
    ++seen[{*block.stage, block.kind}];
  }
  if (seen.empty() || std::any_of(seen.begin(), seen.end(), [](const auto& entry) { return entry.second != 2; }))
    return false;
  std::map<std::pair<int, BlockKind>, int> copies;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    stage[b] = *block.stage;
    micro_offset[b] = copies[{*block.stage, block.kind}]++ > 0 ? nmicros : 0;
  }
  return true;
}

}  // namespace

constexpr long long kMaxCsvCells = 20000000;

std::string write_pytorch_csv(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  // docs/formats.md, "Memory traded for time": PyTorch's action table has
  // no recompute or copy action, so such a schedule cannot be written as one.
  if (!schedule.recomputes.empty() || !schedule.transfers.empty())
    throw InputError("", schedule.recomputes.empty() ? "transfers" : "recomputes",
                     "PyTorch's pipelining table has no action for a recompute or a copy to host memory: draw "
                     "this schedule with `export --to svg`, or search the placement without the offers");
  // A cell per rank and step, idle ones included: bound it before writing.
  const long long cells = static_cast<long long>(placement.ndevs) * makespan(schedule);
  if (cells > kMaxCsvCells)
    throw InputError("", "instances",
                     "the table would have " + std::to_string(cells) + " cells (" + std::to_string(placement.ndevs) +
                         " ranks x " + std::to_string(makespan(schedule)) + " steps), more than " +
                         std::to_string(kMaxCsvCells));
  if (carries_stages(placement) && schedule.fused.empty()) return write_pytorch_csv_staged(schedule, false);
  int count = static_cast<int>(placement.blocks.size());
  std::vector<int> micro_offset(count, 0);
  std::vector<int> order = topological_order(placement);
  std::vector<int> stage(count, -1);
  std::vector<std::string> letter(count);
  std::vector<int> forwards, backwards;
  for (int block : order) {
    const Block& b = placement.blocks[block];
    if (b.devices.size() != 1)
      throw InputError("", "placement", "block '" + b.id + "' runs on " + std::to_string(b.devices.size()) +
                                            " devices; a PyTorch stage lives on one rank");
    if (b.kind == BlockKind::Forward) {
      stage[block] = static_cast<int>(forwards.size());
      forwards.push_back(block);
      letter[block] = "F";
    } else if (b.kind == BlockKind::Backward || b.kind == BlockKind::BackwardInput) {
      backwards.push_back(block);
      letter[block] = b.kind == BlockKind::Backward ? "B" : "I";
    } else if (b.kind != BlockKind::BackwardWeight) {
      throw InputError("", "placement", "block '" + b.id + "' of kind '" + kind_name(b.kind) +
                                            "' has no PyTorch action (F, B, I or W)");
    }
  }
  bool two_ways = bidirectional(placement, stage, micro_offset, schedule.nmicros);
  if (two_ways) backwards.clear();  // stages come from the blocks
  if (backwards.size() != forwards.size() && !backwards.empty())
    throw InputError("", "placement", std::to_string(forwards.size()) + " forward blocks but " +
                                          std::to_string(backwards.size()) + " backward blocks");
  for (size_t i = 0; i < backwards.size(); ++i) {
    int block = backwards[i];
    stage[block] = static_cast<int>(forwards.size() - 1 - i);
    if (placement.blocks[forwards[stage[block]]].devices != placement.blocks[block].devices)
      throw InputError("", "placement", "backward block '" + placement.blocks[block].id +
                                            "' is not on the device of its forward '" +
                                            placement.blocks[forwards[stage[block]]].id + "'");
  }
  std::vector<std::vector<int>> before = predecessors(placement);
  for (int block : order) {
    if (placement.blocks[block].kind != BlockKind::BackwardWeight) continue;
    letter[block] = "W";
    if (two_ways) continue;
    for (int input : before[block])
      if (placement.blocks[input].kind == BlockKind::BackwardInput) stage[block] = stage[input];
    if (stage[block] < 0)
      throw InputError("", "placement", "weight block '" + placement.blocks[block].id +
                                            "' does not follow an input-backward block");
  }

  auto cell_of = [&](int block, int micro) {
    return std::to_string(stage[block]) + letter[block] + std::to_string(micro + micro_offset[block]);
  };
  // A fused unit is one cell at its start: a B when it is the I and W of one
  // stage and micro-batch, else (a;b)OVERLAP_F_B of its actions (an I + W
  // pair inside it written as their B).
  std::map<std::pair<int, int>, std::string> fused_cell;  // first member -> cell
  std::set<std::pair<int, int>> later_members;
  for (const FusedUnit& unit : schedule.fused) {
    std::vector<std::string> actions;
    for (size_t i = 0; i < unit.members.size(); ++i) {
      const FusedMember& member = unit.members[i];
      if (i > 0) later_members.insert({member.block, member.micro});
      const FusedMember* next = i + 1 < unit.members.size() ? &unit.members[i + 1] : nullptr;
      if (next && letter[member.block] == "I" && letter[next->block] == "W" && next->micro == member.micro &&
          stage[next->block] == stage[member.block]) {
        actions.push_back(std::to_string(stage[member.block]) + "B" +
                          std::to_string(member.micro + micro_offset[member.block]));
        ++i;
        later_members.insert({next->block, next->micro});
        continue;
      }
      actions.push_back(cell_of(member.block, member.micro));
    }
    std::string cell = actions.front();
    if (actions.size() > 1) {
      cell = "(" + actions.front();
      for (size_t i = 1; i < actions.size(); ++i) cell += ";" + actions[i];
      cell += ")OVERLAP_F_B";
    }
    fused_cell[{unit.members.front().block, unit.members.front().micro}] = cell;
  }
  std::vector<std::map<Time, std::string>> rows(placement.ndevs);
  for (const Instance& instance : schedule.instances) {
    if (later_members.count({instance.block, instance.micro})) continue;
    int device = placement.blocks[instance.block].devices.front();
    std::string& cell = rows[device][instance.start];
    if (!cell.empty())
      throw InputError("", "instances", "two instances start at step " + std::to_string(instance.start) +
                                            " on device " + std::to_string(device));
    auto fused = fused_cell.find({instance.block, instance.micro});
    cell = fused != fused_cell.end() ? fused->second : cell_of(instance.block, instance.micro);
  }
  std::ostringstream out;
  for (const auto& row : rows) {
    Time width = row.empty() ? 0 : row.rbegin()->first + 1;
    for (Time column = 0; column < width; ++column) {
      if (column) out << ",";
      auto found = row.find(column);
      if (found != row.end()) out << found->second;
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace tessel
