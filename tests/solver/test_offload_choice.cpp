// Offload chosen inside the repetend (solver/solve/recompute_choice.hpp,
// solver/modulo/optional_offload.hpp): where keeping every activation needs
// a long period, copying some out to host memory and back reaches a shorter
// one; CaDiCaL and Z3 agree on the least period (every shorter one refuted
// for every choice of keeping or offloading); the repetend unrolled lists
// its copies and passes the verifier, which rejects it once a copy is moved
// onto another on its channel or past the block that needs it; inside the
// search the proven period bound is the one decided with the copies.
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "sat/backend.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/search.hpp"
#include "tests/solver/choice_questions.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Every forward with memory offers offload (copies `out` and `in` long)
// before the block testing::offering_recompute would recompute it for;
// `recompute` keeps that offer beside it.
Placement offering_offload(const Placement& base, Time out, Time in, bool recompute = false) {
  Placement placement = testing::offering_recompute(base);
  for (Block& block : placement.blocks) {
    if (!block.recompute) continue;
    block.offload = OffloadOffer{out, in, block.recompute->before};
    if (!recompute) block.recompute.reset();
  }
  return placement;
}

RecomputeChoiceAnswer decide(const Placement& placement, long long memory, const std::string& backend, int first,
                             int last, int k = 1) {
  // Z3 bisects the latency of a window slowly: latency only for k = 1.
  return testing::decide_choosing(placement, k, memory, backend, first, last, k == 1);
}

int copies_out(const Schedule& schedule) {
  int outs = 0;
  for (const Transfer& copy : schedule.transfers) outs += copy.direction == TransferDirection::Out;
  return outs;
}

// The unrolled repetend at `nmicros`, required valid.
Schedule unrolled_valid(const Placement& placement, const RecomputeChoiceAnswer& answer, long long memory,
                        int nmicros, int k = 1) {
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement, k);
  REQUIRE(choice);
  const Schedule schedule = unrolled_choosing_recompute(*choice, answer, placement,
                                                        std::vector<Memory>(placement.ndevs, memory), nmicros);
  const verify::Report report = testing::verify_schedule(schedule);
  for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
  CHECK(report.valid);
  return schedule;
}

std::set<std::string> kinds(const verify::Report& report) {
  std::set<std::string> found;
  for (const verify::Violation& violation : report.violations) found.insert(violation.kind);
  return found;
}

}  // namespace

TEST_CASE("vshape 4/2 offering offload: copies reach a shorter period, proven by both backends",
          "[solver][memory-choice][offload]") {
  const Placement placement = offering_offload(make_case("vshape", 4, false), 1, 1);
  const int load = static_cast<int>(period_lower_bound(placement));
  {
    // Keeping everything, every period below 8 is refuted.
    std::unique_ptr<Backend> backend = make_backend("cadical");
    const ModuloEncoding kept = encode_modulo(*backend, make_case("vshape", 4, false), std::vector<long long>(4, 2),
                                              {load, 8}, static_cast<int>(placement.blocks.size()));
    for (int period = load; period < 8; ++period)
      CHECK(backend->solve({period_assumption(kept, period)}, Deadline::after_seconds(60)) == Answer::Unsat);
  }
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const RecomputeChoiceAnswer answer = decide(placement, 2, backend, load, 8);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(*answer.period < 8);
    CHECK(answer.proven_lower_bound == *answer.period);
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    CHECK(std::count(answer.chosen.begin(), answer.chosen.end(), true) == 0);  // nothing to recompute
    CHECK(std::count(answer.offloaded.begin(), answer.offloaded.end(), true) > 0);
    const Schedule schedule = unrolled_valid(placement, answer, 2, 12);
    CHECK(copies_out(schedule) > 0);
    CHECK(schedule.recomputes.empty());
    CHECK(makespan(schedule) == 11 * *answer.period + answer.latency);
    // Compacted on its compute, the copies laid on the channels again: the
    // same copies, and where the verifier accepts it, no longer.
    const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement);
    const Schedule tight = compacted_choosing_recompute(*choice, answer, placement, std::vector<Memory>(4, 2), 12);
    CHECK(tight.transfers.size() == schedule.transfers.size());
    const verify::Report tight_report = testing::verify_schedule(tight);
    if (tight_report.valid) CHECK(tight_report.makespan <= makespan(schedule));
  }
}

