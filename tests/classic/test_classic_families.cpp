// The schedule families of the reference implementations, order for order:
// DualPipeV against PyTorch's own test artifact, DualPipe by hand from
// dualpipe.py, V-Half, V-Min and the memory-limited zero-bubble heuristic
// against orders printed by the zero-bubble repository's schedulers
// (tests/data/zero_bubble/README.md), PyTorch's interleaved 1F1B, looped BFS
// and interleaved zero bubble by hand from schedules.py and against
// PyTorch's ZB-1P artifact; then the published closed forms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/schemes.hpp"
#include "classic/timed_schedule.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/placement_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using classic::Action;
using classic::RankOrders;
using tessel::testing::verify_schedule;

namespace {

std::string data(const std::string& name) { return std::string(TESSEL_SOURCE_DIR) + "/tests/data/" + name; }

// A table's compute cells as rank orders in the current meaning (legacy: B is
// I where the stage has W cells, BW is B); overlap cells keep their marks.
RankOrders table_orders(const std::string& file, PytorchDialect dialect = PytorchDialect::current) {
  PytorchTable table = read_pytorch_csv_file(file, dialect);
  std::set<int> split;
  for (const PytorchAction& cell : table.actions)
    if (cell.action == "W" || cell.action == "I") split.insert(cell.stage);
  RankOrders orders(table.ranks);
  for (const PytorchAction& cell : table.actions) {
    if (!cell.compute()) continue;
    char kind = cell.action == "BW" ? 'B' : cell.action[0];
    if (dialect == PytorchDialect::legacy && kind == 'B' && cell.action == "B" && split.count(cell.stage)) kind = 'I';
    orders[cell.rank].push_back({kind, cell.stage, cell.micro, false, cell.overlaps_next});
  }
  return orders;
}

std::string order_text(const std::vector<Action>& order) {
  std::string text;
  for (const Action& action : order)
    text += classic::action_name(action) + (action.overlaps_next ? "&" : " ");
  return text;
}

classic::SchemeRequest request_for(const std::string& scheme, int ranks, int nmicros) {
  classic::SchemeRequest request;
  request.scheme = scheme;
  request.ranks = ranks;
  request.nmicros = nmicros;
  request.costs.forward_span = request.costs.input_span = request.costs.weight_span = 1;
  return request;
}

Time busy_time(const Schedule& schedule, int device) {
  std::map<std::pair<int, int>, const FusedUnit*> unit_of;
  for (const FusedUnit& unit : schedule.fused)
    for (const FusedMember& member : unit.members) unit_of[{member.block, member.micro}] = &unit;
  std::set<const FusedUnit*> counted;
  Time busy = 0;
  for (const Instance& instance : schedule.instances) {
    const Block& block = schedule.placement.blocks[instance.block];
    if (block.devices.front() != device) continue;
    auto found = unit_of.find({instance.block, instance.micro});
    if (found == unit_of.end()) busy += block.span;
    else if (counted.insert(found->second).second) busy += found->second->span;
  }
  return busy;
}

}  // namespace

TEST_CASE("dualpipev builds PyTorch's own DualPipeV artifact (4 ranks, 10 micro-batches)", "[classic][families]") {
  RankOrders expected = table_orders(data("pytorch/dualpipev_4rank_10mb.csv"));
  RankOrders built = classic::dualpipev_orders(4, 10);
  REQUIRE(built.size() == 4);
  for (int rank = 0; rank < 4; ++rank) {
    INFO("rank " << rank);
    CHECK(order_text(built[rank]) == order_text(expected[rank]));
  }
}

TEST_CASE("dualpipe on 2 ranks, 4 micro-batches: the eight steps of dualpipe.py by hand", "[classic][families]") {
  // Rank 0: phase 0 is the down stage 0, phase 1 the up stage 1; rank 1 (the
  // second half) the other way round. Both are middle ranks: the first
  // F0&B1 of step 4 runs unfused. Step 6 switches to zero bubble before B0.
  RankOrders built = classic::dualpipe_orders(2, 4);
  CHECK(order_text(built[0]) == "0F0 1F0r 0F1 1B0r 1F1r&0B0 1B1r 0I1 0W1 ");
  CHECK(order_text(built[1]) == "0F0r 1F0 0F1r 1B0 1F1&0B0r 1B1 0I1r 0W1r ");
  CHECK_THROWS_AS(classic::dualpipe_orders(3, 6), std::invalid_argument);   // odd ranks
  CHECK_THROWS_AS(classic::dualpipe_orders(4, 6), std::invalid_argument);   // fewer than 2 x ranks
  CHECK_THROWS_AS(classic::dualpipev_orders(4, 7), std::invalid_argument);
}

