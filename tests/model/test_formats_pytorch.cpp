// PyTorch pipelining's CSV action table: hand-written tables in the shapes
// PyTorch itself writes (both dialects, with non-compute actions), round trips
// through export, deadlocks and bad cells.
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/schemes.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::verify_schedule;
using tessel::testing::write_text;

namespace {

// 1F1B on 2 ranks as a compute_comms table (sends, receives, FSDP actions):
// the non-compute cells must be ignored for timing.
const char* kOneFOneBWithComms =
    "0UNSHARD,0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0RECV_B1,0B1,0REDUCE_GRAD,0RESHARD\n"
    "1UNSHARD,1RECV_F0,1F0,1B0,1SEND_B0,1RECV_F1,1F1,1B1,1SEND_B1,1REDUCE_GRAD\n";

// ZB-1P-like: 2 ranks, stages 0 and 2 on rank 0, 1 and 3 on rank 1 ("loop"),
// written as PyTorch ~2.4/2.5 did, B = input backward paired with W.
const char* kLegacyZeroBubble =
    "0F0,0F1,2F0,2F1,,2B0,2W0,,2B1,2W1,0B0,0W0,0B1,0W1\n"
    ",1F0,1F1,3F0,3B0,3W0,3F1,3B1,3W1,1B0,1W0,1B1,1W1\n";

// The same table in the current dialect: I is the input backward.
const char* kCurrentZeroBubble =
    "0F0,0F1,2F0,2F1,,2I0,2W0,,2I1,2W1,0I0,0W0,0I1,0W1\n"
    ",1F0,1F1,3F0,3I0,3W0,3F1,3I1,3W1,1I0,1W0,1I1,1W1\n";

Schedule import_table(const std::string& text, PytorchDialect dialect,
                      const classic::StageCosts& costs = classic::StageCosts{}) {
  return classic::schedule_from_pytorch_table(read_pytorch_csv(text, "t.csv", dialect), dialect, costs, "t.csv");
}

std::set<std::tuple<std::string, int, int>> instance_set(const Schedule& schedule) {
  std::set<std::tuple<std::string, int, int>> result;
  for (const Instance& instance : schedule.instances)
    result.insert({schedule.placement.blocks[instance.block].id, instance.micro, instance.start});
  return result;
}

classic::StageCosts unit_costs() {
  classic::StageCosts costs;
  costs.forward_span = costs.input_span = costs.weight_span = 1;
  return costs;
}

}  // namespace

TEST_CASE("a PyTorch 1F1B table with communication cells imports as 1F1B", "[formats]") {
  Schedule schedule = import_table(kOneFOneBWithComms, PytorchDialect::current);
  verify::Report report = verify_schedule(schedule);
  REQUIRE(report.valid);
  CHECK(schedule.instances.size() == 8);
  CHECK(schedule.nmicros == 2);
  // Default spans F=1, B=I+W=2: 1F1B's 3(m+p-1) steps.
  CHECK(report.makespan == 9);
  CHECK(report.peak_memory == std::vector<long long>{2, 1});
}

TEST_CASE("the legacy dialect reads B as the input backward of a split stage", "[formats]") {
  Schedule schedule = import_table(kLegacyZeroBubble, PytorchDialect::legacy, unit_costs());
  verify::Report report = verify_schedule(schedule);
  REQUIRE(report.valid);
  CHECK(schedule.instances.size() == 4 * 3 * 2);
  CHECK(schedule.placement.ndevs == 2);
  // Worked out by hand from the orders (all spans 1): rank 1's 1B0 waits
  // until step 9, rank 0 ends with 0W1 at step 13.
  CHECK(report.makespan == 14);
  int b2 = find_block(schedule.placement, "b2");
  REQUIRE(b2 >= 0);
  CHECK(schedule.placement.blocks[b2].kind == BlockKind::BackwardInput);
  CHECK(schedule.placement.blocks[b2].devices == std::vector<int>{0});
  CHECK(schedule.placement.blocks[find_block(schedule.placement, "f3")].devices == std::vector<int>{1});
}