TEST_CASE("one device at limit 1: nothing keeps, offloading finds a period", "[solver][memory-choice][offload]") {
  // f0 f1 b1 b0 on one device, f0 and f1 holding 1 each: a micro-batch
  // keeping both needs 2.
  Placement placement;
  placement.ndevs = 1;
  const std::tuple<const char*, BlockKind, Time, Memory> blocks[] = {
      {"f0", BlockKind::Forward, 1, 1}, {"f1", BlockKind::Forward, 1, 1},
      {"b1", BlockKind::Backward, 2, -1}, {"b0", BlockKind::Backward, 2, -1}};
  for (const auto& [id, kind, span, memory] : blocks)
    placement.blocks[testing::add_block(placement, id, {0}, span, memory)].kind = kind;
  placement.edges = {{0, 1}, {1, 2}, {2, 3}};
  const int load = static_cast<int>(period_lower_bound(placement));
  {
    std::unique_ptr<Backend> backend = make_backend("cadical");
    const ModuloEncoding kept = encode_modulo(*backend, placement, {1}, {load, load + 6}, 4);
    for (int period = load; period <= load + 6; ++period)
      CHECK(backend->solve({period_assumption(kept, period)}, Deadline::after_seconds(60)) == Answer::Unsat);
  }
  placement.blocks[0].offload = OffloadOffer{1, 1, 3};
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const RecomputeChoiceAnswer answer = decide(placement, 1, backend, load, load + 6);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(answer.proven_lower_bound == *answer.period);
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    REQUIRE(answer.offloaded.size() == 1);
    CHECK(answer.offloaded[0]);
    CHECK(copies_out(unrolled_valid(placement, answer, 1, 8)) == 8);
  }
}

TEST_CASE("vshape 4/2 offering both: one choice per forward, both backends agree, verified",
          "[solver][memory-choice][offload]") {
  const Placement placement = offering_offload(make_case("vshape", 4, false), 2, 2, true);
  const int load = static_cast<int>(period_lower_bound(placement));
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const RecomputeChoiceAnswer answer = decide(placement, 2, backend, load, 8);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(answer.proven_lower_bound == *answer.period);
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    REQUIRE(answer.chosen.size() == answer.offloaded.size());
    for (size_t i = 0; i < answer.chosen.size(); ++i) CHECK_FALSE((answer.chosen[i] && answer.offloaded[i]));
    const Schedule schedule = unrolled_valid(placement, answer, 2, 12);  // marked both would be a "choice" violation
    CHECK(copies_out(schedule) + static_cast<int>(schedule.recomputes.size()) > 0);
  }
}

TEST_CASE("vshape 4/2 offering offload in windows of 2: copies chosen per window position, verified",
          "[solver][memory-choice][offload]") {
  const Placement placement = offering_offload(make_case("vshape", 4, false), 1, 1);
  const int load = static_cast<int>(period_lower_bound(placement));
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement, 2);
  REQUIRE(choice);
  CHECK(choice->offloads.size() == 8);  // 4 offering forwards x 2 positions
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const RecomputeChoiceAnswer answer = decide(placement, 2, backend, 2 * load, 2 * load + 2, 2);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(*answer.period == 2 * load);  // as windows of one: the load
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    for (int nmicros : {12, 13}) {  // whole windows, and a last window cut short
      INFO(nmicros);
      const Schedule schedule = unrolled_valid(placement, answer, 2, nmicros, 2);
      CHECK(copies_out(schedule) > 0);
      for (const Transfer& copy : schedule.transfers) {  // as its window position chose
        bool chosen = false;
        for (size_t i = 0; i < choice->offloads.size(); ++i)
          chosen = chosen || (answer.offloaded[i] &&
                              choice->offloads[i].forward == (copy.micro % 2) * choice->blocks_per_copy + copy.block);
        CHECK(chosen);
      }
    }
  }
}

namespace {

// The first copy out on `device`'s channel after `copy` (another
// micro-batch's or another forward's), as an index into the transfers.
nlohmann::json& transfer_entry(nlohmann::json& document, int block, int micro, const std::string& direction) {
  const std::string id = document["placement"]["blocks"][block]["id"];
  for (nlohmann::json& entry : document["transfers"])
    if (entry["block"] == id && entry["micro"] == micro && entry["direction"] == direction) return entry;
  throw std::runtime_error("test bug: no such copy");
}

}  // namespace

