// Windows of k > 1 micro-batches outside the search: the k = 2 fixture
// (vshape on 3 devices under memory 2, where a window of 2 micro-batches
// reaches 6 steps per micro-batch and k = 1 needs 8) is searched again,
// unrolled to every N from 1 (partial windows included), shown, exported
// and verified; a corrupted copy is rejected for the right reason; dropping
// micro-batches that would break the memory limit is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "model/formats/chrome_trace.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/input_error.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::unroll_error;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;

namespace {

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/data/";
const std::string kPlacementFile = kData + "windows_vshape3.placement.json";
const std::string kFixtureFile = kData + "windows_vshape3_k2.schedule.json";

Schedule fixture() { return read_schedule_file(kFixtureFile); }

verify::Report require_valid(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
  return report;
}

// (block, micro) -> start of every instance.
std::map<std::pair<int, int>, int> starts_of(const Schedule& schedule) {
  std::map<std::pair<int, int>, int> starts;
  for (const Instance& instance : schedule.instances) starts[{instance.block, instance.micro}] = instance.start;
  return starts;
}

}  // namespace

TEST_CASE("windows io: the fixture is a k = 2 window that beats every k = 1 repetend", "[windows_io]") {
  Schedule schedule = fixture();
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->micros_per_period == 2);
  CHECK(schedule.repetend->period == 12);
  CHECK(period_lower_bound(schedule.placement) == 4);
  require_valid(schedule);

  // Searching the placement again gives the same window and its proof; k = 1
  // cannot go below 8 steps per micro-batch, the window reaches 12 / 2 = 6.
  TempDir dir;
  auto two = run_tessel("search --placement " + kPlacementFile +
                        " --memory 2 --micros-per-window 2 --tune boundary_seconds=1 --json -o " + dir.file("k2.json"));
  REQUIRE(two.exit_code == 0);
  nlohmann::json found = nlohmann::json::parse(two.out);
  CHECK(found["micros_per_period"] == 2);
  CHECK(found["period"] == 12);
  CHECK(found["proven_lower_bound"] == 12);
  CHECK(found["optimal"] == true);
  Schedule again = read_schedule_file(dir.file("k2.json"));
  require_valid(again);
  REQUIRE(again.repetend);
  CHECK(again.repetend->period == schedule.repetend->period);
  CHECK(again.repetend->micros_per_period == 2);

  auto one = run_tessel("search --placement " + kPlacementFile + " --memory 2 --micros-per-window 1 --json");
  REQUIRE(one.exit_code == 0);
  nlohmann::json single = nlohmann::json::parse(one.out);
  CHECK(single["period"] == 8);
  CHECK(single["proven_lower_bound"] == 8);
  CHECK(found["period"].get<int>() < 2 * single["period"].get<int>());
}

TEST_CASE("windows io: a k = 2 schedule unrolls to every N and passes the verifier", "[windows_io]") {
  const Schedule schedule = fixture();
  const int k = schedule.repetend->micros_per_period;
  const int period = schedule.repetend->period;
  const int smallest = smallest_unroll(schedule);
  std::set<int> counts = {k, 2 * k + 1, 64, smallest, smallest + 1, smallest + 2 * k + 1};
  for (int n = 1; n <= 3 * k + 1; ++n) counts.insert(n);
  for (int n : counts) {
    INFO("unrolled to " << n << " micro-batches");
    Schedule unrolled = unroll(schedule, n);
    CHECK(unrolled.nmicros == n);
    CHECK(unrolled.instances.size() == static_cast<size_t>(n) * schedule.placement.blocks.size());
    for (const Instance& instance : unrolled.instances) CHECK(instance.micro < n);
    verify::Report report = require_valid(unrolled);
    // The claim, where one is left, is still a window of k micro-batches
    // that the verifier found true; where every copy lost a micro-batch
    // there is none.
    if (unrolled.repetend) {
      CHECK(unrolled.repetend->micros_per_period == k);
      CHECK(unrolled.repetend->period == period);
      CHECK(report.repetend_holds);
    }
    if (n >= smallest + k) CHECK(unrolled.repetend);
    // A partial window is the next whole-window schedule cut: the kept
    // micro-batches start where they start there.
    const int whole = whole_window_count(schedule, n);
    CHECK(whole >= n);
    CHECK(whole - n < std::max(k, smallest));
    CHECK((whole - smallest) % k == 0);
    auto whole_starts = starts_of(unroll(schedule, whole));
    for (const auto& [key, start] : starts_of(unrolled)) CHECK(whole_starts.at(key) == start);
    // A result that still claims a window unrolls again, validly.
    if (unrolled.repetend) require_valid(unroll(unrolled, n + 2 * k + 1));
  }
  // Whole windows add exactly one period per window.
  CHECK(makespan(unroll(schedule, 64 + k)) == makespan(unroll(schedule, 64)) + period);
  CHECK_THAT(unroll_error(schedule, 0), Catch::Contains("--nmicros") && Catch::Contains("at least 1"));
}

