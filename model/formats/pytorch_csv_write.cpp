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

// Each block's cell: its stage, its letter and the number its micro-batches
// start from.
struct CellNames {
  std::vector<int> stage;
  std::vector<std::string> letter;
  std::vector<int> micro_offset;

  std::string cell(int block, int micro) const {
    return std::to_string(stage[block]) + letter[block] + std::to_string(micro + micro_offset[block]);
  }
};

// Forwards number the stages in order; backwards (B or I) mirror them.
void name_forwards_and_backwards(const Placement& placement, const std::vector<int>& order, CellNames& names,
                                 std::vector<int>& forwards, std::vector<int>& backwards) {
  for (int block : order) {
    const Block& b = placement.blocks[block];
    if (b.devices.size() != 1)
      throw InputError("", "placement", "block '" + b.id + "' runs on " + std::to_string(b.devices.size()) +
                                            " devices; a PyTorch stage lives on one rank");
    if (b.kind == BlockKind::Forward) {
      names.stage[block] = static_cast<int>(forwards.size());
      forwards.push_back(block);
      names.letter[block] = "F";
    } else if (b.kind == BlockKind::Backward || b.kind == BlockKind::BackwardInput) {
      backwards.push_back(block);
      names.letter[block] = b.kind == BlockKind::Backward ? "B" : "I";
    } else if (b.kind != BlockKind::BackwardWeight) {
      throw InputError("", "placement", "block '" + b.id + "' of kind '" + kind_name(b.kind) +
                                            "' has no PyTorch action (F, B, I or W)");
    }
  }
}

void mirror_backwards(const Placement& placement, const std::vector<int>& forwards, const std::vector<int>& backwards,
                      CellNames& names) {
  if (backwards.size() != forwards.size() && !backwards.empty())
    throw InputError("", "placement", std::to_string(forwards.size()) + " forward blocks but " +
                                          std::to_string(backwards.size()) + " backward blocks");
  for (size_t i = 0; i < backwards.size(); ++i) {
    int block = backwards[i];
    names.stage[block] = static_cast<int>(forwards.size() - 1 - i);
    if (placement.blocks[forwards[names.stage[block]]].devices != placement.blocks[block].devices)
      throw InputError("", "placement", "backward block '" + placement.blocks[block].id +
                                            "' is not on the device of its forward '" +
                                            placement.blocks[forwards[names.stage[block]]].id + "'");
  }
}

// A weight block (W) takes the stage of the input-backward it follows.
void name_weights(const Placement& placement, const std::vector<int>& order, bool two_ways, CellNames& names) {
  std::vector<std::vector<int>> before = predecessors(placement);
  for (int block : order) {
    if (placement.blocks[block].kind != BlockKind::BackwardWeight) continue;
    names.letter[block] = "W";
    if (two_ways) continue;
    for (int input : before[block])
      if (placement.blocks[input].kind == BlockKind::BackwardInput) names.stage[block] = names.stage[input];
    if (names.stage[block] < 0)
      throw InputError("", "placement", "weight block '" + placement.blocks[block].id +
                                            "' does not follow an input-backward block");
  }
}

CellNames cell_names(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const int count = static_cast<int>(placement.blocks.size());
  CellNames names{std::vector<int>(count, -1), std::vector<std::string>(count), std::vector<int>(count, 0)};
  const std::vector<int> order = topological_order(placement);
  std::vector<int> forwards, backwards;
  name_forwards_and_backwards(placement, order, names, forwards, backwards);
  const bool two_ways = bidirectional(placement, names.stage, names.micro_offset, schedule.nmicros);
  if (two_ways) backwards.clear();  // stages come from the blocks
  mirror_backwards(placement, forwards, backwards, names);
  name_weights(placement, order, two_ways, names);
  return names;
}

// A fused unit is one cell at its start: a B when it is the I and W of one
// stage and micro-batch, else (a;b)OVERLAP_F_B of its actions (an I + W
// pair inside it written as their B). Its later members have no cell.
struct FusedCells {
  std::map<std::pair<int, int>, std::string> at_first;  // first member -> cell
  std::set<std::pair<int, int>> later_members;
};

std::string fused_cell(const FusedUnit& unit, const CellNames& names, FusedCells& cells) {
  std::vector<std::string> actions;
  for (size_t i = 0; i < unit.members.size(); ++i) {
    const FusedMember& member = unit.members[i];
    if (i > 0) cells.later_members.insert({member.block, member.micro});
    const FusedMember* next = i + 1 < unit.members.size() ? &unit.members[i + 1] : nullptr;
    if (next && names.letter[member.block] == "I" && names.letter[next->block] == "W" &&
        next->micro == member.micro && names.stage[next->block] == names.stage[member.block]) {
      actions.push_back(std::to_string(names.stage[member.block]) + "B" +
                        std::to_string(member.micro + names.micro_offset[member.block]));
      ++i;
      cells.later_members.insert({next->block, next->micro});
      continue;
    }
    actions.push_back(names.cell(member.block, member.micro));
  }
  if (actions.size() == 1) return actions.front();
  std::string cell = "(" + actions.front();
  for (size_t i = 1; i < actions.size(); ++i) cell += ";" + actions[i];
  return cell + ")OVERLAP_F_B";
}

std::string table_text(const std::vector<std::map<Time, std::string>>& rows, const std::map<Time, Time>& column) {
  std::ostringstream out;
  for (const auto& row : rows) {
    Time next = 0;  // the column the next cell is written in
    for (const auto& [start, cell] : row) {
      const Time at = column.at(start);
      for (; next < at; ++next) out << (next ? "," : "");
      out << (at ? "," : "") << cell;
      next = at + 1;
    }
    out << "\n";
  }
  return out.str();
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
  if (carries_stages(placement) && schedule.fused.empty()) return write_pytorch_csv_staged(schedule, false);
  const CellNames names = cell_names(schedule);
  FusedCells fused;
  for (const FusedUnit& unit : schedule.fused) {
    const std::string cell = fused_cell(unit, names, fused);
    fused.at_first[{unit.members.front().block, unit.members.front().micro}] = cell;
  }
  std::vector<std::map<Time, std::string>> rows(placement.ndevs);
  for (const Instance& instance : schedule.instances) {
    if (fused.later_members.count({instance.block, instance.micro})) continue;
    int device = placement.blocks[instance.block].devices.front();
    std::string& cell = rows[device][instance.start];
    if (!cell.empty())
      throw InputError("", "instances", "two instances start at step " + std::to_string(instance.start) +
                                            " on device " + std::to_string(device));
    auto found = fused.at_first.find({instance.block, instance.micro});
    cell = found != fused.at_first.end() ? found->second : names.cell(instance.block, instance.micro);
  }
  // A cell per rank and column, idle ones included: bound it before writing.
  const std::map<Time, Time> column = start_columns(schedule);
  const Time width = column.empty() ? 0 : column.rbegin()->second + 1;
  const long long cells = static_cast<long long>(placement.ndevs) * width;
  if (cells > kMaxCsvCells)
    throw InputError("", "instances",
                     "the table would have " + std::to_string(cells) + " cells (" + std::to_string(placement.ndevs) +
                         " ranks x " + std::to_string(width) + " columns), more than " + std::to_string(kMaxCsvCells));
  return table_text(rows, column);
}

}  // namespace tessel
