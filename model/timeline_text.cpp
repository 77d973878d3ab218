// The text timeline: one row per device, one fixed-width cell per step.
//
// A cell shows the kind letter and the micro-batch of the instance occupying
// the step (`f3`, `b3`; a multi-step instance repeats its label in each of
// its cells so that every step can be read off), `.` when the device is
// idle, and `#` when several instances claim the same step (an invalid
// schedule stays visible rather than hidden). Cells are as wide as the
// longest label and have no separator, so a 4-device schedule of 60 steps
// and up to 10 micro-batches fits 130 columns. `|` marks the repetend's
// start and end; a ruler above the rows numbers every tenth step. A fused
// unit shows its members' labels joined by `+` over the unit's steps.
//
// Measured times (decimals) would give a cell per tick, thousands of them
// per block: there a cell is 1, 2 or 5 times a power of ten ticks, the
// smallest that fits the width asked for, shows the instance covering most
// of it, and the ruler and the footer give real times.
#include "model/timeline_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace tessel {

namespace {

// forward f, backward b, backward_input i, backward_weight w, others their
// first letter (or `o`): the letters of the pipeline-schedule literature.
char cell_letter(BlockKind kind) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(kind_letter(kind))));
}

int digits(int value) { return static_cast<int>(std::to_string(std::max(value, 0)).size()); }

// Ticks per cell: 1 for integer times; otherwise the smallest 1, 2, 5 x 10^n
// ticks that shows the whole makespan within `cells` cells (0: any).
Time ticks_per_cell(const Placement& placement, Time total, int cells) {
  if (placement.time_decimals == 0) return 1;
  if (cells <= 0) cells = 120;  // no width asked: a terminal line
  for (Time scale = 1;; scale *= 10)
    for (Time factor : {1, 2, 5})
      if ((total + factor * scale - 1) / (factor * scale) <= cells) return factor * scale;
}

}  // namespace

