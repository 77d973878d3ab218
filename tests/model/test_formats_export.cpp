// Chrome trace and SVG exports: parsed back and checked for what a viewer
// needs; the SVG is rendered with rsvg-convert when the tool is installed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "classic/schemes.hpp"
#include "model/formats/chrome_trace.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/placement_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::read_text;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;

namespace {

Schedule one_f_one_b(int ranks, int nmicros) {
  classic::SchemeRequest request;
  request.scheme = "1f1b";
  request.ranks = ranks;
  request.nmicros = nmicros;
  return classic::generate_scheme(request);
}

size_t count(const std::string& text, const std::string& what) {
  size_t found = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
  return found;
}

}  // namespace

TEST_CASE("the chrome trace has one track per device and one event per instance", "[formats]") {
  Schedule schedule = one_f_one_b(4, 8);
  nlohmann::json trace = nlohmann::json::parse(chrome_trace(schedule).dump());
  int complete = 0, names = 0;
  bool saw_first = false, saw_last_backward = false;
  for (const nlohmann::json& event : trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") ++names;
    if (event["ph"] != "X" || event["cat"] == "phase") continue;
    ++complete;
    if (event["name"] == "f0:0" && event["tid"] == 0) {
      saw_first = true;
      CHECK(event["ts"] == 0);
      CHECK(event["dur"] == 1);
      CHECK(event["args"]["micro"] == 0);
      CHECK(event["args"]["block"] == "f0");
    }
    if (event["name"] == "b0:7" && event["tid"] == 0) {
      saw_last_backward = true;
      CHECK(event["ts"] == 31);  // 1F1B: makespan 3(m+p-1) = 33, last B spans 2
      CHECK(event["dur"] == 2);
      CHECK(event["args"]["block"] == "b0");
    }
  }
  CHECK(complete == 64);
  CHECK(names == 5);  // the devices and the schedule's phases
  CHECK(saw_first);
  CHECK(saw_last_backward);
}

TEST_CASE("the SVG timeline has a box per instance, labels, legend, axis and the repetend", "[formats]") {
  Schedule schedule = one_f_one_b(4, 8);
  schedule.repetend.reset();
  std::string svg = svg_timeline(schedule);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(count(svg, "<title>") == schedule.instances.size());
  CHECK(count(svg, "device ") >= 4);
  CHECK_THAT(svg, Catch::Contains(">f0 forward<") && Catch::Contains(">b0 backward<") && Catch::Contains(">step<"));
  CHECK_FALSE(Catch::Contains("repetend").match(svg));
  // Labels fit at this size: every box carries its micro-batch.
  CHECK(count(svg, "text-anchor=\"middle\">") >= schedule.instances.size());

  schedule.repetend = Repetend{12, 15, 3, 1};
  std::string marked = svg_timeline(schedule);
  CHECK_THAT(marked, Catch::Contains("repetend (period 3)") && Catch::Contains("stroke-dasharray"));

  // A 500-step schedule stays the same width and drops labels that do not fit.
  Schedule long_one = one_f_one_b(8, 160);
  std::string wide = svg_timeline(long_one);
  std::smatch size;
  REQUIRE(std::regex_search(wide, size, std::regex("width=\"([0-9.]+)\"")));
  CHECK(std::stod(size[1].str()) < 1450);  // 1200 for the timeline, margins and the memory text
  CHECK(count(wide, "text-anchor=\"middle\">") < long_one.instances.size() / 2);
}

TEST_CASE("export writes the three formats from a schedule file", "[formats][cli]") {
  TempDir dir;
  REQUIRE(run_tessel("generate zb-h2 --stages 4 --nmicros 8 -o " + dir.file("s.json")).exit_code == 0);
  auto trace = run_tessel("export --to chrome-trace " + dir.file("s.json"));
  REQUIRE(trace.exit_code == 0);
  CHECK(nlohmann::json::parse(trace.out)["traceEvents"].size() > 96);
  REQUIRE(run_tessel("export --to svg " + dir.file("s.json") + " -o " + dir.file("s.svg")).exit_code == 0);
  CHECK_THAT(read_text(dir.file("s.svg")), Catch::Contains("backward_weight<"));
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") == 0) {
    std::string render = "rsvg-convert -o " + dir.file("s.png") + " " + dir.file("s.svg");
    CHECK(std::system(render.c_str()) == 0);
  }
  auto bad = run_tessel("export --to png " + dir.file("s.json"));
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("unknown format 'png'"));
  CHECK(run_tessel("export --to svg " + dir.file("missing.json")).exit_code == 2);
}

TEST_CASE("generate on the command line: --report, verify, bad options", "[classic][cli]") {
  TempDir dir;
  auto result = run_tessel("generate 1f1b --stages 4 --nmicros 8 -o " + dir.file("g.json") + " --report");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("makespan 33") && Catch::Contains("bubble ratio 0.2727") &&
                             Catch::Contains("[4, 3, 2, 1]"));
  CHECK(run_tessel("verify " + dir.file("g.json")).exit_code == 0);
  // The stage placement alone, for `tessel search` on the same problem.
  REQUIRE(run_tessel("generate zb-v --stages 2 --nmicros 4 -o " + dir.file("v.json") + " --placement-out " +
                     dir.file("v.placement.json"))
              .exit_code == 0);
  Placement stage_placement = read_placement_file(dir.file("v.placement.json"));
  CHECK(placement_to_json(stage_placement) == placement_to_json(read_schedule_file(dir.file("v.json")).placement));
  CHECK(stage_placement.blocks.size() == 12);
  // A limit below the peak is refused (exit 1, nothing written): the
  // scheme's order is fixed, so no schedule of it keeps that limit.
  auto low = run_tessel("generate 1f1b --stages 4 --nmicros 8 --memory-limit 3 -o " + dir.file("low.json"));
  CHECK(low.exit_code == 1);
  CHECK_THAT(low.err, Catch::Contains("needs memory [4, 3, 2, 1]"));
  CHECK_FALSE(std::filesystem::exists(dir.file("low.json")));
  CHECK(run_tessel("generate 1f1b --stages 4 --nmicros 8 --memory-limit 4 --report").exit_code == 0);

  auto unknown = run_tessel("generate 3f3b --stages 4 --nmicros 8");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("unknown scheme"));
  CHECK(run_tessel("generate 1f1b --stages 0 --nmicros 8").exit_code == 2);
  auto span = run_tessel("generate 1f1b --stages 2 --nmicros 2 --span F=0");
  CHECK(span.exit_code == 2);
  CHECK_THAT(span.err, Catch::Contains("--span"));
  CHECK(run_tessel("generate 1f1b --stages 2 --nmicros 2 --span X=1").exit_code == 2);
  CHECK(run_tessel("generate 1f1b --stages 2 --nmicros 2 --memory W=-1").exit_code == 2);
  CHECK(run_tessel("generate --help").exit_code == 0);
}