TEST_CASE("the current dialect with I gives the same schedule as the legacy table", "[formats]") {
  Schedule current = import_table(kCurrentZeroBubble, PytorchDialect::current, unit_costs());
  Schedule legacy = import_table(kLegacyZeroBubble, PytorchDialect::legacy, unit_costs());
  REQUIRE(verify_schedule(current).valid);
  CHECK(instance_set(current) == instance_set(legacy));
}

TEST_CASE("reading a legacy table as current finds W twice: the dialect trap is not silent", "[formats]") {
  // In the current dialect B = I + W, so 2B0 already contains 2W0; the
  // message names both cells and suggests the legacy dialect.
  try {
    import_table(kLegacyZeroBubble, PytorchDialect::current, unit_costs());
    FAIL("no error");
  } catch (const InputError& error) {
    CHECK_THAT(std::string(error.what()), Catch::Contains("2W0 repeats work of 2B0") &&
                                              Catch::Contains("(row 1, column 6 (rank 0, step 5))") && Catch::Contains("--dialect legacy"));
  }
  // A plain repeat says so.
  CHECK_THROWS_WITH(import_table("0F0,0F0,0B0\n", PytorchDialect::current), Catch::Contains("0F0 appears twice"));
}

TEST_CASE("a full B in a split stage is its I and W fused, with span B", "[formats]") {
  const char* table =
      "0F0,0F1,,,0I0,0W0,0B1\n"
      ",1F0,1B0,1F1,1I1,1W1\n";
  classic::StageCosts costs = unit_costs();
  costs.input_span = 2;
  costs.backward_span = 2;  // a B takes 2 where its I + W take 3
  Schedule schedule = import_table(table, PytorchDialect::current, costs);
  CHECK(schedule.instances.size() == 2 * 3 * 2);
  REQUIRE(schedule.fused.size() == 2);  // 1B0 and 0B1
  for (const FusedUnit& unit : schedule.fused) {
    CHECK(unit.span == 2);
    REQUIRE(unit.members.size() == 2);
    CHECK(schedule.placement.blocks[unit.members[0].block].kind == BlockKind::BackwardInput);
    CHECK(schedule.placement.blocks[unit.members[1].block].kind == BlockKind::BackwardWeight);
    CHECK(unit.members[0].micro == unit.members[1].micro);
  }
  // By hand: rank 1 runs 1F0 [1,2), 1B0 [2,4), 1F1 [4,5), 1I1 [5,7), 1W1
  // [7,8); rank 0: 0F0 [0,1), 0F1 [1,2), 0I0 [4,6), 0W0 [6,7), 0B1 [7,9).
  CHECK(makespan(schedule) == 9);
  CHECK(verify_schedule(schedule).valid);
}

TEST_CASE("an OVERLAP_F_B cell is one fused unit of span FB (default F + B)", "[formats]") {
  const char* table =
      "0F0,0F1,,(0F2;0B0)OVERLAP_F_B,0B1,0B2\n"
      ",1F0,1B0,1F1,1B1,1F2,1B2\n";
  Schedule schedule = import_table(table, PytorchDialect::current);
  CHECK(schedule.instances.size() == 12);
  REQUIRE(schedule.fused.size() == 1);
  CHECK(schedule.fused[0].span == 3);
  CHECK(verify_schedule(schedule).valid);
  classic::StageCosts faster;
  faster.overlap_span = 2;
  Schedule overlapped = import_table(table, PytorchDialect::current, faster);
  REQUIRE(overlapped.fused.size() == 1);
  CHECK(overlapped.fused[0].span == 2);
  // By hand: the unit waits for 1B0 (ends at 4), so it holds rank 0 for
  // [4, 7), or [4, 6) with FB = 2; 0F2's dependants see it end then.
  auto end_of = [](const Schedule& s, const std::string& id, int micro) {
    std::vector<Time> ends = instance_ends(s);
    for (size_t i = 0; i < s.instances.size(); ++i)
      if (s.placement.blocks[s.instances[i].block].id == id && s.instances[i].micro == micro) return ends[i];
    return Time{-1};
  };
  CHECK(end_of(schedule, "f0", 2) == 7);
  CHECK(end_of(schedule, "b0", 0) == 7);
  CHECK(end_of(overlapped, "f0", 2) == 6);
  CHECK(makespan(overlapped) == 12);  // 0B2 still waits for 1B2: the overlap is off the critical path
}