TEST_CASE("v-half, v-min and zb-auto build the zero-bubble repository's orders", "[classic][families]") {
  std::regex name(R"((v-half|v-min)_p(\d+)_n(\d+)\.csv|zb-auto_p(\d+)_n(\d+)_pending(\d+)_F(\d+)B(\d+)W(\d+)\.csv)");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data("zero_bubble"))) {
    std::string file = entry.path().filename().string();
    std::smatch match;
    if (!std::regex_match(file, match, name)) continue;
    ++files;
    INFO(file);
    RankOrders expected = table_orders(entry.path().string());
    RankOrders built;
    if (match[1].matched) {
      built = classic::v_schedule_orders(std::stoi(match[2]), std::stoi(match[3]), match[1] == "v-min");
    } else {
      int ranks = std::stoi(match[4]);
      classic::StageCosts costs;
      costs.forward_span = std::stoi(match[7]);
      costs.input_span = std::stoi(match[8]);
      costs.weight_span = std::stoi(match[9]);
      classic::StageGraph graph = classic::uniform_stage_graph(ranks, classic::loop_stage_map(ranks, 1), true, costs);
      built = classic::zb_auto_orders(graph, std::stoi(match[5]), std::stoi(match[6]));
    }
    REQUIRE(built.size() == expected.size());
    for (size_t rank = 0; rank < built.size(); ++rank) CHECK(order_text(built[rank]) == order_text(expected[rank]));
  }
  CHECK(files == 15);
}

TEST_CASE("zb-auto's makespans are the zero-bubble heuristic's best times", "[classic][families]") {
  // initial_solution printed 27, 24 and 37 for these (F=B=W=1, one stage per
  // rank, the time from a stage's first F to its last W, maximised): with
  // every stage starting its window as early as it can, the same numbers
  // are the makespans minus the last stage's offset of p - 1.
  struct Case {
    int ranks, nmicros;
    long long pending, best;
  };
  for (const Case& c : {Case{4, 8, 4, 27}, Case{4, 8, 8, 24}, Case{4, 12, 6, 37}}) {
    classic::SchemeRequest request = request_for("zb-auto", c.ranks, c.nmicros);
    request.max_pending = c.pending;
    Schedule schedule = classic::generate_scheme(request);
    verify::Report report = verify_schedule(schedule);
    REQUIRE(report.valid);
    long long window = 0;
    for (int device = 0; device < c.ranks; ++device) {
      Time first = makespan(schedule), last = 0;
      std::vector<Time> ends = instance_ends(schedule);
      for (size_t i = 0; i < schedule.instances.size(); ++i)
        if (schedule.placement.blocks[schedule.instances[i].block].devices.front() == device) {
          first = std::min(first, schedule.instances[i].start);
          last = std::max(last, ends[i]);
        }
      window = std::max<long long>(window, last - first);
    }
    CHECK(window == c.best);
    for (long long peak : report.peak_memory) CHECK(peak <= c.pending);
  }
}

// The longest time from a rank's first start to its last end, over the ranks:
// what the zero-bubble repository's schedulers report as their time.
Time longest_rank_window(const Schedule& schedule) {
  std::vector<Time> ends = instance_ends(schedule);
  std::map<int, std::pair<Time, Time>> window;  // device -> (first start, last end)
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    int device = schedule.placement.blocks[schedule.instances[i].block].devices.front();
    auto [found, fresh] = window.emplace(device, std::make_pair(schedule.instances[i].start, ends[i]));
    found->second.first = std::min(found->second.first, schedule.instances[i].start);
    found->second.second = std::max(found->second.second, ends[i]);
  }
  Time longest = 0;
  for (const auto& [device, span] : window) longest = std::max(longest, span.second - span.first);
  return longest;
}

