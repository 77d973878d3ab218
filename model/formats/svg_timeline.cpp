// Drawing the SVG timeline. The frame first (the time window, pixels per
// tick, where each device's row and memory strip sit), then the layers back
// to front: phase shading, rows, boxes and their labels, memory strips,
// axis, legend. The legend is laid out last and sets the picture's height.
#include "model/formats/svg_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "model/formats/block_palette.hpp"
#include "model/formats/picture_tracks.hpp"
#include "model/timeline_text.hpp"

namespace tessel {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(2);
  out << std::fixed << value;
  std::string text = out.str();
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

// A tick every 1, 2, 5, 10, 20, 50, ... time ticks, at least `min_pixels`
// apart (with decimals, 0.001, 0.002, ... of the unit: a real time axis).
Time tick_every(double step_width, double min_pixels) {
  for (Time scale = 1;; scale *= 10)
    for (Time factor : {1, 2, 5})
      if (static_cast<double>(factor * scale) * step_width >= min_pixels) return factor * scale;
}

// Where everything goes: the window [from, to) in ticks, `step` pixels per
// tick, and per device a row of boxes with a memory strip under it.
struct Frame {
  Time from = 0, to = 1;
  double step = 1;
  double left = 86, top = 52, row = 28, strip = 0, gap = 8;
  int ndevs = 0;
  double x(Time t) const { return left + static_cast<double>(std::clamp(t, from, to) - from) * step; }
  double width() const { return static_cast<double>(to - from) * step; }
  double row_y(int device) const { return top + device * (row + strip + gap); }
  double bottom() const { return row_y(ndevs) - gap; }
};

Frame frame_of(const Schedule& schedule, const SvgOptions& options, bool memory) {
  Frame frame;
  const Time total = std::max<Time>(makespan(schedule), 1);
  frame.to = options.to > 0 ? std::min(options.to, total) : total;
  frame.from = std::clamp<Time>(options.from, 0, frame.to - 1);
  // The width asked for, but boxes no wider than 32 pixels per tick.
  frame.step = std::min(32.0, static_cast<double>(options.width) / static_cast<double>(frame.to - frame.from));
  frame.strip = memory ? 26 : 0;
  frame.ndevs = schedule.placement.ndevs;
  return frame;
}

// Warmup and cooldown in a cool grey, the repetend's copies in alternating
// yellows; the repetend's edges dashed, a dotted line between copies, and
// the phase names above where they fit.
void draw_phases(std::ostream& svg, const Frame& frame, const Schedule& schedule) {
  if (!schedule.repetend) return;
  const Repetend& repetend = *schedule.repetend;
  const int decimals = schedule.placement.time_decimals;
  const double y0 = frame.top - 8, y1 = frame.bottom() + 6;
  for (const Phase& phase : schedule_phases(schedule)) {
    const double x0 = frame.x(phase.start), x1 = frame.x(phase.end);
    if (x1 <= x0) continue;
    // Copies alternate while they stay a few pixels wide, else one yellow.
    const bool alternate = phase.kind == PhaseKind::Repetend && phase.copy % 2 && x1 - x0 >= 4;
    const char* fill = phase.kind != PhaseKind::Repetend ? "#e8eef4" : alternate ? "#ffe680" : "#fff3b0";
    svg << "<rect class=\"phase\" x=\"" << number(x0) << "\" y=\"" << number(y0) << "\" width=\"" << number(x1 - x0)
        << "\" height=\"" << number(y1 - y0) << "\" fill=\"" << fill << "\"/>\n";
    if (phase.kind == PhaseKind::Repetend && phase.copy > 0 && phase.start > frame.from && x1 - x0 >= 12)
      svg << "<line class=\"period\" x1=\"" << number(x0) << "\" y1=\"" << number(y0) << "\" x2=\"" << number(x0)
          << "\" y2=\"" << number(y1) << "\" stroke=\"#c0392b\" stroke-width=\"0.8\" stroke-dasharray=\"1,3\"/>\n";
    if (phase.kind != PhaseKind::Repetend && x1 - x0 > 60)
      svg << "<text x=\"" << number((x0 + x1) / 2) << "\" y=\"" << number(y0 - 3)
          << "\" font-size=\"11\" fill=\"#5d6d7e\" text-anchor=\"middle\">" << phase_name(phase.kind) << "</text>\n";
  }
  for (Time edge : {repetend.start, repetend.end})
    if (edge >= frame.from && edge <= frame.to)
      svg << "<line x1=\"" << number(frame.x(edge)) << "\" y1=\"" << number(y0 - 2) << "\" x2=\""
          << number(frame.x(edge)) << "\" y2=\"" << number(y1) << "\" stroke=\"#c0392b\" stroke-width=\"1.5\""
          << " stroke-dasharray=\"5,3\"/>\n";
  const double x0 = frame.x(repetend.start), x1 = frame.x(repetend.end);
  if (x1 <= x0) return;
  svg << "<text x=\"" << number((x0 + x1) / 2) << "\" y=\"" << number(y0 - 3)
      << "\" font-size=\"11\" fill=\"#c0392b\" text-anchor=\"middle\">repetend (period "
      << format_ticks(repetend.period, decimals);
  // A window of k > 1 micro-batches: say so, and its period per micro-batch.
  if (repetend.micros_per_period > 1)
    svg << " for " << repetend.micros_per_period << " micro-batches, "
        << number(ticks_to_double(repetend.period, decimals) / repetend.micros_per_period) << " per micro-batch";
  svg << ")</text>\n";
}

void draw_rows(std::ostream& svg, const Frame& frame) {
  for (int device = 0; device < frame.ndevs; ++device) {
    const double y = frame.row_y(device);
    svg << "<rect x=\"" << number(frame.left) << "\" y=\"" << number(y) << "\" width=\"" << number(frame.width())
        << "\" height=\"" << number(frame.row) << "\" fill=\"#f3f3f3\" fill-opacity=\"0.7\"/>\n";
    svg << "<text x=\"" << number(frame.left - 8) << "\" y=\"" << number(y + frame.row / 2 + 4)
        << "\" font-size=\"12\" text-anchor=\"end\">device " << device << "</text>\n";
  }
}

// One box per instance and device, cut to the window; a fused unit's
// members share its steps, each in a band of the row. The label is
// BLOCK:MICRO where it fits, else the micro-batch, else none. Returns
// whether some box had to go without its full label.
bool draw_boxes(std::ostream& svg, const Frame& frame, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const std::vector<BlockColour> palette = block_palette(placement);
  const std::vector<std::string> tags = block_tags(placement);
  const int decimals = placement.time_decimals;
  std::map<std::pair<int, int>, std::pair<int, int>> band;  // member -> (index, members)
  for (const FusedUnit& unit : schedule.fused)
    for (size_t m = 0; m < unit.members.size(); ++m)
      band[{unit.members[m].block, unit.members[m].micro}] = {static_cast<int>(m), static_cast<int>(unit.members.size())};
  const double gutter = frame.step >= 6 ? 1 : 0;
  bool dropped = false;
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    if (ends[i] <= frame.from || instance.start >= frame.to) continue;
    const Block& block = placement.blocks[instance.block];
    const BlockColour& colour = palette[instance.block];
    const double x = frame.x(instance.start);
    const double w = std::max(frame.x(ends[i]) - x - gutter, 0.5);
    auto in_unit = band.find({instance.block, instance.micro});
    const double height = in_unit == band.end() ? frame.row : frame.row / in_unit->second.second;
    const double offset = in_unit == band.end() ? 0 : height * in_unit->second.first;
    const std::string full = tags[instance.block] + ":" + std::to_string(instance.micro);
    const std::string micro = std::to_string(instance.micro);
    for (int device : block.devices) {
      const double y = frame.row_y(device) + offset;
      svg << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w) << "\" height=\""
          << number(height) << "\" fill=\"" << colour.fill << "\"><title>" << escape(block.id) << " micro "
          << instance.micro << (decimals == 0 ? ", steps " : ", time ") << format_ticks(instance.start, decimals)
          << ".." << format_ticks(ends[i], decimals) << (in_unit == band.end() ? "" : " (fused)")
          << "</title></rect>\n";
      // The largest readable size the box allows, for the full label or the micro-batch alone.
      auto fitting = [&](const std::string& label) { return std::min({11.0, (w - 2) / (label.size() * 0.62), height * 0.9}); };
      const bool whole = fitting(full) >= 7;
      const std::string& label = whole ? full : micro;
      const double size = fitting(label);
      if (!whole) dropped = true;
      if (size < 6.5) continue;
      svg << "<text class=\"label\" x=\"" << number(x + w / 2) << "\" y=\"" << number(y + height / 2 + size * 0.36)
          << "\" font-size=\"" << number(size) << "\" fill=\"" << colour.text << "\" text-anchor=\"middle\">"
          << escape(label) << "</text>\n";
    }
  }
  return dropped;
}