TEST_CASE("export to pytorch-csv then import gives back the same instances", "[formats]") {
  struct Case {
    std::string scheme;
    int ranks, nmicros;
  };
  for (const Case& c : {Case{"1f1b", 4, 8}, Case{"gpipe", 2, 4}, Case{"interleaved-1f1b", 4, 8},
                        Case{"zb-h1", 4, 8}, Case{"zb-h2", 4, 12}, Case{"zb-v", 4, 8}}) {
    INFO(c.scheme);
    classic::SchemeRequest request;
    request.scheme = c.scheme;
    request.ranks = c.ranks;
    request.nmicros = c.nmicros;
    request.costs = unit_costs();
    request.costs.backward_span = 2;
    Schedule original = classic::generate_scheme(request);
    REQUIRE(verify_schedule(original).valid);
    std::string csv = write_pytorch_csv(original);
    Schedule back = import_table(csv, PytorchDialect::current, unit_costs());
    REQUIRE(verify_schedule(back).valid);
    CHECK(instance_set(back) == instance_set(original));
    CHECK(back.placement.edges.size() == original.placement.edges.size());
  }
}

TEST_CASE("the exported table is compute-only with actions in their start columns", "[formats]") {
  classic::SchemeRequest request;
  request.scheme = "1f1b";
  request.ranks = 2;
  request.nmicros = 2;
  std::string csv = write_pytorch_csv(classic::generate_scheme(request));
  // Rank 0: F at 0 and 1, B (2 steps) at 4 and 7; rank 1: F at 1 and 4, B at 2 and 5.
  CHECK(csv == "0F0,0F1,,,0B0,,,0B1\n,1F0,1B0,,1F1,1B1\n");
}

TEST_CASE("tessel-style placements that are not pipelines cannot be exported to PyTorch", "[formats]") {
  Schedule schedule;
  schedule.placement.ndevs = 2;
  schedule.placement.blocks = {{"all", BlockKind::Forward, 1, 0, std::nullopt, {0, 1}}};
  schedule.nmicros = 1;
  schedule.instances = {{0, 0, 0}};
  CHECK_THROWS_AS(write_pytorch_csv(schedule), InputError);
}

TEST_CASE("a deadlocked PyTorch table is reported with the ranks and what they wait for", "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("dead.csv"), "0F0,0B0,0F1,0B1\n1F1,1F0,1B0,1B1\n");
  auto result = run_tessel("import --from pytorch-csv " + dir.file("dead.csv") + " -o " + dir.file("out.json"));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("deadlock") && Catch::Contains("rank 0 at 0B0 (step 1) waits for 1B0") &&
                             Catch::Contains("rank 1 at 1F1 (step 0) waits for 0F1 (rank 0, step 2)"));
}