TEST_CASE("v-half and v-min take the zero-bubble repository's times with any costs", "[classic][families]") {
  // schedule_from_pattern's max_time, printed by zbv_greedy.py for these
  // (ranks, micro-batches, F, B, W), no communication cost.
  struct Case {
    std::string scheme;
    int ranks, nmicros, f, b, w;
    Time time;
  };
  for (const Case& c : {Case{"v-half", 4, 8, 1, 1, 1, 53}, Case{"v-half", 4, 8, 2, 3, 1, 124},
                        Case{"v-half", 6, 12, 3, 2, 2, 205}, Case{"v-half", 8, 16, 1, 2, 1, 176},
                        Case{"v-min", 4, 8, 1, 1, 1, 59}, Case{"v-min", 4, 8, 2, 3, 1, 167},
                        Case{"v-min", 6, 12, 3, 2, 2, 246}, Case{"v-min", 8, 16, 1, 2, 1, 227}}) {
    INFO(c.scheme << " " << c.ranks << " " << c.nmicros << " F" << c.f << " B" << c.b << " W" << c.w);
    classic::SchemeRequest request = request_for(c.scheme, c.ranks, c.nmicros);
    request.costs.forward_span = c.f;
    request.costs.input_span = c.b;
    request.costs.weight_span = c.w;
    Schedule schedule = classic::generate_scheme(request);
    REQUIRE(verify_schedule(schedule).valid);
    CHECK(longest_rank_window(schedule) == c.time);
  }
}

TEST_CASE("interleaved 1F1B: PyTorch's rounds equal Megatron with that group size; Megatron refuses 6 and 10 on 4 ranks",
          "[classic][families]") {
  // PyTorch: rounds = max(1, M // 4), group = M / rounds: 6 -> 6, 10 -> 5, 8 -> 4.
  CHECK(classic::pytorch_round_size(4, 6) == 6);
  CHECK(classic::pytorch_round_size(4, 10) == 5);
  CHECK(classic::pytorch_round_size(4, 8) == 4);
  CHECK(classic::pytorch_round_size(4, 3) == 3);
  CHECK_THROWS_AS(classic::pytorch_round_size(4, 9), std::invalid_argument);  // 2 rounds do not divide 9
  CHECK_THROWS_AS(classic::check_megatron_group(4, 6, 4), std::invalid_argument);
  CHECK_THROWS_AS(classic::check_megatron_group(4, 10, 4), std::invalid_argument);
  CHECK_NOTHROW(classic::check_megatron_group(4, 12, 4));
  // Rank 3 at M = 10 (group 5): 5 warmup forwards of chunk 0, then 1F1B.
  std::vector<int> rank3 = classic::megatron_rank_order(4, 3, 2, 10, 5);
  CHECK(std::vector<int>(rank3.begin(), rank3.begin() + 9) == std::vector<int>{1, 1, 1, 1, 1, 2, -2, 2, -2});
  for (int nmicros : {6, 8, 10, 12}) {
    classic::SchemeRequest pytorch = request_for("interleaved-1f1b", 4, nmicros);
    pytorch.costs = classic::StageCosts{};
    pytorch.flavour = classic::Flavour::pytorch;
    classic::SchemeRequest megatron = pytorch;
    megatron.flavour = classic::Flavour::megatron;
    megatron.group = classic::pytorch_round_size(4, nmicros);
    Schedule a = classic::generate_scheme(pytorch), b = classic::generate_scheme(megatron);
    REQUIRE(verify_schedule(a).valid);
    CHECK(makespan(a) == makespan(b));
    CHECK(a.instances.size() == b.instances.size());
  }
  // Current Megatron has no "all warmup when M == ranks" rule any more.
  std::vector<int> last_rank = classic::megatron_rank_order(4, 3, 2, 4, 4);
  CHECK(std::vector<int>(last_rank.begin(), last_rank.begin() + 6) == std::vector<int>{1, 1, 1, 1, 2, -2});
}