TEST_CASE("windows io: dropping micro-batches that would break the memory limit is refused", "[windows_io]") {
  // One device, two independent blocks: A frees a unit, B allocates it.
  // The window (k = 2) runs A of the odd micro-batch first, so that micro-
  // batch 2j's B, which comes before its own A, is covered: the memory is -1
  // or 0, within the limit 0. Dropping micro-batch 1 alone leaves B of 0
  // uncovered (memory 1).
  Schedule schedule;
  schedule.placement = placement_from_json(nlohmann::json::parse(R"({
    "format": "tessel.placement/1", "name": "free-first", "ndevs": 1,
    "blocks": [ {"id": "a", "kind": "other", "span": 1, "memory": -1, "devices": [0]},
                {"id": "b", "kind": "other", "span": 1, "memory": 1, "devices": [0]} ],
    "edges": [] })"),
                                           JsonPlace{"free-first", ""});
  schedule.memory_limit = {0};
  schedule.nmicros = 2;
  schedule.instances = {{0, 1, 0}, {1, 0, 1}, {0, 0, 2}, {1, 1, 3}};
  schedule.repetend = Repetend{0, 4, 4, 2};
  require_valid(schedule);
  for (int n : {2, 4, 6}) require_valid(unroll(schedule, n));
  for (int n : {1, 3, 5}) {
    INFO("N = " << n);
    CHECK_THAT(unroll_error(schedule, n), Catch::Contains("--nmicros") && Catch::Contains("device 0") &&
                                              Catch::Contains("above its limit 0"));
  }
  TempDir dir;
  write_schedule_file(dir.file("free.json"), schedule);
  auto refused = run_tessel("unroll " + dir.file("free.json") + " --nmicros 3");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--nmicros") && Catch::Contains("N = 4 works"));
}

TEST_CASE("windows io: tessel unroll, show and verify on the k = 2 file", "[windows_io][cli]") {
  TempDir dir;
  for (int n : {2, 5, 64}) {
    INFO("N = " << n);
    const std::string out = dir.file("n" + std::to_string(n) + ".json");
    auto unrolled = run_tessel("unroll " + kFixtureFile + " --nmicros " + std::to_string(n) + " -o " + out);
    REQUIRE(unrolled.exit_code == 0);
    auto checked = run_tessel("verify " + out);
    CHECK(checked.exit_code == 0);
    CHECK_THAT(checked.out, Catch::StartsWith("valid"));
    if (read_schedule_file(out).repetend)
      CHECK_THAT(checked.out, Catch::Contains("repetend: holds") &&
                                  Catch::Contains("2 micro-batches per period") &&
                                  Catch::Contains("average period 6 steps per micro-batch"));
  }
  auto json = run_tessel("verify " + kFixtureFile + " --json");
  REQUIRE(json.exit_code == 0);
  nlohmann::json report = nlohmann::json::parse(json.out);
  CHECK(report["repetend"]["holds"] == true);
  CHECK(report["repetend"]["period"] == 12);
  CHECK(report["repetend"]["micros_per_period"] == 2);
  CHECK(report["repetend"]["average_period"] == 6.0);

  auto shown = run_tessel("show " + kFixtureFile);
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("period 12 per 2 micro-batches (k = 2, average period 6 per micro-batch)"));
  auto zero = run_tessel("unroll " + kFixtureFile + " --nmicros 0");
  CHECK(zero.exit_code == 2);
  CHECK_THAT(zero.err, Catch::Contains("--nmicros"));
}