TEST_CASE("unknown PyTorch actions are bad input naming the row and the column", "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("bad.csv"), "0F0,0F1\n,1F0,1X0\n");
  auto result = run_tessel("import --from pytorch-csv " + dir.file("bad.csv"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("bad.csv") &&
                             Catch::Contains("row 2, column 3 (rank 1, step 2)") &&
                             Catch::Contains("unknown action '1X0'"));

  write_text(dir.file("legacy.csv"), "0F0,0I0\n");
  result = run_tessel("import --from pytorch-csv --dialect legacy " + dir.file("legacy.csv"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("legacy dialect has no I"));

  write_text(dir.file("nomicro.csv"), "0F\n");
  result = run_tessel("import --from pytorch-csv " + dir.file("nomicro.csv"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("has no micro-batch"));
}

TEST_CASE("a stage on two ranks or a missing stage is bad input", "[formats]") {
  CHECK_THROWS_WITH(import_table("0F0,0B0\n0F1\n", PytorchDialect::current),
                    Catch::Contains("stage 0 appears on rank 1 but also on rank 0"));
  CHECK_THROWS_WITH(import_table("0F0,0B0\n2F0,2B0\n", PytorchDialect::current),
                    Catch::Contains("stage 1 never appears"));
}

TEST_CASE("import --report prints the verifier's metrics; export/import round trip on the command line",
          "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("zb.csv"), kLegacyZeroBubble);
  auto result = run_tessel("import --from pytorch-csv --dialect legacy --span F=1,I=1,W=1 " + dir.file("zb.csv") +
                           " -o " + dir.file("zb.json") + " --report");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("makespan 14") && Catch::Contains("bubble ratio") &&
                             Catch::Contains("peak memory per device"));
  CHECK(run_tessel("verify " + dir.file("zb.json")).exit_code == 0);

  REQUIRE(run_tessel("generate zb-v --stages 4 --nmicros 8 -o " + dir.file("v.json")).exit_code == 0);
  REQUIRE(run_tessel("export --to pytorch-csv " + dir.file("v.json") + " -o " + dir.file("v.csv")).exit_code == 0);
  REQUIRE(run_tessel("import --from pytorch-csv --span F=1,I=1,W=1 " + dir.file("v.csv") + " -o " +
                     dir.file("back.json"))
              .exit_code == 0);
  Schedule original = read_schedule_file(dir.file("v.json"));
  Schedule back = read_schedule_file(dir.file("back.json"));
  CHECK(instance_set(back) == instance_set(original));
}

TEST_CASE("PyTorch's DualPipeV artifact: B cells are full backwards of span B, overlaps fused", "[formats][cli]") {
  // test/distributed/pipelining/artifacts/dualpipev_4rank_10mb.csv with
  // F=1, I=2, W=1, B=2. Run as PyTorch's runtime does (the actions of an
  // OVERLAP_F_B cell one after the other) it takes 72 steps; as fused units
  // of span F + B = 3 that wait for both inputs, 75 (both worked out by an
  // independent simulation of the table); before B cells had span B, 88.
  std::string artifact = std::string(TESSEL_SOURCE_DIR) + "/tests/data/pytorch/dualpipev_4rank_10mb.csv";
  auto sequential = run_tessel("import --from pytorch-csv --span F=1,I=2,W=1,B=2 --overlap sequential " + artifact +
                               " -o /dev/null --report");
  CHECK(sequential.exit_code == 0);
  CHECK_THAT(sequential.err, Catch::Contains("makespan 72"));
  auto fused = run_tessel("import --from pytorch-csv --span F=1,I=2,W=1,B=2 " + artifact + " -o /dev/null --report");
  CHECK(fused.exit_code == 0);
  CHECK_THAT(fused.err, Catch::Contains("makespan 75"));
  // The artifact is exactly what generate dualpipev builds.
  classic::StageCosts costs;
  costs.forward_span = 1;
  costs.input_span = 2;
  costs.weight_span = 1;
  costs.backward_span = 2;
  Schedule imported = import_table(tessel::testing::read_text(artifact), PytorchDialect::current, costs);
  classic::SchemeRequest request;
  request.scheme = "dualpipev";
  request.ranks = 4;
  request.nmicros = 10;
  request.costs = costs;
  Schedule generated = classic::generate_scheme(request);
  CHECK(makespan(imported) == 75);
  CHECK(makespan(generated) == 75);
  CHECK(imported.fused.size() == generated.fused.size());
  CHECK(verify_schedule(imported).valid);
}

TEST_CASE("a span the table never uses is warned about, not silently dropped", "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("plain.csv"), kOneFOneBWithComms);
  auto result = run_tessel("import --from pytorch-csv --span F=1,B=2,FB=2,I=1 --memory W=-1 " + dir.file("plain.csv") +
                           " -o " + dir.file("out.json"));
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("warning") && Catch::Contains("--span FB is not used") &&
                             Catch::Contains("--span I is not used") && Catch::Contains("--memory W is not used"));
  CHECK_THAT(result.err, !Catch::Contains("--span B is not used") && !Catch::Contains("--span F is not used"));
  // A B of a split stage frees what its I and W free: --memory B does not apply to it.
  write_text(dir.file("split.csv"), "0F0,0F1,0I0,0W0,0B1\n");
  result = run_tessel("import --from pytorch-csv --memory B=-2 " + dir.file("split.csv") + " -o " + dir.file("o.json"));
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("--memory B is not used"));
}