TEST_CASE("looped BFS and interleaved zero bubble follow PyTorch's schedules.py", "[classic][families]") {
  RankOrders bfs = classic::looped_bfs_orders(2, 2, 2, false);
  CHECK(order_text(bfs[0]) == "0F0 0F1 2F0 2F1 2B1 2B0 0B1 0B0 ");
  CHECK(order_text(bfs[1]) == "1F0 1F1 3F0 3F1 3B1 3B0 1B1 1B0 ");
  // By hand from _get_1f1b_rank_ops with enable_zero_bubble: 2 ranks, 2
  // chunks, 2 micro-batches (one round of 2), warmup 3 and 2.
  CHECK(order_text(classic::interleaved_zb_rank_order(2, 0, 2, 2)) == "0F0 0F1 2F0 2F1 2I0 2W0 2I1 2W1 0I0 0W0 0I1 0W1 ");
  CHECK(order_text(classic::interleaved_zb_rank_order(2, 1, 2, 2)) == "1F0 1F1 3F0 3I0 3F1 3I1 3W0 1I0 3W1 1I1 1W0 1W1 ");
  // PyTorch's ZB-1P artifact (2 ranks, 2 stages each, 8 micro-batches,
  // legacy dialect) is this schedule.
  RankOrders artifact = table_orders(data("pytorch/zb1p_2rank_2stagep_compute.csv"), PytorchDialect::legacy);
  for (int rank = 0; rank < 2; ++rank)
    CHECK(order_text(classic::interleaved_zb_rank_order(2, rank, 2, 8)) == order_text(artifact[rank]));
}

TEST_CASE("every new family generates schedules the verifier accepts", "[classic][families]") {
  for (std::string scheme : {"looped-bfs", "interleaved-zb", "zb-auto", "v-half", "v-min"})
    for (int ranks : {2, 3, 4, 8})
      for (int nmicros : {ranks, 2 * ranks, 3 * ranks}) {
        INFO(scheme << " " << ranks << " " << nmicros);
        Schedule schedule = classic::generate_scheme(request_for(scheme, ranks, nmicros));
        verify::Report report = verify_schedule(schedule);
        CHECK(report.valid);
        CHECK(report.peak_memory == schedule.memory_limit);
      }
}

TEST_CASE("activation memory: 1F1B p, V-ZB p, V-Half (p+2)//2, V-Min (p+4)//3 stage activations", "[classic][families]") {
  // A v-shaped rank holds two chunks of half a stage each: its peak in chunk
  // units is twice its peak in stage units.
  for (int p = 2; p <= 8; ++p) {
    INFO("p " << p);
    auto peak = [&](const std::string& scheme) {
      verify::Report report = verify_schedule(classic::generate_scheme(request_for(scheme, p, 4 * p)));
      REQUIRE(report.valid);
      return *std::max_element(report.peak_memory.begin(), report.peak_memory.end());
    };
    CHECK(peak("1f1b") == p);
    CHECK(peak("zb-v") == 2 * p);
    CHECK(peak("v-half") == 2 * ((p + 2) / 2));
    CHECK(peak("v-min") == 2 * ((p + 4) / 3));
  }
}

TEST_CASE("DualPipe and DualPipeV: bubble (PP/2-1)(F&B + B - 3W), activations PP+1", "[classic][families]") {
  // DualPipe's README table, PP pipeline stages (DualPipe: PP ranks;
  // DualPipeV: PP/2 ranks). The bubble is the idle time of the idlest rank
  // (makespan minus its busy time, an overlapped unit counting F&B). It holds
  // exactly when F = I = W (a full backward B = 2F, as DeepSeek draws it) and
  // B <= F&B <= F + B; measured outside that, the idlest rank differs from
  // the formula by a few steps either way (e.g. F=1,I=2,W=1,F&B=3 on 8
  // ranks: 8 instead of 9 for DualPipe, 20 instead of 21 for DualPipeV).
  for (int pp : {4, 8, 12, 16})
    for (int x : {1, 2, 3})
      for (int overlap : {2 * x, 3 * x - 1, 3 * x})
        for (std::string scheme : {"dualpipe", "dualpipev"}) {
          int ranks = scheme == "dualpipe" ? pp : pp / 2;
          INFO(scheme << " PP " << pp << " F=I=W=" << x << " F&B " << overlap);
          classic::SchemeRequest request = request_for(scheme, ranks, 2 * pp + 4);
          request.costs.forward_span = request.costs.input_span = request.costs.weight_span = x;
          request.costs.backward_span = 2 * x;
          request.costs.overlap_span = overlap;
          Schedule schedule = classic::generate_scheme(request);
          Time idlest = 0;
          for (int device = 0; device < ranks; ++device)
            idlest = std::max(idlest, makespan(schedule) - busy_time(schedule, device));
          CHECK(idlest == (pp / 2 - 1) * (overlap + 2 * x - 3 * x));
          std::vector<long long> peak = classic::peak_memory(schedule.placement, schedule.instances);
          CHECK(*std::max_element(peak.begin(), peak.end()) == pp + 1);
        }
}