TEST_CASE("windows io: verify rejects a corrupted k = 2 file for the right reason", "[windows_io]") {
  const Schedule schedule = unroll(fixture(), 8);
  REQUIRE(schedule.repetend);
  REQUIRE(schedule.repetend->end - schedule.repetend->start >= 2 * schedule.repetend->period);
  auto repetend_messages = [](const verify::Report& report) {
    std::string text;
    for (const verify::Violation& violation : report.violations)
      if (violation.kind == "repetend") text += violation.message + "\n";
    return text;
  };

  SECTION("claimed as one micro-batch per period") {
    Schedule broken = schedule;
    broken.repetend->micros_per_period = 1;
    verify::Report report = testing::verify_schedule(broken);
    CHECK_FALSE(report.valid);
    CHECK(report.violation_counts["repetend"] > 0);
    CHECK_THAT(repetend_messages(report), Catch::Contains("2 times, expected 1"));
  }
  SECTION("a period that is not the window's") {
    Schedule broken = schedule;
    broken.repetend->period = 6;
    broken.repetend->end = broken.repetend->start + 12;
    verify::Report report = testing::verify_schedule(broken);
    CHECK_FALSE(report.valid);
    CHECK(report.violation_counts["repetend"] > 0);
  }
  SECTION("the second copy of one block moved a step") {
    Schedule broken = schedule;
    const Repetend claim = *broken.repetend;
    bool moved = false;
    // The first instance of the second copy whose step after it is free on
    // its device, so that only the repetition (and not exclusivity) breaks.
    std::map<int, std::set<int>> busy;  // device -> steps
    for (const Instance& instance : broken.instances)
      for (int device : broken.placement.blocks[instance.block].devices)
        for (int s = 0; s < broken.placement.blocks[instance.block].span; ++s) busy[device].insert(instance.start + s);
    for (Instance& instance : broken.instances) {
      if (instance.start < claim.start + claim.period || instance.start >= claim.start + 2 * claim.period) continue;
      const Block& block = broken.placement.blocks[instance.block];
      if (block.span != 1 || busy[block.devices.front()].count(instance.start + 1)) continue;
      ++instance.start;
      moved = true;
      break;
    }
    REQUIRE(moved);
    verify::Report report = testing::verify_schedule(broken);
    CHECK_FALSE(report.valid);
    CHECK(report.violation_counts["repetend"] > 0);
    CHECK_THAT(repetend_messages(report), Catch::Contains("should repeat"));
    // The file says the same through the command line: exit 1, the reason.
    TempDir dir;
    write_schedule_file(dir.file("broken.json"), broken);
    auto checked = run_tessel("verify " + dir.file("broken.json"));
    CHECK(checked.exit_code == 1);
    CHECK_THAT(checked.out, Catch::Contains("repetend: does NOT hold") && Catch::Contains("should repeat"));
  }
}

TEST_CASE("windows io: the text timeline shows every step's micro-batch of a partial window", "[windows_io]") {
  const Schedule schedule = unroll(fixture(), 5);
  const std::string text = render_timeline(schedule);
  // Every row is one cell per step, BLOCK:MICRO padded to the longest
  // label, each after a one-character separator (a space or `|`).
  size_t width = 0;
  for (const Instance& instance : schedule.instances)
    width = std::max(width, schedule.placement.blocks[instance.block].id.size() + 1 + std::to_string(instance.micro).size());
  std::map<int, std::string> rows;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the ruler
  while (std::getline(lines, line)) {
    std::smatch match;
    if (line.rfind("dev ", 0) != 0) continue;  // the key under the rows
    REQUIRE(std::regex_match(line, match, std::regex(R"(dev (\d)(.*))")));
    rows[std::stoi(match[1])] = match[2];
  }
  REQUIRE(rows.size() == 3);
  int checked = 0;
  for (const Instance& instance : schedule.instances) {
    const Block& block = schedule.placement.blocks[instance.block];
    const std::string label = block.id + ":" + std::to_string(instance.micro);
    for (int s = instance.start; s < instance.start + block.span; ++s) {
      std::string cell = rows[block.devices.front()].substr(1 + s * (width + 1), width);
      cell.erase(cell.find_last_not_of(' ') + 1);
      CHECK(cell == label);
      ++checked;
    }
  }
  CHECK(checked == 5 * (3 * 1 + 3 * 3));
}