TEST_CASE("legacy tables with BW cells import; read as current they suggest the legacy dialect", "[formats][cli]") {
  // PyTorch's zb1p_2rank_2stagep_comms.csv: a compute_comms table of the
  // ~2.5 dialect, BW = full backward on rank 0's stages, B + W on rank 1's.
  std::string comms = std::string(TESSEL_SOURCE_DIR) + "/tests/data/pytorch/zb1p_2rank_2stagep_comms.csv";
  Schedule schedule = import_table(tessel::testing::read_text(comms), PytorchDialect::legacy, unit_costs());
  REQUIRE(verify_schedule(schedule).valid);
  CHECK(schedule.nmicros == 8);
  CHECK(schedule.placement.blocks[find_block(schedule.placement, "b0")].kind == BlockKind::Backward);
  CHECK(schedule.placement.blocks[find_block(schedule.placement, "b1")].kind == BlockKind::BackwardInput);
  CHECK(find_block(schedule.placement, "w0") < 0);
  CHECK(find_block(schedule.placement, "w3") >= 0);
  auto current = run_tessel("import --from pytorch-csv " + comms);
  CHECK(current.exit_code == 2);
  CHECK_THAT(current.err, Catch::Contains("2BW0") && Catch::Contains("--dialect legacy"));
  // The compute-only artifact of the same schedule (B = I there).
  std::string compute = std::string(TESSEL_SOURCE_DIR) + "/tests/data/pytorch/zb1p_2rank_2stagep_compute.csv";
  auto as_current = run_tessel("import --from pytorch-csv " + compute);
  CHECK(as_current.exit_code == 2);
  CHECK_THAT(as_current.err, Catch::Contains("2W0 repeats work of 2B0") && Catch::Contains("--dialect legacy"));
  CHECK(run_tessel("import --from pytorch-csv --dialect legacy " + compute + " -o /dev/null --report").exit_code == 0);
}

TEST_CASE("a bidirectional (DualPipe) table: every stage s on ranks s and R-1-s", "[formats]") {
  // generate dualpipe --stages 2 --nmicros 4 by hand (test_classic_families):
  // the up direction's micro-batches numbered after the down ones (2, 3),
  // or like them (0, 1); stage 1 has only full backwards here, so it is not split.
  const char* after =
      "0F0,1F2,0F1,1B2,(1F3;0B0)OVERLAP_F_B,1B3,0I1,0W1\n"
      "0F2,1F0,0F3,1B0,(1F1;0B2)OVERLAP_F_B,1B1,0I3,0W3\n";
  const char* same =
      "0F0,1F0,0F1,1B0,(1F1;0B0)OVERLAP_F_B,1B1,0I1,0W1\n"
      "0F0,1F0,0F1,1B0,(1F1;0B0)OVERLAP_F_B,1B1,0I1,0W1\n";
  Schedule a = import_table(after, PytorchDialect::current);
  Schedule b = import_table(same, PytorchDialect::current);
  CHECK(a.nmicros == 2);
  CHECK(a.meta["bidirectional"]["up_micro_offset"] == 2);
  CHECK(b.meta["bidirectional"]["up_micro_offset"] == 0);
  CHECK(instance_set(a) == instance_set(b));
  CHECK(a.placement.blocks[find_block(a.placement, "f0")].devices == std::vector<int>{0});
  CHECK(a.placement.blocks[find_block(a.placement, "fr0")].devices == std::vector<int>{1});
  CHECK(a.placement.blocks[find_block(a.placement, "fr1")].devices == std::vector<int>{0});
  // Two overlaps, each with a B of the split stage 0 (its I and W) inside.
  REQUIRE(a.fused.size() == 2);
  CHECK(a.fused[0].members.size() == 3);
  CHECK(a.fused[1].members.size() == 3);
  CHECK(verify_schedule(a).valid);
  // The same orders as generate dualpipe builds (whose stages are all split).
  classic::SchemeRequest request;
  request.scheme = "dualpipe";
  request.ranks = 2;
  request.nmicros = 4;
  Schedule generated = classic::generate_scheme(request);
  CHECK(makespan(generated) == makespan(a));
  // Not mirrored: a stage on two ranks otherwise is still an error.
  CHECK_THROWS_WITH(import_table("0F0,1F0\n0F0\n1F0\n", PytorchDialect::current),
                    Catch::Contains("ranks s and R-1-s"));
}

