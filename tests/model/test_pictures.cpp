// The pictures a person reads (docs/cli.md, "Pictures"): the text timeline,
// the SVG and the Chrome trace. Each test takes a schedule the verifier
// passes and checks a property a reader relies on: a cell names one block
// and one micro-batch, every block has its own colour and legend entry, the
// memory drawn equals the verifier's peak, the phases cover the schedule,
// and a window of a long schedule draws what lies in it.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cases/builtin_cases.hpp"
#include "classic/schemes.hpp"
#include "model/formats/chrome_trace.hpp"
#include "model/formats/picture_tracks.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"
#include "verify/verify.hpp"

using namespace tessel;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;

namespace {

Schedule scheme(const std::string& name, int ranks, int nmicros) {
  classic::SchemeRequest request;
  request.scheme = name;
  request.ranks = ranks;
  request.nmicros = nmicros;
  return classic::generate_scheme(request);
}

verify::Report require_valid(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
  return report;
}

// A two-device pipeline whose block ids mislead a kind-letter reading: the
// forward is named b0 and the backward f0 (one micro-batch's memory: +2, -2).
Schedule misleading_ids(int nmicros) {
  Schedule schedule;
  Placement& placement = schedule.placement;
  placement.name = "misleading";
  placement.ndevs = 2;
  placement.blocks = {{"b0", BlockKind::Forward, 1, 2, 0, {0}},
                      {"x1", BlockKind::Forward, 1, 2, 1, {1}},
                      {"y1", BlockKind::Backward, 2, -2, 1, {1}},
                      {"f0", BlockKind::Backward, 2, -2, 0, {0}}};
  placement.edges = {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}};
  schedule.nmicros = nmicros;
  schedule.memory_limit = {2 * nmicros, 2 * nmicros};
  // GPipe: all forwards, then all backwards in reverse.
  for (int m = 0; m < nmicros; ++m) {
    schedule.instances.push_back({0, m, m});
    schedule.instances.push_back({1, m, m + 1});
  }
  for (int m = 0; m < nmicros; ++m) {
    schedule.instances.push_back({2, nmicros - 1 - m, nmicros + 1 + 2 * m});
    schedule.instances.push_back({3, nmicros - 1 - m, nmicros + 3 + 2 * m});
  }
  sort_instances(schedule);
  return schedule;
}

// Rows of the text timeline: device -> cells (separators dropped), and the key.
struct ParsedTimeline {
  std::map<int, std::vector<std::string>> cells;
  std::string key;
};

ParsedTimeline parse_timeline(const std::string& text, int width) {
  ParsedTimeline parsed;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the ruler
  std::smatch match;
  while (std::getline(lines, line)) {
    if (!std::regex_match(line, match, std::regex(R"x(dev (\d+)(.*))x"))) {
      parsed.key += line + "\n";
      continue;
    }
    const std::string row = match[2];
    std::vector<std::string>& cells = parsed.cells[std::stoi(match[1])];
    for (size_t at = 1; at < row.size(); at += width + 1) {
      std::string cell = row.substr(at, width);
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
  }
  return parsed;
}

std::vector<std::string> all_matches(const std::string& text, const std::string& pattern, int group = 1) {
  std::vector<std::string> found;
  std::regex expression(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), expression); it != std::sregex_iterator(); ++it)
    found.push_back((*it)[group]);
  return found;
}

}  // namespace

TEST_CASE("pictures: a text cell names the block and the micro-batch, even for a block named f0", "[pictures]") {
  const Schedule schedule = misleading_ids(3);
  require_valid(schedule);
  const std::string text = render_timeline(schedule);
  const ParsedTimeline parsed = parse_timeline(text, 4);
  // Every step of every instance reads BLOCK:MICRO of exactly that instance.
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    const Block& block = schedule.placement.blocks[instance.block];
    for (Time step = instance.start; step < ends[i]; ++step)
      CHECK(parsed.cells.at(block.devices.front()).at(step) == block.id + ":" + std::to_string(instance.micro));
  }
  // The backward named f0 is never shown as a forward: the key says what f0 is.
  CHECK_THAT(parsed.key, Catch::Contains("b0 forward") && Catch::Contains("f0 backward") &&
                             Catch::Contains("BLOCK:MICRO-BATCH"));
  CHECK(text.find("f0:0") > text.find("b0:0"));  // on device 0 the forward (b0) runs first
}

