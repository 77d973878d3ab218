// Drawing the SVG timeline. Geometry first (step width, rows), then the
// layers back to front: repetend shading, boxes, labels, axis, legend.
#include "model/formats/svg_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "model/formats/chrome_trace.hpp"

namespace tessel {

namespace {

struct KindStyle {
  const char* kind;
  const char* fill;
  const char* text;
  const char* label;
};

// Colour-blind-safe palette (Tableau 10), one colour per kind.
const KindStyle kStyles[] = {
    {"forward", "#4e79a7", "#ffffff", "forward (F)"},
    {"backward", "#f28e2b", "#000000", "backward (B)"},
    {"backward_input", "#59a14f", "#ffffff", "input backward (B / I)"},
    {"backward_weight", "#b07aa1", "#ffffff", "weight backward (W)"},
};
const KindStyle kOther = {"other", "#9c9c9c", "#000000", "other"};

const KindStyle& style_of(const std::string& kind) {
  for (const KindStyle& style : kStyles)
    if (kind == style.kind) return style;
  return kOther;
}

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

// The colour halfway to white (opaque, so that shading behind stays hidden).
std::string lighter(const std::string& hex) {
  static const char* digits = "0123456789abcdef";
  std::string out = "#";
  for (int i = 1; i + 1 < static_cast<int>(hex.size()); i += 2) {
    int value = std::stoi(hex.substr(i, 2), nullptr, 16);
    value = value + (255 - value) * 45 / 100;
    out += digits[value / 16];
    out += digits[value % 16];
  }
  return out;
}

constexpr double kMaxSvgPixels = 200000;

// A tick every 1, 2, 5, 10, 20, 50, ... steps, at least `min_pixels` apart.
int tick_every(double step_width, double min_pixels) {
  for (int scale = 1;; scale *= 10)
    for (int factor : {1, 2, 5})
      if (factor * scale * step_width >= min_pixels) return factor * scale;
}

}  // namespace

std::string svg_timeline(const Schedule& schedule, const SvgOptions& options) {
  const Placement& placement = schedule.placement;
  Time span_total = std::max<Time>(makespan(schedule), 1);
  // At least a pixel per step, unless that would make the picture wider than
  // kMaxSvgPixels: a late start of 1e9 steps once meant 2e7 tick marks.
  const double narrowest = std::min(1.0, kMaxSvgPixels / static_cast<double>(span_total));
  double step = std::clamp(static_cast<double>(options.width) / span_total, narrowest, 32.0);
  const double left = 78, top = 44, row = 28, gap = 6;
  double timeline_width = step * span_total;
  double rows_bottom = top + placement.ndevs * (row + gap) - gap;
  double axis_y = rows_bottom + 8;
  double legend_y = axis_y + 40;
  double width = left + timeline_width + 24;
  double height = legend_y + 30;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  std::string title = options.title;
  if (title.empty())
    title = placement.name + ": " + std::to_string(schedule.nmicros) + " micro-batches, " +
            std::to_string(placement.ndevs) + " devices, makespan " + std::to_string(makespan(schedule)) +
            " steps";
  svg << "<text x=\"" << number(left) << "\" y=\"24\" font-size=\"15\" font-weight=\"bold\">" << escape(title)
      << "</text>\n";

  // Row backgrounds and device labels.
  for (int device = 0; device < placement.ndevs; ++device) {
    double y = top + device * (row + gap);
    svg << "<rect x=\"" << number(left) << "\" y=\"" << number(y) << "\" width=\"" << number(timeline_width)
        << "\" height=\"" << number(row) << "\" fill=\"#f3f3f3\"/>\n";
    svg << "<text x=\"" << number(left - 8) << "\" y=\"" << number(y + row / 2 + 4)
        << "\" font-size=\"12\" text-anchor=\"end\">device " << device << "</text>\n";
  }

  // The repetend window: shaded, with dashed borders, labelled above.
  if (schedule.repetend) {
    const Repetend& repetend = *schedule.repetend;
    double x0 = left + repetend.start * step, x1 = left + repetend.end * step;
    svg << "<rect x=\"" << number(x0) << "\" y=\"" << number(top - 6) << "\" width=\"" << number(x1 - x0)
        << "\" height=\"" << number(rows_bottom - top + 12) << "\" fill=\"#fff3b0\"/>\n";
    for (double x : {x0, x1})
      svg << "<line x1=\"" << number(x) << "\" y1=\"" << number(top - 8) << "\" x2=\"" << number(x)
          << "\" y2=\"" << number(rows_bottom + 6) << "\" stroke=\"#c0392b\" stroke-width=\"1.5\""
          << " stroke-dasharray=\"5,3\"/>\n";
    // Where the window holds several periods (an unrolled schedule), a thin
    // dotted line at each period, while they stay a few pixels apart.
    if (repetend.period > 0 && repetend.period * step >= 4)
      for (int at = repetend.start + repetend.period; at < repetend.end; at += repetend.period)
        svg << "<line class=\"period\" x1=\"" << number(left + at * step) << "\" y1=\"" << number(top - 6)
            << "\" x2=\"" << number(left + at * step) << "\" y2=\"" << number(rows_bottom + 6)
            << "\" stroke=\"#c0392b\" stroke-width=\"0.8\" stroke-dasharray=\"1,3\"/>\n";
    svg << "<text x=\"" << number((x0 + x1) / 2) << "\" y=\"" << number(top - 10)
        << "\" font-size=\"11\" fill=\"#c0392b\" text-anchor=\"middle\">repetend (period " << repetend.period;
    // A window of k > 1 micro-batches: say so, and its period per micro-batch.
    if (repetend.micros_per_period > 1)
      svg << " for " << repetend.micros_per_period << " micro-batches, "
          << number(static_cast<double>(repetend.period) / repetend.micros_per_period) << " per micro-batch";
    svg << ")</text>\n";
  }

  // A device running several blocks of one kind (model chunks) shows the
  // later ones in a lighter shade, so that chunks can be told apart.
  std::vector<int> chunk(placement.blocks.size(), 0);
  {
    std::map<std::pair<int, BlockKind>, int> seen;
    for (int block : topological_order(placement)) {
      const Block& b = placement.blocks[block];
      chunk[block] = seen[{b.devices.front(), b.kind}]++;
    }
  }
  bool chunks_shaded = false;

  // Boxes, then labels where they fit.
  double font = 11;
  double gutter = step >= 6 ? 1 : 0;
  std::set<std::string> kinds_used;
  // A fused unit's members share its steps, each in a band of the row.
  std::map<std::pair<int, int>, std::pair<int, int>> band;  // member -> (index, members)
  for (const FusedUnit& unit : schedule.fused)
    for (size_t m = 0; m < unit.members.size(); ++m)
      band[{unit.members[m].block, unit.members[m].micro}] = {static_cast<int>(m), static_cast<int>(unit.members.size())};
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    const KindStyle& style = style_of(kind_name(block.kind));
    kinds_used.insert(style.kind);
    if (chunk[instance.block] > 0) chunks_shaded = true;
    double x = left + instance.start * step;
    double w = std::max((ends[i] - instance.start) * step - gutter, 0.5);
    auto in_unit = band.find({instance.block, instance.micro});
    double height = in_unit == band.end() ? row : row / in_unit->second.second;
    double offset = in_unit == band.end() ? 0 : height * in_unit->second.first;
    for (int device : block.devices) {
      double y = top + device * (row + gap) + offset;
      svg << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w)
          << "\" height=\"" << number(height) << "\" fill=\""
          << (chunk[instance.block] > 0 ? lighter(style.fill) : std::string(style.fill)) << "\"><title>"
          << escape(block.id)
          << " micro " << instance.micro << ", steps " << instance.start << ".." << ends[i]
          << (in_unit == band.end() ? "" : " (fused)") << "</title></rect>\n";
      std::string label = std::to_string(instance.micro);
      // Shrink the label to the box, down to a still readable size.
      double size = std::min({font, (w - 2) / (label.size() * 0.62), height * 0.9});
      if (size < 6.5) continue;
      svg << "<text x=\"" << number(x + w / 2) << "\" y=\"" << number(y + height / 2 + size * 0.36)
          << "\" font-size=\"" << number(size) << "\" fill=\"" << (chunk[instance.block] > 0 ? "#1a1a1a" : style.text)
          << "\" text-anchor=\"middle\">" << label << "</text>\n";
    }
  }

  // Step axis with ticks.
  svg << "<line x1=\"" << number(left) << "\" y1=\"" << number(axis_y) << "\" x2=\""
      << number(left + timeline_width) << "\" y2=\"" << number(axis_y) << "\" stroke=\"#333333\"/>\n";
  int every = tick_every(step, 36);
  for (int t = 0; t <= span_total; t += every) {
    double x = left + t * step;
    svg << "<line x1=\"" << number(x) << "\" y1=\"" << number(axis_y) << "\" x2=\"" << number(x) << "\" y2=\""
        << number(axis_y + 5) << "\" stroke=\"#333333\"/>\n";
    svg << "<text x=\"" << number(x) << "\" y=\"" << number(axis_y + 17) << "\" font-size=\"10\""
        << " text-anchor=\"middle\">" << t << "</text>\n";
  }
  svg << "<text x=\"" << number(left - 8) << "\" y=\"" << number(axis_y + 17)
      << "\" font-size=\"10\" text-anchor=\"end\">step</text>\n";

  // Legend: the kinds that appear, in a fixed order.
  double x = left;
  auto legend_entry = [&](const KindStyle& style) {
    svg << "<rect x=\"" << number(x) << "\" y=\"" << number(legend_y - 10) << "\" width=\"14\" height=\"14\""
        << " fill=\"" << style.fill << "\"/>\n";
    svg << "<text x=\"" << number(x + 19) << "\" y=\"" << number(legend_y + 1) << "\" font-size=\"12\">"
        << style.label << "</text>\n";
    x += 34 + std::string(style.label).size() * 7;
  };
  for (const KindStyle& style : kStyles)
    if (kinds_used.count(style.kind)) legend_entry(style);
  if (kinds_used.count("other")) legend_entry(kOther);
  if (schedule.repetend) {
    svg << "<rect x=\"" << number(x) << "\" y=\"" << number(legend_y - 10) << "\" width=\"14\" height=\"14\""
        << " fill=\"#fff3b0\" stroke=\"#c0392b\" stroke-dasharray=\"3,2\"/>\n";
    svg << "<text x=\"" << number(x + 19) << "\" y=\"" << number(legend_y + 1)
        << "\" font-size=\"12\">repetend window</text>\n";
    x += 150;
  }
  std::string note = "numbers: micro-batch";
  if (chunks_shaded) note += "; lighter: a later block of the same kind on the device (model chunk)";
  svg << "<text x=\"" << number(x + 10) << "\" y=\"" << number(legend_y + 1)
      << "\" font-size=\"12\" fill=\"#555555\">" << note << "</text>\n";
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tessel
