// The text timeline: one row per device, one fixed-width cell per step.
//
// A cell names the block and the micro-batch of the instance occupying the
// step, `BLOCK:MICRO` (`f0:3` is block f0 of micro-batch 3, whatever kind f0
// is: a letter-and-number code like `f3` for "forward of micro-batch 3"
// would read the same as a block named f3). A multi-step instance repeats its
// label in each of its cells so that every step can be read off; `.` is idle
// and `#` marks several instances claiming one step (an invalid schedule
// stays visible rather than hidden). A fused unit shows its members joined
// by `+`, members of one micro-batch sharing it (`i0+w0:3`). Cells are as wide
// as the longest label and separated by a space, or by `|` at the
// repetend's start and end; a ruler above numbers every tenth step, and a
// key below gives each block's kind (and id, when the cells use indices).
// A recompute run is drawn on its devices as `R` and its label; copies to
// and from host memory on a `cp` row under their device (`>` out, `<` in).
//
// Measured times (decimals) would give a cell per tick, thousands of them
// per block: there a cell is 1, 2 or 5 times a power of ten ticks, the
// smallest that fits the width asked for, shows the instance covering most
// of it, and the ruler and the footer give real times. A window of time
// (`from`, `to`) draws only that part, ruler and repetend marks included.
#include "model/timeline_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace tessel {

namespace {

bool plain_id(const std::string& id) {
  if (id.empty() || id.size() > 6) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// Ticks per cell: 1 for integer times; otherwise the smallest 1, 2, 5 x 10^n
// ticks that shows the whole window within `cells` cells (0: any).
Time ticks_per_cell(const Placement& placement, Time total, int cells) {
  if (placement.time_decimals == 0) return 1;
  if (cells <= 0) cells = 120;  // no width asked: a terminal line
  for (Time scale = 1;; scale *= 10)
    for (Time factor : {1, 2, 5})
      if ((total + factor * scale - 1) / (factor * scale) <= cells) return factor * scale;
}

// A fused unit is drawn once, from its first member, with all labels.
struct FusedLabels {
  std::map<std::pair<int, int>, std::string> of_first;  // first member -> joined labels
  std::set<std::pair<int, int>> later_members;
};

FusedLabels fused_labels(const Schedule& schedule, const std::vector<std::string>& tags) {
  FusedLabels labels;
  for (const FusedUnit& unit : schedule.fused) {
    std::string joined;
    for (size_t m = 0; m < unit.members.size(); ++m) {
      const FusedMember& member = unit.members[m];
      if (m > 0) labels.later_members.insert({member.block, member.micro});
      if (m > 0) joined += '+';
      joined += tags[member.block];
      // Members of one micro-batch in a row share its number: i0+w0:3.
      const bool same_next = m + 1 < unit.members.size() && unit.members[m + 1].micro == member.micro;
      if (same_next) continue;
      joined += ':';
      joined += std::to_string(member.micro);
    }
    labels.of_first[{unit.members.front().block, unit.members.front().micro}] = joined;
  }
  return labels;
}

// The key: what a cell says, then every block's tag and kind, wrapped.
std::string key_text(const Placement& placement, const std::vector<std::string>& tags, bool fused) {
  std::string text = "key: BLOCK:MICRO-BATCH per step (" + tags.front() + ":0 = block " +
                     placement.blocks.front().id + " of micro-batch 0), . idle, # several at once";
  if (fused) text += ", + a fused unit";
  text += ", | repetend start/end\n";
  std::string line = "blocks:";
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    std::string entry = " " + tags[b] + (tags[b] == block.id ? "" : " = " + block.id) + " " + kind_name(block.kind) +
                        (b + 1 < placement.blocks.size() ? "," : "");
    if (line.size() + entry.size() > 100 && line.size() > 8) {
      text += line + "\n";
      line = "       ";
    }
    line += entry;
  }
  return text + line + "\n";
}

}  // namespace