TEST_CASE("pictures: long or unusual block ids become numbered tags mapped in the key", "[pictures]") {
  Schedule schedule = misleading_ids(2);
  schedule.placement.blocks[1].id = "layer.1 forward";
  require_valid(schedule);
  const std::vector<std::string> tags = block_tags(schedule.placement);
  CHECK(tags == std::vector<std::string>{"0", "1", "2", "3"});
  const std::string text = render_timeline(schedule);
  CHECK_THAT(text, Catch::Contains("1 = layer.1 forward forward") && Catch::Contains("3 = f0 backward") &&
                       Catch::Contains("dev 1 .   1:0 1:1 2:1 2:1 2:0 2:0"));
}

TEST_CASE("pictures: fused units join their members, one micro-batch written once", "[pictures]") {
  const Schedule schedule = scheme("dualpipev", 4, 8);
  require_valid(schedule);
  REQUIRE_FALSE(schedule.fused.empty());
  const std::string text = render_timeline(schedule);
  const std::vector<std::string> tags = block_tags(schedule.placement);
  for (const FusedUnit& unit : schedule.fused) {
    std::string expected;
    for (size_t m = 0; m < unit.members.size(); ++m) {
      expected += (m ? "+" : "") + tags[unit.members[m].block];
      if (m + 1 == unit.members.size() || unit.members[m + 1].micro != unit.members[m].micro)
        expected += ":" + std::to_string(unit.members[m].micro);
    }
    CHECK_THAT(text, Catch::Contains(expected));
  }
  CHECK_THAT(text, Catch::Contains("+ a fused unit"));
}

