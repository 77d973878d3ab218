// Measured costs as a user meets them on the command line: a placement with
// decimal spans, delays, static memory and memory in bytes is searched, the
// schedule passes the verifier on those numbers, the limits take byte
// units, static memory counts in search and verify alike, huge spans stop at
// the time limit (or are proven in time) and --resolution rounds on request
// only, saying what it may cost; pictures and traces keep the real times.
#include <chrono>

#include <catch2/catch.hpp>

#include "tests/support.hpp"

using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

constexpr long long kGiB = 1073741824LL;

// vshape on 3 devices, measured: forwards 1.37 / 1.41 / 1.29 ms holding
// 1 GiB each, backwards about twice as long, a 0.25 ms transfer between
// devices, 2 GiB of parameters on every device.
nlohmann::json measured_vshape() {
  return nlohmann::json::parse(R"({
    "format": "tessel.placement/1", "name": "vshape-measured", "ndevs": 3,
    "blocks": [ {"id": "f0", "kind": "forward", "span": 1.37, "memory": 1073741824, "devices": [0]},
                {"id": "f1", "kind": "forward", "span": 1.41, "memory": 1073741824, "devices": [1]},
                {"id": "f2", "kind": "forward", "span": 1.29, "memory": 1073741824, "devices": [2]},
                {"id": "b2", "kind": "backward", "span": 2.61, "memory": -1073741824, "devices": [2]},
                {"id": "b1", "kind": "backward", "span": 2.8, "memory": -1073741824, "devices": [1]},
                {"id": "b0", "kind": "backward", "span": 2.75, "memory": -1073741824, "devices": [0]} ],
    "edges": [ ["f0", "f1", 0.25], ["f1", "f2", 0.25], ["f2", "b2"], ["b2", "b1", 0.25], ["b1", "b0", 0.25] ],
    "static_memory": 2147483648 })");
}

std::string written(const TempDir& dir, const std::string& name, const nlohmann::json& value) {
  const std::string path = dir.file(name);
  write_text(path, value.dump());
  return path;
}

double seconds_of(const std::function<void()>& run) {
  const auto begin = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace

TEST_CASE("a measured placement is searched and its schedule verified on the real numbers",
          "[measured][cli]") {
  TempDir dir;
  const std::string placement = written(dir, "p.json", measured_vshape());
  std::vector<double> periods;
  for (const char* backend : {"cadical", "z3"}) {
    auto found = run_tessel("search --placement " + placement + " --memory 5GiB --micros-per-window 1 --quiet --json"
                            " --backend " + std::string(backend) + " -o " + dir.file("s.json"));
    REQUIRE(found.exit_code == 0);
    nlohmann::json out = nlohmann::json::parse(found.out);
    // The busiest device is device 1: L = 1.41 + 2.8; the delays on the
    // way to it and back may keep a period from reaching L.
    CHECK(out["lower_bound"] == 4.21);
    CHECK(out["period"].get<double>() >= 4.21);
    CHECK(out["optimal"] == true);
    // Warmup, cooldown and the makespan at N on the same decimals: a
    // makespan no lower than its bound, the gap their difference.
    const double makespan = out["makespan_at_total"].get<double>();
    const double bound = out["makespan_bound_at_total"].get<double>();
    CHECK(bound > 0);
    CHECK(makespan >= bound);
    CHECK(out["makespan_gap_at_total"].get<double>() == Approx(makespan - bound).margin(1e-6));
    CHECK(out["warmup_steps"].get<double>() > 0);
    CHECK(out["cooldown_steps"].get<double>() > 0);
    periods.push_back(out["period"].get<double>());
    auto checked = run_tessel("verify " + dir.file("s.json") + " --json");
    REQUIRE(checked.exit_code == 0);
    nlohmann::json verdict = nlohmann::json::parse(checked.out);
    for (const nlohmann::json& peak : verdict["peak_memory"]) {
      CHECK(peak.get<long long>() <= 5 * kGiB);
      CHECK(peak.get<long long>() >= 3 * kGiB);  // static 2 GiB + at least one forward
    }
  }
  CHECK(periods[0] == periods[1]);  // both backends prove the same optimum
}

TEST_CASE("decimals with delays: every way of asking the period question proves the same optimum",
          "[measured][cli]") {
  // The cyclic orders decide (L is 421 ticks); the questions asked by
  // learned cycles, by guarded differences (on a side Z3 for CaDiCaL), and
  // on the Z3 backend, each schedule checked by the verifier.
  TempDir dir;
  const std::string placement = written(dir, "p.json", measured_vshape());
  std::vector<double> periods;
  for (const char* how : {"--tune order_questions=1", "--tune order_questions=2", "--tune order_questions=0",
                          "--backend z3"}) {
    INFO(how);
    auto found = run_tessel("search --placement " + placement + " --memory 4GiB --micros-per-window 1 --quiet"
                            " --json " + std::string(how) + " -o " + dir.file("s.json"));
    REQUIRE(found.exit_code == 0);
    nlohmann::json out = nlohmann::json::parse(found.out);
    CHECK(out["optimal"] == true);
    periods.push_back(out["period"].get<double>());
    CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
  }
  for (double period : periods) CHECK(period == periods[0]);
}

TEST_CASE("static memory is counted by the search and the verifier alike", "[measured][cli]") {
  TempDir dir;
  const std::string placement = written(dir, "p.json", measured_vshape());
  // 2 GiB static: 3 GiB leaves room for one forward on each device.
  auto tight = run_tessel("search --placement " + placement + " --memory 3GiB --micros-per-window 1 --quiet -o " +
                          dir.file("s.json"));
  REQUIRE(tight.exit_code == 0);
  CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
  // The verifier agrees that 1 byte less breaks it: the static part counts.
  auto over = run_tessel("verify " + dir.file("s.json") + " --memory 3221225471");
  CHECK(over.exit_code == 1);
  CHECK_THAT(over.out, Catch::Contains("static 2147483648 included"));
  // Below static + one forward nothing can run: proven, not a time-out.
  auto none = run_tessel("search --placement " + placement + " --memory 2.5GiB --quiet");
  CHECK(none.exit_code == 1);
}

TEST_CASE("memory limits on the command line take byte units", "[measured][cli]") {
  TempDir dir;
  const std::string placement = written(dir, "p.json", measured_vshape());
  for (const char* limit : {"5GiB", "5368709120", "5120MiB", "5.5GB"})
    CHECK(run_tessel("search --placement " + placement + " --memory " + limit + " --micros-per-window 1 --quiet")
              .exit_code == 0);
  auto typo = run_tessel("search --placement " + placement + " --memory 5GiBs --quiet");
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("--memory"));
}