// Memory traded for time: a recompute as a hatched box with its label on
// its devices' rows, copies as thin bars on a copy track along the row's
// bottom edge (dark: out, light: in).
void draw_choices(std::ostream& svg, const Frame& frame, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const std::vector<BlockColour> palette = block_palette(placement);
  const std::vector<std::string> tags = block_tags(placement);
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = placement.blocks[run.block];
    if (!block.recompute) continue;
    const Time end = run.start + block.recompute->span;
    if (end <= frame.from || run.start >= frame.to) continue;
    const double x = frame.x(run.start), w = std::max(frame.x(end) - x, 0.5);
    for (int device : block.devices)
      svg << "<rect x=\"" << number(x) << "\" y=\"" << number(frame.row_y(device)) << "\" width=\"" << number(w)
          << "\" height=\"" << number(frame.row) << "\" fill=\"" << palette[run.block].fill
          << "\" stroke=\"#000\" stroke-dasharray=\"2 2\" fill-opacity=\"0.55\"><title>recompute " << escape(block.id)
          << " micro " << run.micro << "</title></rect>\n"
          << "<text class=\"label\" x=\"" << number(x + w / 2) << "\" y=\"" << number(frame.row_y(device) + frame.row / 2 + 3)
          << "\" font-size=\"9\" text-anchor=\"middle\">R" << escape(tags[run.block]) << ":" << run.micro << "</text>\n";
  }
  for (const Transfer& copy : schedule.transfers) {
    const Block& block = placement.blocks[copy.block];
    if (!block.offload) continue;
    const bool out = copy.direction == TransferDirection::Out;
    const Time end = copy.start + (out ? block.offload->out : block.offload->in);
    if (end <= frame.from || copy.start >= frame.to) continue;
    const double x = frame.x(copy.start), w = std::max(frame.x(end) - x, 0.5);
    for (int device : block.devices)
      svg << "<rect class=\"copy\" x=\"" << number(x) << "\" y=\"" << number(frame.row_y(device) + frame.row + 1)
          << "\" width=\"" << number(w) << "\" height=\"5\" fill=\"" << (out ? "#6c3483" : "#d2b4de")
          << "\"><title>copy " << (out ? "out " : "in ") << escape(block.id) << " micro " << copy.micro
          << "</title></rect>\n";
  }
}