TEST_CASE("pictures: the SVG gives every block its own fill and a legend entry", "[pictures]") {
  for (const Schedule& schedule : {scheme("zb-v", 4, 8), scheme("interleaved-1f1b", 4, 8), scheme("1f1b", 4, 8)}) {
    require_valid(schedule);
    const std::string svg = svg_timeline(schedule);
    // Box fills by block id, from the boxes' tooltips.
    std::map<std::string, std::set<std::string>> fills;
    std::regex box(R"x(fill="(#[0-9a-f]{6})"><title>(\S+) micro)x");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), box); it != std::sregex_iterator(); ++it)
      fills[(*it)[2]].insert((*it)[1]);
    INFO(schedule.placement.name);
    REQUIRE(fills.size() == schedule.placement.blocks.size());
    std::set<std::string> distinct;
    for (const auto& [block, colours] : fills) {
      CHECK(colours.size() == 1);  // one colour per block, every time it runs
      distinct.insert(*colours.begin());
      // The legend names the block beside its swatch.
      CHECK_THAT(svg, Catch::Contains("fill=\"" + *colours.begin() + "\"/>\n<text") && Catch::Contains(">" + block + " "));
    }
    CHECK(distinct.size() == schedule.placement.blocks.size());
    CHECK(svg_timeline(schedule) == svg);  // deterministic
  }
}

TEST_CASE("pictures: SVG boxes carry BLOCK:MICRO where wide enough, the micro-batch where not", "[pictures]") {
  const Schedule schedule = scheme("1f1b", 4, 8);
  const std::string wide = svg_timeline(schedule, {2000, ""});
  const std::vector<std::string> labels = all_matches(wide, R"x(class="label"[^>]*>([^<]+)</text>)x");
  std::set<std::string> expected;
  for (const Instance& instance : schedule.instances)
    expected.insert(schedule.placement.blocks[instance.block].id + ":" + std::to_string(instance.micro));
  CHECK(std::set<std::string>(labels.begin(), labels.end()) == expected);
  const std::string narrow = svg_timeline(schedule, {400, ""});
  // Narrow boxes (the forwards, one step of 12 pixels) keep the micro-batch alone.
  size_t alone = 0;
  for (const std::string& label : all_matches(narrow, R"x(class="label"[^>]*>([^<]+)</text>)x")) {
    alone += std::regex_match(label, std::regex(R"x(\d+)x"));
    CHECK((std::regex_match(label, std::regex(R"x(\d+)x")) || expected.count(label)));
  }
  CHECK(alone >= 32);
  CHECK_THAT(narrow, Catch::Contains("draw wider or a shorter window"));
}

TEST_CASE("pictures: the memory drawn is the verifier's peak, static memory and limit included", "[pictures]") {
  Schedule schedule = scheme("zb-h1", 4, 8);
  schedule.placement.static_memory = {5, 3, 2, 0};
  for (int device = 0; device < 4; ++device) schedule.memory_limit[device] += schedule.placement.static_memory[device];
  const verify::Report report = require_valid(schedule);

  const std::string svg = svg_timeline(schedule);
  const std::vector<std::string> peaks = all_matches(svg, R"x(>peak (-?\d+) / limit (\d+)<)x");
  const std::vector<std::string> limits = all_matches(svg, R"x(>peak (-?\d+) / limit (\d+)<)x", 2);
  REQUIRE(peaks.size() == 4);
  for (int device = 0; device < 4; ++device) {
    CHECK(std::stoll(peaks[device]) == report.peak_memory[device]);
    CHECK(std::stoll(limits[device]) == report.memory_limit[device]);
  }
  CHECK(all_matches(svg, R"x(class="memory" d="([^"]+)")x").size() == 4);
  CHECK(all_matches(svg, R"x(class="(limit)")x").size() == 4);

  const nlohmann::json trace = nlohmann::json::parse(chrome_trace(schedule).dump());
  std::map<int, long long> highest, limit;
  for (const nlohmann::json& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    const int device = event["pid"];
    if (event["name"] == "memory limit") {
      limit[device] = event["args"]["memory limit"];
      continue;
    }
    REQUIRE(event["name"] == "memory");
    const long long level = event["args"]["memory"];
    highest[device] = highest.count(device) ? std::max(highest[device], level) : level;
  }
  REQUIRE(highest.size() == 4);
  for (int device = 0; device < 4; ++device) {
    CHECK(highest[device] == report.peak_memory[device]);
    CHECK(limit[device] == report.memory_limit[device]);
  }
}

TEST_CASE("pictures: the trace marks warmup, every repetend copy and cooldown on their own track", "[pictures]") {
  Schedule repetend = scheme("1f1b", 4, 8);
  const Schedule schedule = unroll(repetend, 24);
  require_valid(schedule);
  REQUIRE(schedule.repetend);
  const Repetend& claim = *schedule.repetend;
  const nlohmann::json trace = nlohmann::json::parse(chrome_trace(schedule).dump());
  const int phases_pid = schedule.placement.ndevs;
  std::vector<std::pair<long long, long long>> copies;
  std::map<std::string, std::pair<long long, long long>> named;
  for (const nlohmann::json& event : trace["traceEvents"]) {
    if (event["ph"] != "X" || event["pid"] != phases_pid) continue;
    const long long ts = event["ts"], dur = event["dur"];
    const std::string name = event["name"];
    if (name.rfind("repetend copy ", 0) == 0) copies.push_back({ts, ts + dur});
    else named[name] = {ts, ts + dur};
  }
  REQUIRE(named.count("warmup"));
  REQUIRE(named.count("steady"));
  REQUIRE(named.count("cooldown"));
  CHECK(named["warmup"] == std::make_pair(0LL, claim.start));
  CHECK(named["steady"] == std::make_pair(claim.start, claim.end));
  CHECK(named["cooldown"] == std::make_pair(claim.end, makespan(schedule)));
  REQUIRE(copies.size() == static_cast<size_t>((claim.end - claim.start) / claim.period));
  for (size_t c = 0; c < copies.size(); ++c)
    CHECK(copies[c] == std::make_pair(claim.start + static_cast<long long>(c) * claim.period,
                                      claim.start + static_cast<long long>(c + 1) * claim.period));
  // Instances are named by block id and micro-batch on their device's process.
  int instances = 0;
  for (const nlohmann::json& event : trace["traceEvents"])
    if (event["ph"] == "X" && event["cat"] != "phase") {
      ++instances;
      const std::string block = event["args"]["block"];
      CHECK(event["name"] == block + ":" + std::to_string(event["args"]["micro"].get<int>()));
      CHECK(event["pid"] == event["tid"]);
    }
  CHECK(instances == static_cast<int>(schedule.instances.size()));
}

TEST_CASE("pictures: the SVG shades the phases and draws a window of a long schedule", "[pictures]") {
  const Schedule schedule = unroll(scheme("1f1b", 4, 8), 128);
  require_valid(schedule);
  const std::string whole = svg_timeline(schedule);
  CHECK(all_matches(whole, R"x(class="(phase)")x").size() == schedule_phases(schedule).size());
  CHECK(all_matches(whole, "(<title>)").size() == schedule.instances.size());
  CHECK_THAT(svg_timeline(schedule, {1200, "", 0, 60}), Catch::Contains(">warmup<"));
  CHECK_THAT(svg_timeline(schedule, {1200, "", 340, 393}), Catch::Contains(">cooldown<"));
  // A window of 60 steps drawn 2400 pixels wide: 32 pixels a step (the
  // most), every label whole.
  SvgOptions window{2400, "", 200, 260};
  const std::string part = svg_timeline(schedule, window);
  const std::vector<Time> ends = instance_ends(schedule);
  size_t inside = 0;
  for (size_t i = 0; i < schedule.instances.size(); ++i)
    if (schedule.instances[i].start < 260 && ends[i] > 200) inside += schedule.placement.blocks[schedule.instances[i].block].devices.size();
  CHECK(all_matches(part, "(<title>)").size() == inside);
  CHECK(all_matches(part, R"x(class="label"[^>]*>(\w+:\d+)</text>)x").size() == inside);
  CHECK_THAT(part, Catch::Contains("(showing 200 to 260)"));
}

TEST_CASE("pictures on the command line: windows, the trace as JSON, bad windows exit 2", "[pictures][cli]") {
  TempDir dir;
  REQUIRE(run_tessel("generate 1f1b --stages 4 --nmicros 8 -o " + dir.file("s.json")).exit_code == 0);
  auto shown = run_tessel("show " + dir.file("s.json") + " --start 10 --end 16");
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("\n      10\ndev 0|b0:0 b0:0 f0:4 b0:1 b0:1 f0:5\n") &&
                            Catch::Contains("(showing steps 10..15 of 33)") && Catch::Contains("b0 backward"));
  REQUIRE(run_tessel("export --to svg " + dir.file("s.json") + " --start 10 --end 16 -o " + dir.file("s.svg")).exit_code ==
          0);
  CHECK_THAT(testing::read_text(dir.file("s.svg")), Catch::Contains("(showing 10 to 16)"));
  auto trace = run_tessel("export --to chrome-trace " + dir.file("s.json"));
  REQUIRE(trace.exit_code == 0);
  size_t counters = 0;
  const nlohmann::json document = nlohmann::json::parse(trace.out);
  for (const nlohmann::json& event : document["traceEvents"]) counters += event["ph"] == "C";
  CHECK(counters > 8);
  for (std::string bad : {" --start 10 --end 5", " --start abc", " --start 1.5", " --start 40"}) {
    auto refused = run_tessel("show " + dir.file("s.json") + bad);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Catch::Contains("--start") || Catch::Contains("--end"));
  }
  auto trace_window = run_tessel("export --to chrome-trace " + dir.file("s.json") + " --start 3");
  CHECK(trace_window.exit_code == 2);
  CHECK_THAT(trace_window.err, Catch::Contains("applies to --to svg only"));
}