std::vector<std::string> block_tags(const Placement& placement) {
  std::vector<std::string> tags;
  const bool ids = std::all_of(placement.blocks.begin(), placement.blocks.end(),
                               [](const Block& block) { return plain_id(block.id); });
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    tags.push_back(ids ? placement.blocks[b].id : std::to_string(b));
  return tags;
}

std::string render_timeline(const Schedule& schedule, int max_steps) {
  TimelineOptions options;
  options.max_steps = max_steps;
  return render_timeline(schedule, options);
}

std::string render_timeline(const Schedule& schedule, const TimelineOptions& options) {
  const Placement& placement = schedule.placement;
  const Time end_time = options.to > 0 ? std::min(options.to, makespan(schedule)) : makespan(schedule);
  const Time start_time = std::min(std::max<Time>(options.from, 0), end_time);
  const Time cell_ticks = ticks_per_cell(placement, end_time - start_time, options.max_steps);
  const Time first = start_time / cell_ticks;                              // first cell shown
  const Time total_steps = (makespan(schedule) + cell_ticks - 1) / cell_ticks;  // cells of the whole schedule
  const Time window_steps = (end_time + cell_ticks - 1) / cell_ticks - first;
  // A text timeline longer than this is no longer readable, and a file may
  // claim steps up to 1e9: cut it rather than allocate for all of them.
  constexpr int kLongestTimeline = 100000;
  const int limit = options.max_steps > 0 ? std::min(options.max_steps, kLongestTimeline) : kLongestTimeline;
  const int steps = static_cast<int>(std::min<Time>(window_steps, limit));
  auto time_text = [&](Time cell) { return format_ticks(cell * cell_ticks, placement.time_decimals); };
  const std::vector<std::string> tags = block_tags(placement);
  auto label_of = [&](int block, int micro) { return tags[block] + ":" + std::to_string(micro); };
  const FusedLabels fused = fused_labels(schedule, tags);

  int width = 1;
  for (const RecomputeRun& run : schedule.recomputes)
    width = std::max<int>(width, 1 + label_of(run.block, run.micro).size());
  for (const Transfer& copy : schedule.transfers) width = std::max<int>(width, 1 + label_of(copy.block, copy.micro).size());
  for (const Instance& instance : schedule.instances) {
    auto joined = fused.of_first.find({instance.block, instance.micro});
    width = std::max<int>(width, joined != fused.of_first.end() ? joined->second.size()
                                                               : label_of(instance.block, instance.micro).size());
  }

  // cells[device][step]: the label, "" for idle, "#" for a collision; with
  // cells of several ticks, the instance covering most of the cell.
  std::vector<std::vector<std::string>> cells(placement.ndevs, std::vector<std::string>(steps));
  std::vector<std::vector<Time>> covered(cell_ticks > 1 ? placement.ndevs : 0, std::vector<Time>(steps, 0));
  const std::vector<Time> ends = instance_ends(schedule);
  // Paints [start, end) of `device` in `grid` (the device rows, or the copy rows).
  auto paint = [&](std::vector<std::vector<std::string>>& grid, int device, Time start, Time end,
                   const std::string& label) {
    for (Time cell = std::max(start / cell_ticks, first); cell * cell_ticks < end && cell - first < steps; ++cell) {
      std::string& text = grid[device][cell - first];
      if (cell_ticks == 1 || &grid != &cells) {
        text = text.empty() ? label : "#";
        continue;
      }
      const Time share = std::min(end, (cell + 1) * cell_ticks) - std::max(start, cell * cell_ticks);
      if (share > covered[device][cell - first]) covered[device][cell - first] = share, text = label;
    }
  };
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    if (fused.later_members.count({instance.block, instance.micro})) continue;
    const Block& block = placement.blocks[instance.block];
    auto joined = fused.of_first.find({instance.block, instance.micro});
    std::string label = joined != fused.of_first.end() ? joined->second : label_of(instance.block, instance.micro);
    for (int device : block.devices) paint(cells, device, instance.start, ends[i], label);
  }
  // Memory traded for time: a recompute on its devices as R<label>, copies
  // on a copy row under the device, > out and < in.
  std::vector<std::vector<std::string>> copy_cells(schedule.transfers.empty() ? 0 : placement.ndevs,
                                                   std::vector<std::string>(steps));
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = placement.blocks[run.block];
    if (!block.recompute) continue;
    for (int device : block.devices)
      paint(cells, device, run.start, run.start + block.recompute->span, "R" + label_of(run.block, run.micro));
  }
  for (const Transfer& copy : schedule.transfers) {
    const Block& block = placement.blocks[copy.block];
    if (!block.offload) continue;
    const bool out = copy.direction == TransferDirection::Out;
    for (int device : block.devices)
      paint(copy_cells, device, copy.start, copy.start + (out ? block.offload->out : block.offload->in),
            (out ? ">" : "<") + label_of(copy.block, copy.micro));
  }

  // The separator before cell `first + step`: `|` at the repetend's edges.
  auto separator = [&](Time cell) {
    if (!schedule.repetend) return ' ';
    const bool edge = cell * cell_ticks == schedule.repetend->start / cell_ticks * cell_ticks ||
                      cell * cell_ticks == schedule.repetend->end / cell_ticks * cell_ticks;
    return edge ? '|' : ' ';
  };
  const int device_digits = static_cast<int>(std::to_string(std::max(placement.ndevs - 1, 0)).size());
  const int prefix = 4 + device_digits;  // "dev " and the number; each cell adds its separator

  std::ostringstream out;
  // Ruler: the time over every tenth step (skipped if it would run into the
  // previous number).
  std::string ruler(prefix + static_cast<size_t>(steps) * (width + 1) + 1, ' ');
  int free_from = 0;
  for (int step = 0; step < steps; ++step) {
    if ((first + step) % 10 != 0) continue;
    const std::string number = time_text(first + step);
    const int column = prefix + step * (width + 1) + 1;
    if (column < free_from) continue;
    ruler.replace(column, std::min(number.size(), ruler.size() - column), number.substr(0, ruler.size() - column));
    free_from = column + static_cast<int>(number.size()) + 1;
  }
  out << ruler.substr(0, ruler.find_last_not_of(' ') + 1) << "\n";

  for (int device = 0; device < placement.ndevs; ++device) {
    const std::string number = std::to_string(device);
    std::string row = "dev " + std::string(device_digits - number.size(), ' ') + number;
    for (int step = 0; step < steps; ++step) {
      row += separator(first + step);
      const std::string& cell = cells[device][step];
      const std::string shown = cell.empty() ? "." : cell;
      row += shown + std::string(width - std::min<int>(width, shown.size()), ' ');
    }
    row += separator(first + steps);
    out << row.substr(0, row.find_last_not_of(' ') + 1) << "\n";
    if (copy_cells.empty() ||
        std::all_of(copy_cells[device].begin(), copy_cells[device].end(), [](const std::string& c) { return c.empty(); }))
      continue;
    std::string copies = "cp" + std::string(prefix - 2, ' ');
    for (int step = 0; step < steps; ++step) {
      const std::string& cell = copy_cells[device][step];
      const std::string shown = cell.empty() ? "." : cell;
      copies += " " + shown + std::string(width - std::min<int>(width, shown.size()), ' ');
    }
    out << copies.substr(0, copies.find_last_not_of(' ') + 1) << "\n";
  }
  if ((first > 0 || steps < total_steps) && cell_ticks == 1)
    out << "(showing steps " << first << ".." << first + steps - 1 << " of " << total_steps << ")\n";
  if ((first > 0 || steps < total_steps) && cell_ticks > 1)
    out << "(showing time " << time_text(first) << " to " << time_text(first + steps) << " of "
        << format_ticks(makespan(schedule), placement.time_decimals) << ")\n";
  if (cell_ticks > 1)
    out << "(a cell is " << time_text(1) << " of time: the instance covering most of it)\n";
  if (!schedule.recomputes.empty() || !schedule.transfers.empty())
    out << "key: R" << tags.front() << ":0 a recompute; cp rows are the copy channel under a device (> copy out, < copy in)\n";
  if (!placement.blocks.empty()) out << key_text(placement, tags, !schedule.fused.empty());
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