// Under each row: the memory level as a filled step line on one scale for
// all devices (0 to the largest limit or peak), the limit dashed in red,
// and the peak and limit written at the right.
void draw_memory(std::ostream& svg, const Frame& frame, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const std::vector<std::vector<MemoryPoint>> curves = memory_curves(schedule);
  const std::vector<Memory> peaks = curve_peaks(curves);
  Memory high = 1, low = 0;
  for (int device = 0; device < placement.ndevs; ++device) {
    high = std::max(high, peaks[device]);
    if (!schedule.memory_limit.empty()) high = std::max(high, schedule.memory_limit[device]);
    for (const MemoryPoint& point : curves[device]) low = std::min(low, point.level);
  }
  const int decimals = placement.memory_decimals;
  for (int device = 0; device < placement.ndevs; ++device) {
    const double top = frame.row_y(device) + frame.row + 2, height = frame.strip - 4;
    auto y = [&](Memory level) {
      return top + height - height * static_cast<double>(level - low) / static_cast<double>(high - low);
    };
    svg << "<rect x=\"" << number(frame.left) << "\" y=\"" << number(top) << "\" width=\"" << number(frame.width())
        << "\" height=\"" << number(height) << "\" fill=\"#ffffff\" stroke=\"#d5d8dc\" stroke-width=\"0.5\"/>\n";
    // The level at the window's start, then every change inside it.
    const std::vector<MemoryPoint>& curve = curves[device];
    size_t at = 0;
    while (at + 1 < curve.size() && curve[at + 1].at <= frame.from) ++at;
    std::ostringstream line;
    line << "M" << number(frame.x(frame.from)) << " " << number(y(curve[at].level));
    for (++at; at < curve.size() && curve[at].at < frame.to; ++at)
      line << " H" << number(frame.x(curve[at].at)) << " V" << number(y(curve[at].level));
    line << " H" << number(frame.x(frame.to));
    svg << "<path class=\"memory\" d=\"" << line.str() << " V" << number(y(low)) << " H" << number(frame.x(frame.from))
        << " Z\" fill=\"#aed6f1\" stroke=\"none\"/>\n";
    svg << "<path d=\"" << line.str() << "\" fill=\"none\" stroke=\"#1f618d\" stroke-width=\"1.2\"/>\n";
    std::string text = "peak " + format_ticks(peaks[device], decimals);
    if (!schedule.memory_limit.empty()) {
      const Memory limit = schedule.memory_limit[device];
      svg << "<line class=\"limit\" x1=\"" << number(frame.left) << "\" y1=\"" << number(y(limit)) << "\" x2=\""
          << number(frame.left + frame.width()) << "\" y2=\"" << number(y(limit))
          << "\" stroke=\"#c0392b\" stroke-width=\"1\" stroke-dasharray=\"4,2\"/>\n";
      text += " / limit " + format_ticks(limit, decimals);
    }
    svg << "<text x=\"" << number(frame.left - 8) << "\" y=\"" << number(top + height / 2 + 3)
        << "\" font-size=\"9\" fill=\"#1f618d\" text-anchor=\"end\">memory</text>\n";
    svg << "<text x=\"" << number(frame.left + frame.width() + 6) << "\" y=\"" << number(top + height / 2 + 3)
        << "\" font-size=\"9\" fill=\"#1f618d\">" << text << "</text>\n";
  }
}