TEST_CASE("a span of a million with --time-limit 2 ends in time, never claiming a proof it lacks",
          "[measured][cli][time-limit]") {
  TempDir dir;
  auto placed = run_tessel("placement --case nnshape --ndevs 8 -o " + dir.file("unit.json"));
  REQUIRE(placed.exit_code == 0);
  nlohmann::json placement = nlohmann::json::parse(tessel::testing::read_text(dir.file("unit.json")));
  placement["blocks"][1]["span"] = 1000000;  // one block of span 10^6 among unit ones
  const std::string file = written(dir, "big.json", placement);
  tessel::testing::CommandResult run;
  const double seconds = seconds_of([&] {
    run = run_tessel("search --placement " + file + " --memory 8 --time-limit 2 --quiet -o " + dir.file("s.json"));
  });
  CHECK(seconds < 6);  // 2 s and the writing of the answer; once 36 s
  REQUIRE((run.exit_code == 0 || run.exit_code == 3));
  if (run.exit_code == 3) CHECK_THAT(run.out, !Catch::Contains("proven optimal"));
  CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
  // The unit-step encoding of the whole problem is refused by its budget.
  auto full = run_tessel("search --placement " + file + " --memory 8 --strategy full --nmicros 4 --quiet");
  CHECK(full.exit_code == 2);
  CHECK_THAT(full.err, Catch::Contains("--nmicros"));
}

