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
#include <optional>
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

namespace {

// What part of the schedule is drawn and how: the cells' size and number,
// their width, and the labels.
struct Frame {
  const Schedule& schedule;
  Time cell_ticks = 1;
  Time first = 0;        // first cell shown
  Time total_steps = 0;  // cells of the whole schedule
  int steps = 0;         // cells shown
  int width = 1;         // characters per cell
  std::vector<std::string> tags;
  FusedLabels fused;

  std::string label_of(int block, int micro) const { return tags[block] + ":" + std::to_string(micro); }
  std::string time_text(Time cell) const { return format_ticks(cell * cell_ticks, schedule.placement.time_decimals); }
};

// A text timeline longer than this is no longer readable, and a file may
// claim steps up to 1e9: cut it rather than allocate for all of them.
constexpr int kLongestTimeline = 100000;

Frame frame_of(const Schedule& schedule, const TimelineOptions& options) {
  const Placement& placement = schedule.placement;
  Frame frame{schedule};
  const Time end_time = options.to > 0 ? std::min(options.to, makespan(schedule)) : makespan(schedule);
  const Time start_time = std::min(std::max<Time>(options.from, 0), end_time);
  frame.cell_ticks = ticks_per_cell(placement, end_time - start_time, options.max_steps);
  frame.first = start_time / frame.cell_ticks;
  frame.total_steps = (makespan(schedule) + frame.cell_ticks - 1) / frame.cell_ticks;
  const Time window_steps = (end_time + frame.cell_ticks - 1) / frame.cell_ticks - frame.first;
  const int limit = options.max_steps > 0 ? std::min(options.max_steps, kLongestTimeline) : kLongestTimeline;
  frame.steps = static_cast<int>(std::min<Time>(window_steps, limit));
  frame.tags = block_tags(placement);
  frame.fused = fused_labels(schedule, frame.tags);
  for (const RecomputeRun& run : schedule.recomputes)
    frame.width = std::max<int>(frame.width, 1 + frame.label_of(run.block, run.micro).size());
  for (const Transfer& copy : schedule.transfers)
    frame.width = std::max<int>(frame.width, 1 + frame.label_of(copy.block, copy.micro).size());
  for (const Instance& instance : schedule.instances) {
    auto joined = frame.fused.of_first.find({instance.block, instance.micro});
    frame.width = std::max<int>(frame.width, joined != frame.fused.of_first.end()
                                                 ? joined->second.size()
                                                 : frame.label_of(instance.block, instance.micro).size());
  }
  return frame;
}

// cells[device][step]: the label, "" for idle, "#" for a collision; with
// cells of several ticks (and `covered` kept), the instance covering most
// of the cell. The copy rows keep no `covered`: a collision there is `#`.
struct Grid {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::vector<Time>> covered;

  void paint(const Frame& frame, int device, Time start, Time end, const std::string& label) {
    const Time ticks = frame.cell_ticks;
    for (Time cell = std::max(start / ticks, frame.first); cell * ticks < end && cell - frame.first < frame.steps;
         ++cell) {
      std::string& text = cells[device][cell - frame.first];
      if (covered.empty()) {
        text = text.empty() ? label : "#";
        continue;
      }
      const Time share = std::min(end, (cell + 1) * ticks) - std::max(start, cell * ticks);
      Time& most = covered[device][cell - frame.first];
      if (share > most) most = share, text = label;
    }
  }
};

// The devices' cells: instances (a fused unit once, from its first member)
// and recompute runs as R<label>.
Grid device_grid(const Frame& frame) {
  const Schedule& schedule = frame.schedule;
  const Placement& placement = schedule.placement;
  Grid grid;
  grid.cells.assign(placement.ndevs, std::vector<std::string>(frame.steps));
  if (frame.cell_ticks > 1) grid.covered.assign(placement.ndevs, std::vector<Time>(frame.steps, 0));
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    if (frame.fused.later_members.count({instance.block, instance.micro})) continue;
    auto joined = frame.fused.of_first.find({instance.block, instance.micro});
    const std::string label =
        joined != frame.fused.of_first.end() ? joined->second : frame.label_of(instance.block, instance.micro);
    for (int device : placement.blocks[instance.block].devices) grid.paint(frame, device, instance.start, ends[i], label);
  }
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = placement.blocks[run.block];
    if (!block.recompute) continue;
    for (int device : block.devices)
      grid.paint(frame, device, run.start, run.start + block.recompute->span, "R" + frame.label_of(run.block, run.micro));
  }
  return grid;
}

// The copy rows under each device: > out, < in (none without copies).
Grid copy_grid(const Frame& frame) {
  const Schedule& schedule = frame.schedule;
  const Placement& placement = schedule.placement;
  Grid grid;
  grid.cells.assign(schedule.transfers.empty() ? 0 : placement.ndevs, std::vector<std::string>(frame.steps));
  for (const Transfer& copy : schedule.transfers) {
    const Block& block = placement.blocks[copy.block];
    if (!block.offload) continue;
    const bool out = copy.direction == TransferDirection::Out;
    for (int device : block.devices)
      grid.paint(frame, device, copy.start, copy.start + (out ? block.offload->out : block.offload->in),
                 (out ? ">" : "<") + frame.label_of(copy.block, copy.micro));
  }
  return grid;
}