// A time of the file as the axis shows it: shifted decimal places (seconds
// as milliseconds), exact either way.
std::string axis_label(Time ticks, int decimals, int shift) {
  if (shift <= decimals) return format_ticks(ticks, decimals - shift);
  return format_ticks(ticks * power_of_ten(shift - decimals), 0);
}

void draw_axis(std::ostream& svg, const Frame& frame, int decimals, const SvgOptions& options) {
  const double y = frame.bottom() + 10;
  svg << "<line x1=\"" << number(frame.left) << "\" y1=\"" << number(y) << "\" x2=\""
      << number(frame.left + frame.width()) << "\" y2=\"" << number(y) << "\" stroke=\"#333333\"/>\n";
  const Time every = tick_every(frame.step, 36);
  for (Time t = (frame.from + every - 1) / every * every; t <= frame.to; t += every) {
    svg << "<line x1=\"" << number(frame.x(t)) << "\" y1=\"" << number(y) << "\" x2=\"" << number(frame.x(t))
        << "\" y2=\"" << number(y + 5) << "\" stroke=\"#333333\"/>\n";
    svg << "<text x=\"" << number(frame.x(t)) << "\" y=\"" << number(y + 17) << "\" font-size=\"10\""
        << " text-anchor=\"middle\">" << axis_label(t, decimals, options.axis_shift) << "</text>\n";
  }
  const std::string name = !options.axis_unit.empty() ? options.axis_unit : decimals == 0 ? "step" : "time";
  svg << "<text x=\"" << number(frame.left - 20) << "\" y=\"" << number(y + 17)
      << "\" font-size=\"10\" text-anchor=\"end\">" << escape(name) << "</text>\n";
}