TEST_CASE("windows io: every export of a partial k = 2 window names the right micro-batches", "[windows_io][formats]") {
  const Schedule schedule = unroll(fixture(), 2 * 2 + 1);
  const auto starts = starts_of(schedule);
  std::map<std::string, int> block_index;
  for (size_t b = 0; b < schedule.placement.blocks.size(); ++b) block_index[schedule.placement.blocks[b].id] = b;

  SECTION("PyTorch action table") {
    PytorchTable table = read_pytorch_csv(write_pytorch_csv(schedule), "export", PytorchDialect::current);
    CHECK(table.ranks == 3);
    REQUIRE(table.actions.size() == schedule.instances.size());
    // Stage s forward is f<s>; its backward is b<s>; both on device s.
    std::set<std::pair<int, int>> seen;
    for (const PytorchAction& action : table.actions) {
      INFO(action.stage << action.action << action.micro << " at rank " << action.rank << " column " << action.column);
      CHECK(action.rank == action.stage);
      const std::string id = (action.action == "F" ? "f" : "b") + std::to_string(action.stage);
      const int block = block_index.at(id);
      CHECK(starts.at({block, action.micro}) == action.column);
      seen.insert({block, action.micro});
    }
    CHECK(seen.size() == schedule.instances.size());
  }
  SECTION("Chrome trace") {
    nlohmann::json trace = nlohmann::json::parse(chrome_trace(schedule).dump());
    size_t events = 0;
    for (const nlohmann::json& event : trace["traceEvents"]) {
      if (event["ph"] != "X" || event["cat"] == "phase") continue;
      ++events;
      const int micro = event["args"]["micro"];
      const int block = block_index.at(event["args"]["block"].get<std::string>());
      CHECK(event["ts"] == starts.at({block, micro}));
      CHECK(event["name"] == event["args"]["block"].get<std::string>() + ":" + std::to_string(micro));
      CHECK(micro < 5);
    }
    CHECK(events == schedule.instances.size());
    CHECK(trace["otherData"]["nmicros"] == 5);
    CHECK(trace["otherData"]["repetend"]["micros_per_period"] == 2);
    CHECK(trace["otherData"]["repetend"]["period"] == 12);
  }
  SECTION("SVG timeline") {
    const std::string svg = svg_timeline(schedule, {1200, ""});
    CHECK_THAT(svg, Catch::Contains("5 micro-batches") &&
                        Catch::Contains("repetend (period 12 for 2 micro-batches, 6 per micro-batch)"));
    // Every box's tooltip names its block, micro-batch and steps.
    std::regex tooltip(R"(<title>(\w+) micro (\d+), steps (\d+)\.\.(\d+)</title>)");
    size_t boxes = 0;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tooltip); it != std::sregex_iterator(); ++it) {
      ++boxes;
      const int block = block_index.at((*it)[1]);
      CHECK(starts.at({block, std::stoi((*it)[2])}) == std::stoi((*it)[3]));
    }
    CHECK(boxes == schedule.instances.size());
    // The partial window leaves one whole period claimed: no period line
    // inside it; the schedule of 6 claims two periods, one line between.
    CHECK(svg.find("class=\"period\"") == std::string::npos);
    const std::string longer = svg_timeline(unroll(fixture(), 6), {1200, ""});
    const std::string period_line = "class=\"period\"";
    const size_t first = longer.find(period_line);
    REQUIRE(first != std::string::npos);
    CHECK(longer.find(period_line, first + 1) == std::string::npos);
  }
  SECTION("PyTorch table back through import: the same order runs as the same schedule") {
    TempDir dir;
    write_schedule_file(dir.file("five.json"), schedule);
    REQUIRE(run_tessel("export --to pytorch-csv " + dir.file("five.json") + " -o " + dir.file("five.csv")).exit_code ==
            0);
    auto imported = run_tessel("import --from pytorch-csv " + dir.file("five.csv") + " --span F=1,B=3 -o " +
                               dir.file("back.json"));
    REQUIRE(imported.exit_code == 0);
    Schedule back = read_schedule_file(dir.file("back.json"));
    CHECK(back.nmicros == 5);
    // Run as early as the order allows, it is never longer, and it fits the
    // fixture's limit of 2 per device.
    CHECK(makespan(back) <= makespan(schedule));
    back.memory_limit = {2, 2, 2};
    require_valid(back);
  }
}

TEST_CASE("windows io: search reports a k = 2 window at an odd --total-micros", "[windows_io][cli]") {
  // 127 is no whole number of windows: the unrolled schedule drops the last
  // micro-batch of the 128 that whole windows reach.
  auto odd = run_tessel("search --placement " + kPlacementFile +
                        " --memory 2 --micros-per-window 2 --tune boundary_seconds=1 --total-micros 127 --json");
  REQUIRE(odd.exit_code == 0);
  nlohmann::json found = nlohmann::json::parse(odd.out);
  CHECK(found["total_micros"] == 127);
  CHECK(found["makespan_at_total"].get<int>() >= 127 * 6);
  CHECK(found["makespan_at_total"].get<int>() <= makespan(unroll(fixture(), 128)));
}