int device_digits(const Placement& placement) {
  return static_cast<int>(std::to_string(std::max(placement.ndevs - 1, 0)).size());
}

// "dev " and the number; each cell adds its separator.
int row_prefix(const Placement& placement) { return 4 + device_digits(placement); }

std::string trimmed(const std::string& line) { return line.substr(0, line.find_last_not_of(' ') + 1); }

// The time over every tenth step, skipped if it would run into the
// previous number.
std::string ruler_line(const Frame& frame) {
  const int prefix = row_prefix(frame.schedule.placement);
  std::string ruler(prefix + static_cast<size_t>(frame.steps) * (frame.width + 1) + 1, ' ');
  int free_from = 0;
  for (int step = 0; step < frame.steps; ++step) {
    if ((frame.first + step) % 10 != 0) continue;
    const std::string number = frame.time_text(frame.first + step);
    const int column = prefix + step * (frame.width + 1) + 1;
    if (column < free_from) continue;
    ruler.replace(column, std::min(number.size(), ruler.size() - column), number.substr(0, ruler.size() - column));
    free_from = column + static_cast<int>(number.size()) + 1;
  }
  return trimmed(ruler);
}

// The separator before cell `cell`: `|` at the repetend's edges.
char separator(const Frame& frame, Time cell) {
  const std::optional<Repetend>& repetend = frame.schedule.repetend;
  if (!repetend) return ' ';
  const Time ticks = frame.cell_ticks;
  const bool edge = cell * ticks == repetend->start / ticks * ticks || cell * ticks == repetend->end / ticks * ticks;
  return edge ? '|' : ' ';
}

std::string padded(const Frame& frame, const std::string& cell) {
  const std::string shown = cell.empty() ? "." : cell;
  return shown + std::string(frame.width - std::min<int>(frame.width, shown.size()), ' ');
}

std::string device_row(const Frame& frame, const Grid& grid, int device) {
  const std::string number = std::to_string(device);
  std::string row = "dev " + std::string(device_digits(frame.schedule.placement) - number.size(), ' ') + number;
  for (int step = 0; step < frame.steps; ++step) row += separator(frame, frame.first + step) + padded(frame, grid.cells[device][step]);
  row += separator(frame, frame.first + frame.steps);
  return trimmed(row);
}

// The copy row under `device`, or nothing when it has no copies shown.
std::optional<std::string> copy_row(const Frame& frame, const Grid& copies, int device) {
  if (copies.cells.empty()) return std::nullopt;
  const std::vector<std::string>& cells = copies.cells[device];
  if (std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return c.empty(); })) return std::nullopt;
  std::string row = "cp" + std::string(row_prefix(frame.schedule.placement) - 2, ' ');
  for (int step = 0; step < frame.steps; ++step) row += " " + padded(frame, cells[step]);
  return trimmed(row);
}

// What part is shown, what a cell is, and the key.
std::string footer_text(const Frame& frame) {
  const Schedule& schedule = frame.schedule;
  std::ostringstream out;
  const bool cut = frame.first > 0 || frame.steps < frame.total_steps;
  if (cut && frame.cell_ticks == 1)
    out << "(showing steps " << frame.first << ".." << frame.first + frame.steps - 1 << " of " << frame.total_steps
        << ")\n";
  if (cut && frame.cell_ticks > 1)
    out << "(showing time " << frame.time_text(frame.first) << " to " << frame.time_text(frame.first + frame.steps)
        << " of " << format_ticks(makespan(schedule), schedule.placement.time_decimals) << ")\n";
  if (frame.cell_ticks > 1) out << "(a cell is " << frame.time_text(1) << " of time: the instance covering most of it)\n";
  if (!schedule.recomputes.empty() || !schedule.transfers.empty())
    out << "key: R" << frame.tags.front()
        << ":0 a recompute; cp rows are the copy channel under a device (> copy out, < copy in)\n";
  if (!schedule.placement.blocks.empty()) out << key_text(schedule.placement, frame.tags, !schedule.fused.empty());
  return out.str();
}

}  // namespace

std::string render_timeline(const Schedule& schedule, const TimelineOptions& options) {
  const Frame frame = frame_of(schedule, options);
  const Grid cells = device_grid(frame);
  const Grid copies = copy_grid(frame);
  std::ostringstream out;
  out << ruler_line(frame) << "\n";
  for (int device = 0; device < schedule.placement.ndevs; ++device) {
    out << device_row(frame, cells, device) << "\n";
    if (std::optional<std::string> row = copy_row(frame, copies, device)) out << *row << "\n";
  }
  return out.str() + footer_text(frame);
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