// The legend, wrapped to `right`: a swatch and name per block, then the
// phases, memory and what the labels mean. Returns the y below it.
double draw_legend(std::ostream& svg, const Schedule& schedule, double y, double right, bool memory,
                   bool labels_dropped) {
  const Placement& placement = schedule.placement;
  const std::vector<BlockColour> palette = block_palette(placement);
  const std::vector<std::string> tags = block_tags(placement);
  const double start = 86;
  double x = start;
  auto place = [&](double width) {
    if (x > start && x + width > right) x = start, y += 20;
    const double at = x;
    x += width;
    return at;
  };
  auto entry = [&](const std::string& swatch, const std::string& text) {
    const double at = place(30 + text.size() * 6.6);
    svg << "<rect x=\"" << number(at) << "\" y=\"" << number(y - 10) << "\" width=\"14\" height=\"14\" " << swatch
        << "/>\n<text x=\"" << number(at + 19) << "\" y=\"" << number(y + 1) << "\" font-size=\"12\">" << escape(text)
        << "</text>\n";
  };
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    entry("fill=\"" + palette[b].fill + "\"", (tags[b] == block.id ? block.id : tags[b] + " = " + block.id) + " " +
                                                  kind_name(block.kind));
  }
  x = start, y += 22;
  if (schedule.repetend) {
    entry("fill=\"#fff3b0\" stroke=\"#c0392b\" stroke-dasharray=\"3,2\"", "repetend (copies alternate)");
    entry("fill=\"#e8eef4\"", "warmup / cooldown");
  }
  if (memory) entry("fill=\"#aed6f1\" stroke=\"#1f618d\"", "memory (red dashes: limit)");
  std::string note = "boxes: BLOCK:MICRO-BATCH";
  if (labels_dropped) note += " (the micro-batch alone or nothing where too narrow: draw wider or a shorter window)";
  const double at = place(note.size() * 6.2);
  svg << "<text x=\"" << number(at) << "\" y=\"" << number(y + 1) << "\" font-size=\"12\" fill=\"#555555\">"
      << escape(note) << "</text>\n";
  return y + 16;
}

bool has_memory(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  return std::any_of(placement.blocks.begin(), placement.blocks.end(), [](const Block& b) { return b.memory != 0; }) ||
         std::any_of(placement.static_memory.begin(), placement.static_memory.end(), [](Memory m) { return m != 0; });
}

}  // namespace

std::string svg_timeline(const Schedule& schedule, const SvgOptions& options) {
  const Placement& placement = schedule.placement;
  const bool memory = has_memory(schedule);
  const Frame frame = frame_of(schedule, options, memory);
  const int decimals = placement.time_decimals;
  const double right = frame.left + frame.width() + (memory ? 120 : 24);

  std::ostringstream body;
  draw_phases(body, frame, schedule);
  draw_rows(body, frame);
  const bool dropped = draw_boxes(body, frame, schedule);
  draw_choices(body, frame, schedule);
  if (memory) draw_memory(body, frame, schedule);
  draw_axis(body, frame, decimals, options);
  const double width = std::max(right, 600.0);
  const double height = draw_legend(body, schedule, frame.bottom() + 52, width - 12, memory, dropped) + 8;

  std::string title = options.title;
  if (title.empty()) {
    title = placement.name + ": " + std::to_string(schedule.nmicros) + " micro-batches, " +
            std::to_string(placement.ndevs) + " devices, makespan " + format_ticks(makespan(schedule), decimals) +
            (decimals == 0 ? " steps" : "");
    if (frame.from > 0 || frame.to < makespan(schedule))
      title += " (showing " + format_ticks(frame.from, decimals) + " to " + format_ticks(frame.to, decimals) + ")";
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\"" << number(height)
      << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg << "<text x=\"" << number(frame.left) << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << escape(title)
      << "</text>\n";
  svg << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace tessel