TEST_CASE("generate on the command line: every scheme with --placement-out, and the options it refuses",
          "[classic][families][cli]") {
  using tessel::testing::run_tessel;
  tessel::testing::TempDir dir;
  for (const std::string& scheme : classic::scheme_names()) {
    INFO(scheme);
    auto result = run_tessel("generate " + scheme + " --stages 4 --nmicros 8 --placement-out " + dir.file("pl.json") +
                             " -o " + dir.file("s.json") + " --report");
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.err, Catch::Contains("valid (verifier)"));
    CHECK(run_tessel("verify " + dir.file("s.json")).exit_code == 0);
    // The placement the makespan tables hand to `tessel search`: the schedule's own.
    CHECK(placement_to_json(read_placement_file(dir.file("pl.json"))) ==
          placement_to_json(read_schedule_file(dir.file("s.json")).placement));
  }
  // The report is in the placement's units (the verifier counts tenths here).
  auto halves = run_tessel("generate 1f1b --stages 4 --nmicros 8 --span F=1.5,B=3 -o " + dir.file("h.json") + " --report");
  CHECK(halves.exit_code == 0);
  CHECK_THAT(halves.err, Catch::Contains("valid (verifier): makespan 49.5,"));
  struct Refused {
    std::string args, field, reason;
  };
  for (const Refused& row : std::vector<Refused>{
           {"zb-v --chunks 3", "--chunks", "zb-v has 2 stage(s) per rank"},
           {"1f1b --chunks 2", "--chunks", "1f1b has 1 stage(s) per rank"},
           {"dualpipev --chunks 4", "--chunks", "dualpipev has 2"},
           {"1f1b --flavour pytorch", "--flavour", "interleaved-1f1b only"},
           {"interleaved-1f1b --flavour pytorch --group 4", "--group", "PyTorch derives it"},
           {"interleaved-1f1b --flavour torch", "--flavour", "megatron or pytorch"},
           {"zb-h1 --max-pending 4", "--max-pending", "zb-auto only"},
           {"1f1b --span F=1,FB=2", "--span", "KEY one of F, B, W"},
           {"zb-h1 --span I=2", "--span", "KEY one of F, B, W"},
           {"dualpipev --memory B=-1", "--memory", "KEY one of F, I, W"},
           {"1f1b --span F=1,F=2", "--span", "given twice"},
       }) {
    INFO(row.args);
    auto result = run_tessel("generate " + row.args + " --stages 4 --nmicros 8");
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(row.field) && Catch::Contains(row.reason));
  }
  // Sizes the reference refuses are refused with its reason.
  auto megatron = run_tessel("generate interleaved-1f1b --stages 4 --nmicros 6");
  CHECK(megatron.exit_code == 2);
  CHECK_THAT(megatron.err, Catch::Contains("last micro-batch group of 2") && Catch::Contains("--flavour pytorch"));
  CHECK(run_tessel("generate interleaved-1f1b --stages 4 --nmicros 6 --flavour pytorch -o /dev/null").exit_code == 0);
  CHECK(run_tessel("generate interleaved-1f1b --stages 4 --nmicros 6 --group 6 -o /dev/null").exit_code == 0);
  auto few = run_tessel("generate dualpipe --stages 4 --nmicros 6");
  CHECK(few.exit_code == 2);
  CHECK_THAT(few.err, Catch::Contains("at least 2 x ranks = 8"));
  auto tight = run_tessel("generate zb-auto --stages 4 --nmicros 8 --memory F=1,B=1,W=-2 --max-pending 1");
  CHECK(tight.exit_code == 2);
  CHECK_THAT(tight.err, Catch::Contains("cannot fit memory"));
}