TEST_CASE("PyTorch's artifacts round-trip: import, export, import gives the same schedule", "[formats]") {
  struct Artifact {
    std::string file;
    PytorchDialect dialect;
  };
  for (const Artifact& artifact : {Artifact{"dualpipev_4rank_10mb.csv", PytorchDialect::current},
                                   Artifact{"zb1p_2rank_2stagep_compute.csv", PytorchDialect::legacy},
                                   Artifact{"zb1p_2rank_2stagep_comms.csv", PytorchDialect::legacy}}) {
    INFO(artifact.file);
    std::string text = tessel::testing::read_text(std::string(TESSEL_SOURCE_DIR) + "/tests/data/pytorch/" + artifact.file);
    classic::StageCosts costs;
    costs.input_span = 2;  // B = 3, FB = 4: every cost distinct
    costs.backward_span = 3;
    Schedule first = import_table(text, artifact.dialect, costs);
    CHECK(verify_schedule(first).valid);
    std::string csv = write_pytorch_csv(first);
    Schedule again = import_table(csv, PytorchDialect::current, costs);
    CHECK(instance_set(again) == instance_set(first));
    REQUIRE(again.fused.size() == first.fused.size());
    for (size_t i = 0; i < first.fused.size(); ++i) {
      CHECK(again.fused[i].span == first.fused[i].span);
      CHECK(again.fused[i].members == first.fused[i].members);
    }
    CHECK(write_pytorch_csv(again) == csv);
  }
}

TEST_CASE("a generated DualPipe round-trips through a bidirectional PyTorch table", "[formats]") {
  for (int ranks : {2, 4, 6}) {
    INFO("ranks " << ranks);
    classic::SchemeRequest request;
    request.scheme = "dualpipe";
    request.ranks = ranks;
    request.nmicros = 2 * ranks + 4;
    request.costs.backward_span = 2;
    Schedule generated = classic::generate_scheme(request);
    std::string csv = write_pytorch_csv(generated);
    // The up direction's cells count their micro-batches after the down ones'.
    CHECK_THAT(csv, Catch::Contains("0F" + std::to_string(ranks + 2)));
    Schedule back = import_table(csv, PytorchDialect::current, request.costs);
    REQUIRE(verify_schedule(back).valid);
    CHECK(back.nmicros == generated.nmicros);
    CHECK(instance_set(back) == instance_set(generated));
    REQUIRE(back.fused.size() == generated.fused.size());
    for (size_t i = 0; i < back.fused.size(); ++i) CHECK(back.fused[i].members == generated.fused[i].members);
    CHECK(write_pytorch_csv(back) == csv);
  }
}

// A schedule of measured times (DualPipeV at spans 1.5, 0.75, 0.25: fused
// units, so not the staged writer) takes a column per distinct start, not
// per tick of its two decimals: 5026 columns a row before, and a spans of
// 1.000001 refused as 216 million cells; every action still read back.
TEST_CASE("pytorch-csv export of decimal times takes a column per start, not per tick", "[formats][cli]") {
  testing::TempDir dir;
  REQUIRE(testing::run_tessel("generate dualpipev --stages 4 --nmicros 8 --span F=1.5,I=0.75,W=0.25 -o " +
                              dir.file("dpv.json")).exit_code == 0);
  REQUIRE(testing::run_tessel("export --to pytorch-csv " + dir.file("dpv.json") + " -o " + dir.file("dpv.csv"))
              .exit_code == 0);
  const std::string text = testing::read_text(dir.file("dpv.csv"));
  const std::string first_row = text.substr(0, text.find('\n'));
  const Schedule schedule = read_schedule_file(dir.file("dpv.json"));
  CHECK(static_cast<size_t>(std::count(first_row.begin(), first_row.end(), ',')) < schedule.instances.size());
  const PytorchTable table = read_pytorch_csv(text, "dpv.csv", PytorchDialect::current);
  CHECK(table.ranks == 4);
  CHECK_FALSE(table.actions.empty());
  REQUIRE(testing::run_tessel("generate 1f1b --stages 4 --nmicros 8 --span F=1.000001,B=2 -o " + dir.file("f.json"))
              .exit_code == 0);
  CHECK(testing::run_tessel("export --to pytorch-csv " + dir.file("f.json") + " -o " + dir.file("f.csv")).exit_code ==
        0);
}