std::string render_timeline(const Schedule& schedule, int max_steps) {
  const Placement& placement = schedule.placement;
  const Time cell_ticks = ticks_per_cell(placement, makespan(schedule), max_steps);
  const Time total_steps = (makespan(schedule) + cell_ticks - 1) / cell_ticks;  // cells
  // A text timeline longer than this is no longer readable, and a file may
  // claim steps up to 1e9: cut it rather than allocate for all of them.
  constexpr int kLongestTimeline = 100000;
  const int limit = max_steps > 0 ? std::min(max_steps, kLongestTimeline) : kLongestTimeline;
  const int steps = static_cast<int>(std::min<Time>(total_steps, limit));
  auto time_text = [&](Time cell) { return format_ticks(cell * cell_ticks, placement.time_decimals); };
  auto label_of = [&](int block, int micro) { return cell_letter(placement.blocks[block].kind) + std::to_string(micro); };
  // A fused unit is drawn once, from its first member, with all labels.
  std::map<std::pair<int, int>, std::string> unit_label;  // first member -> joined labels
  std::set<std::pair<int, int>> later_members;
  for (const FusedUnit& unit : schedule.fused) {
    std::string joined;
    for (size_t m = 0; m < unit.members.size(); ++m) {
      const FusedMember& member = unit.members[m];
      if (m > 0) later_members.insert({member.block, member.micro});
      std::string label = label_of(member.block, member.micro);
      // The input and weight backward of one stage together are its full backward b.
      const FusedMember* next = m + 1 < unit.members.size() ? &unit.members[m + 1] : nullptr;
      const Block& block = placement.blocks[member.block];
      if (next && block.kind == BlockKind::BackwardInput && next->micro == member.micro &&
          placement.blocks[next->block].kind == BlockKind::BackwardWeight &&
          placement.blocks[next->block].stage == block.stage) {
        label = "b" + std::to_string(member.micro);
        later_members.insert({next->block, next->micro});
        ++m;
      }
      joined += (joined.empty() ? "" : "+") + label;
    }
    unit_label[{unit.members.front().block, unit.members.front().micro}] = joined;
  }
  int width = 0;
  for (const Instance& instance : schedule.instances) {
    auto joined = unit_label.find({instance.block, instance.micro});
    width = std::max<int>(width, joined != unit_label.end() ? joined->second.size()
                                                          : label_of(instance.block, instance.micro).size());
  }

  // cells[device][step]: the label, "" for idle, "#" for a collision; with
  // cells of several ticks, the instance covering most of the cell.
  std::vector<std::vector<std::string>> cells(placement.ndevs, std::vector<std::string>(steps));
  std::vector<std::vector<Time>> covered(cell_ticks > 1 ? placement.ndevs : 0, std::vector<Time>(steps, 0));
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    if (later_members.count({instance.block, instance.micro})) continue;
    const Block& block = placement.blocks[instance.block];
    auto joined = unit_label.find({instance.block, instance.micro});
    std::string label = joined != unit_label.end() ? joined->second : label_of(instance.block, instance.micro);
    for (int device : block.devices)
      for (Time step = instance.start / cell_ticks; step * cell_ticks < ends[i] && step < steps; ++step) {
        std::string& cell = cells[device][step];
        if (cell_ticks == 1) {
          cell = cell.empty() ? label : "#";
          continue;
        }
        const Time share = std::min(ends[i], (step + 1) * cell_ticks) - std::max(instance.start, step * cell_ticks);
        if (share > covered[device][step]) covered[device][step] = share, cell = label;
      }
  }

  auto is_marker = [&](Time step) {
    if (!schedule.repetend) return false;
    return step * cell_ticks == schedule.repetend->start / cell_ticks * cell_ticks ||
           step * cell_ticks == schedule.repetend->end / cell_ticks * cell_ticks;
  };
  const int device_digits = digits(placement.ndevs - 1);
  const std::string blank_prefix(4 + device_digits + 1, ' ');

  // Column of each step's cell in a row (after the prefix), markers included.
  std::vector<int> column(steps + 1, 0);
  int at = static_cast<int>(blank_prefix.size());
  for (int step = 0; step <= steps; ++step) {
    if (is_marker(step)) ++at;
    column[step] = at;
    at += width;
  }

  std::ostringstream out;
  // Ruler: the step number over every tenth step (skipped if it would run
  // into the previous number).
  std::string ruler(at, ' ');
  int free_from = 0;
  for (int step = 0; step < steps; step += 10) {
    std::string number = time_text(step);
    if (column[step] < free_from) continue;
    ruler.replace(column[step], number.size(), number);
    free_from = column[step] + static_cast<int>(number.size()) + 1;
  }
  out << ruler.substr(0, ruler.find_last_not_of(' ') + 1) << "\n";

  for (int device = 0; device < placement.ndevs; ++device) {
    std::string number = std::to_string(device);
    std::string row = "dev " + std::string(device_digits - number.size(), ' ') + number + " ";
    for (int step = 0; step < steps; ++step) {
      if (is_marker(step)) row += '|';
      const std::string& cell = cells[device][step];
      std::string shown = cell.empty() ? "." : cell;
      row += shown + std::string(width - std::min<int>(width, shown.size()), ' ');
    }
    if (is_marker(steps)) row += '|';
    out << row.substr(0, row.find_last_not_of(' ') + 1) << "\n";
  }
  if (steps < total_steps)
    out << "(showing steps 0.." << steps - 1 << " of " << total_steps << ")\n";
  if (cell_ticks > 1)
    out << "(a cell is " << time_text(1) << " of time: the instance covering most of it)\n";
  return out.str();
}

std::string repetend_summary(const Repetend& repetend, int time_decimals) {
  auto t = [&](Time ticks) { return format_ticks(ticks, time_decimals); };
  std::string text = "repetend [" + t(repetend.start) + ", " + t(repetend.end) + ") period " + t(repetend.period);
  const int k = repetend.micros_per_period;
  if (k == 1) return text + " per micro-batch";
  std::ostringstream average;
  average << ticks_to_double(repetend.period, time_decimals) / k;
  return text + " per " + std::to_string(k) + " micro-batches (k = " + std::to_string(k) + ", average period " +
         average.str() + " per micro-batch)";
}

}  // namespace tessel
