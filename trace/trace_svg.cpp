// Drawing trace/trace_svg.hpp: a row per rank in each of two panels; compute
// actions as boxes coloured by kind and labelled `<stage><kind><micro>`,
// sends and receives as thin grey bars under the row.
#include "trace/trace_svg.hpp"

#include <algorithm>
#include <sstream>

namespace tessel {

namespace {

constexpr double kWidth = 1000, kRow = 22, kLeft = 70, kPanelGap = 40;

const char* colour(const std::string& kind) {
  if (kind == "F") return "#4e79a7";
  if (kind == "B") return "#59a14f";
  if (kind == "I") return "#f28e2b";
  if (kind == "W") return "#b07aa1";
  if (kind == kRecomputeKind) return "#e15759";
  return "#aaaaaa";
}

struct Box {
  int rank;
  double start, duration;
  std::string kind, label;
};

void draw_panel(std::ostringstream& out, const std::string& title, const std::vector<Box>& boxes, int ranks,
                double top, double per_unit) {
  out << "<text x=\"4\" y=\"" << top - 6 << "\" font-size=\"13\" font-weight=\"bold\">" << title << "</text>\n";
  for (int r = 0; r < ranks; ++r)
    out << "<text x=\"4\" y=\"" << top + r * kRow + 15 << "\" font-size=\"11\">rank " << r << "</text>\n";
  for (const Box& b : boxes) {
    double x = kLeft + b.start * per_unit, w = std::max(0.5, b.duration * per_unit);
    bool recompute = b.kind == kRecomputeKind;
    bool compute = b.kind == "F" || b.kind == "B" || b.kind == "I" || b.kind == "W" || recompute;
    double y = top + b.rank * kRow + (compute ? 1 : kRow - 5), h = compute ? kRow - 6 : 3;
    out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\""
        << colour(b.kind) << "\"><title>" << range_name(b.label) << "</title></rect>\n";
    if (compute && !recompute && w > 18)
      out << "<text x=\"" << x + 2 << "\" y=\"" << y + 12 << "\" font-size=\"9\" fill=\"white\">" << b.label
          << "</text>\n";
  }
}

}  // namespace

std::string trace_svg(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace,
                      const TraceCheck& check) {
  const int ranks = schedule.placement.ndevs;
  const double scale = check.scale > 0 ? check.scale : 1;
  std::vector<Box> planned, achieved;
  for (const Instance& instance : schedule.instances) {
    const Block& block = schedule.placement.blocks[instance.block];
    std::string kind = block.kind == BlockKind::Forward ? "F" : block.kind == BlockKind::Backward ? "B"
                     : block.kind == BlockKind::BackwardInput ? "I" : "W";
    std::string label = (block.stage ? std::to_string(*block.stage) : block.id) + kind + std::to_string(instance.micro);
    planned.push_back({block.devices.front(), instance.start * scale, block.span * scale, kind, label});
  }
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = schedule.placement.blocks[run.block];
    std::string label = std::string(kRecomputeRange) + (block.stage ? std::to_string(*block.stage) : block.id) + "F" +
                        std::to_string(run.micro);
    planned.push_back({block.devices.front(), run.start * scale, block.recompute->span * scale, kRecomputeKind, label});
  }
  // The first step: each rank's first len(plan) actions, from the step's start.
  double begin = 1e300;
  for (const auto& rank : trace)
    if (!rank.empty()) begin = std::min(begin, rank.front().start);
  double first_step = check.step_times.empty() ? 0 : check.step_times.front();
  for (size_t r = 0; r < trace.size() && static_cast<int>(r) < ranks; ++r)
    for (const TracedAction& a : trace[r])
      if (a.start - begin <= first_step) achieved.push_back({static_cast<int>(r), a.start - begin, a.duration, a.kind, a.name});
  const double span = std::max({1.0, makespan(schedule) * scale, first_step});
  const double per_unit = (kWidth - kLeft - 10) / span;
  const double panel = ranks * kRow;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\""
      << 2 * panel + 2 * kPanelGap + 10 << "\" font-family=\"sans-serif\">\n";
  draw_panel(out, "planned (makespan x the run's scale)", planned, ranks, kPanelGap - 10, per_unit);
  draw_panel(out, "achieved (step 1)", achieved, ranks, 2 * kPanelGap - 10 + panel, per_unit);
  out << "</svg>\n";
  return out.str();
}

}  // namespace tessel