TEST_CASE("every span near 10^5 with --time-limit 1: exit 3, the best schedule so far written and valid",
          "[measured][cli][time-limit]") {
  // nnshape on 16 devices, each span x10^5 moved by up to +-10%: the
  // optimality proof takes far longer than a second at any magnitude, so the
  // limit strikes; what was found by then must be written and valid.
  TempDir dir;
  REQUIRE(run_tessel("placement --case nnshape --ndevs 16 -o " + dir.file("unit.json")).exit_code == 0);
  nlohmann::json placement = nlohmann::json::parse(tessel::testing::read_text(dir.file("unit.json")));
  long long noise = 1;
  for (nlohmann::json& block : placement["blocks"]) {
    noise = noise * 7919 % 20011;
    block["span"] = block["span"].get<long long>() * 100000 + noise - 10005;
  }
  const std::string file = written(dir, "big.json", placement);
  tessel::testing::CommandResult run;
  const double seconds = seconds_of([&] {
    run = run_tessel("search --placement " + file + " --memory 16 --time-limit 1 --json -o " + dir.file("s.json"));
  });
  CHECK(seconds < 5);
  REQUIRE(run.exit_code == 3);
  nlohmann::json out = nlohmann::json::parse(run.out);
  CHECK(out["status"] == "timeout");
  CHECK(out["optimal"] == false);
  CHECK(out["period"].get<long long>() >= out["lower_bound"].get<long long>());
  CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
}

TEST_CASE("search with a resolution rounds the times only on request and prints what it may cost", "[measured][cli]") {
  TempDir dir;
  nlohmann::json placement = measured_vshape();
  for (nlohmann::json& block : placement["blocks"]) block["span"] = block["span"].get<double>() * 100000000;
  const std::string file = written(dir, "huge.json", placement);
  auto refused = run_tessel("search --placement " + file + " --memory 5GiB --quiet");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--resolution"));
  // --repetend-output: the repetend, unrollable, on the real times.
  auto rounded = run_tessel("search --placement " + file + " --memory 5GiB --micros-per-window 1 --resolution 1000000"
                            " --quiet --json --repetend-output " + dir.file("s.json"));
  REQUIRE(rounded.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(rounded.out);
  CHECK_THAT(out["resolution"].get<std::string>(), Catch::Contains("rounded up to multiples of 1000000"));
  // The proven bound is for the real times, below the rounded answer.
  CHECK(out["proven_lower_bound"].get<long long>() <= out["period"].get<long long>());
  CHECK(out["optimal"] == (out["proven_lower_bound"] == out["period"]));
  CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
  // -o: the best schedule of 128 micro-batches on the real times (the list
  // scheduling holds times of any size; the full search's improvement
  // refuses them by its budget instead of overflowing its horizon).
  auto to_file = run_tessel("search --placement " + file + " --memory 5GiB --micros-per-window 1 --resolution 1000000"
                            " --quiet --json -o " + dir.file("o.json"));
  REQUIRE(to_file.exit_code == 0);
  CHECK(nlohmann::json::parse(to_file.out)["total_micros"] == 128);
  CHECK(run_tessel("verify " + dir.file("o.json")).exit_code == 0);
  CHECK(run_tessel("search --placement " + file + " --memory 5GiB --resolution -3 --quiet").exit_code == 2);
}

TEST_CASE("pictures and traces of a measured schedule keep its real times", "[measured][cli]") {
  TempDir dir;
  const std::string placement = written(dir, "p.json", measured_vshape());
  REQUIRE(run_tessel("search --placement " + placement + " --memory 5GiB --micros-per-window 1 --quiet -o " +
                     dir.file("s.json"))
              .exit_code == 0);
  auto shown = run_tessel("show " + dir.file("s.json"));
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("of time: the instance covering most of it"));  // cells of real time
  CHECK(shown.out.size() < 4000);  // not a column per 0.01 tick
  REQUIRE(run_tessel("export --to svg " + dir.file("s.json") + " -o " + dir.file("s.svg")).exit_code == 0);
  const std::string svg = tessel::testing::read_text(dir.file("s.svg"));
  CHECK_THAT(svg, Catch::Contains(">time</text>"));  // the axis is time, not steps
  CHECK_THAT(svg, Catch::Contains("f0 micro 0, time 0..1.37"));
  CHECK_THAT(svg, !Catch::Contains("makespan 1") || !Catch::Contains(" steps</text>"));
  REQUIRE(run_tessel("export --to chrome-trace " + dir.file("s.json") + " -o " + dir.file("t.json")).exit_code == 0);
  nlohmann::json trace = nlohmann::json::parse(tessel::testing::read_text(dir.file("t.json")));
  bool seen = false;
  for (const nlohmann::json& event : trace["traceEvents"])
    if (event["ph"] == "X" && event["args"]["block"] == "f0" && event["args"]["micro"] == 0) {
      CHECK(event["ts"] == 0);
      CHECK(event["dur"] == 1.37);  // one time unit of the file is one microsecond of the trace
      seen = true;
    }
  CHECK(seen);
}