TEST_CASE("the verifier rejects the repetend's copies moved onto each other or past the block that needs them",
          "[solver][memory-choice][offload]") {
  const Placement placement = offering_offload(make_case("vshape", 4, false), 1, 1);
  const RecomputeChoiceAnswer answer = decide(placement, 2, "cadical", 4, 8);
  REQUIRE(answer.period);
  const Schedule schedule = unrolled_valid(placement, answer, 2, 8);
  REQUIRE(schedule.transfers.size() >= 4);
  const Transfer first = schedule.transfers.front();  // some forward's copies, micro-batch 0
  const nlohmann::json valid = schedule_to_json(schedule);
  {
    // Its copy out moved onto the next micro-batch's copy out on the same channel.
    nlohmann::json document = valid;
    const Time next = transfer_entry(document, first.block, 1, "out")["start"];
    transfer_entry(document, first.block, 0, "out")["start"] = next;
    const verify::Report report = verify::check_schedule(document);
    CHECK_FALSE(report.valid);
    CHECK(kinds(report).count("channel"));
  }
  {
    // Its copy in started so late that it ends after the block that needs it starts.
    nlohmann::json document = valid;
    const int before = placement.blocks[first.block].offload->before;
    Time needed = -1;
    for (const Instance& instance : schedule.instances)
      if (instance.block == before && instance.micro == 0) needed = instance.start;
    REQUIRE(needed >= 0);
    transfer_entry(document, first.block, 0, "in")["start"] = needed;
    const verify::Report report = verify::check_schedule(document);
    CHECK_FALSE(report.valid);
    CHECK(kinds(report).count("order"));
    bool named = false;
    for (const verify::Violation& violation : report.violations)
      named = named || (violation.kind == "order" && violation.message.find("which needs the activation") != std::string::npos);
    CHECK(named);
  }
}

TEST_CASE("the search proves its period with offload in the encoding, on both backends",
          "[solver][memory-choice][offload]") {
  SearchRequest request;
  request.placement = offering_offload(make_case("vshape", 4, false), 1, 1);
  request.memory_limit = std::vector<Memory>(4, 2);
  request.total_micros = 16;
  request.threads = 1;
  Progress quiet;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    request.backend = backend;
    const SearchReport report = solve(request, quiet);
    REQUIRE(report.period);
    REQUIRE(report.best);
    const verify::Report checked = testing::verify_schedule(*report.best);
    for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
    CHECK(report.period->period == 8);  // keeping everything
    CHECK(report.period->recompute_decided);
    REQUIRE(report.period->recompute_period);
    CHECK(report.period->proven_lower_bound == *report.period->recompute_period);  // decided, not L by default
    CHECK(*report.period->recompute_period == report.period->lower_bound);          // the load: copies cost no compute
    CHECK(report.period->recompute_chosen.empty());
    CHECK(report.period->offload_offers == 4);
    REQUIRE_FALSE(report.period->offload_chosen.empty());
    CHECK_FALSE(report.best->transfers.empty());
    bool offered = false;
    for (const Candidate& candidate : report.makespan->candidates)
      offered = offered || (candidate.name.rfind("repetend, offload chosen", 0) == 0 && candidate.makespan);
    CHECK(offered);
  }
}

TEST_CASE("offload offered only on forwards holding nothing: nothing to choose, nothing claimed",
          "[solver][memory-choice][offload]") {
  // One device: f (holding nothing, offering offload) -> x (allocates 1)
  // -3 ticks-> b (frees it). At limit 1 each micro-batch holds its unit
  // for 4 ticks, so the period (4) is above the load (3), and copying f's
  // activation frees nothing.
  SearchRequest request;
  request.placement.ndevs = 1;
  testing::add_block(request.placement, "f", {0}, 1, 0);
  testing::add_block(request.placement, "x", {0}, 1, 1);
  testing::add_block(request.placement, "b", {0}, 1, -1);
  request.placement.blocks[1].kind = BlockKind::Other;
  request.placement.blocks[2].kind = BlockKind::Backward;
  request.placement.edges = {{0, 1, 0}, {1, 2, 3}};
  request.placement.blocks[0].offload = OffloadOffer{1, 1, 2};
  CHECK_FALSE(recompute_choice_placement(request.placement));
  request.memory_limit = {1};
  request.total_micros = 8;
  request.threads = 1;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.period);
  CHECK(report.period->period > report.period->lower_bound);
  CHECK_FALSE(report.period->recompute_decided);
  CHECK_FALSE(report.period->recompute_period);
  CHECK(report.period->proven_lower_bound == report.period->lower_bound);  // L only: nothing decided
  REQUIRE(report.best);
  CHECK(testing::verify_schedule(*report.best).valid);
}
