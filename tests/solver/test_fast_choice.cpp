// Strategy fast chooses too (solver/solve/recompute_choice_search.hpp,
// choice_follows): after its constructed period, the periods below it are
// decided again with a recompute or an offload chosen per offering
// forward, and the repetend found is a candidate at N. On vshape 4 at
// memory 2 (keeping everything needs period 8) fast then answers shorter
// with offers than without, CaDiCaL and Z3 agree on the period found and
// the makespan proven, the answer passes the verifier, and the verifier
// rejects it with a copy or a recompute moved where it no longer fits.
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/schedule_json.hpp"
#include "solver/search.hpp"
#include "tests/support.hpp"
#include "verify/verify.hpp"

using namespace tessel;

namespace {

// Every forward with memory offers offload (copies of one tick) before the
// block testing::offering_recompute names; `recompute` keeps that offer too.
Placement offering_offload(const Placement& base, bool recompute) {
  Placement placement = testing::offering_recompute(base);
  for (Block& block : placement.blocks) {
    if (!block.recompute) continue;
    block.offload = OffloadOffer{1, 1, block.recompute->before};
    if (!recompute) block.recompute.reset();
  }
  return placement;
}

SearchReport fast(const Placement& placement, const std::string& backend) {
  SearchRequest request;
  request.placement = placement;
  request.memory_limit = std::vector<Memory>(placement.ndevs, 2);
  request.total_micros = 16;
  request.threads = 1;
  request.strategy = Strategy::Fast;
  request.backend = backend;
  Progress quiet;
  return solve(request, quiet);
}

// The answer, required valid by the verifier.
const Schedule& valid_best(const SearchReport& report) {
  REQUIRE(report.best);
  const verify::Report checked = testing::verify_schedule(*report.best);
  for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
  CHECK(checked.valid);
  return *report.best;
}

std::set<std::string> kinds(const nlohmann::json& document) {
  std::set<std::string> found;
  for (const verify::Violation& violation : verify::check_schedule(document).violations) found.insert(violation.kind);
  return found;
}

}  // namespace

TEST_CASE("strategy fast offering offload: the copies chosen reach the load, both backends agree, verified",
          "[solver][fast][memory-choice][offload]") {
  const Placement plain = make_case("vshape", 4, false);
  const SearchReport without = fast(plain, "cadical");
  REQUIRE(without.makespan);
  valid_best(without);
  REQUIRE(without.period);
  CHECK(without.period->period == 8);  // keeping everything, as constructed
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const SearchReport with = fast(offering_offload(plain, false), backend);
    REQUIRE(with.makespan);
    REQUIRE(with.period);
    const Schedule& best = valid_best(with);
    CHECK(with.period->recompute_decided);
    REQUIRE(with.period->recompute_period);
    CHECK(*with.period->recompute_period == with.period->lower_bound);  // 4: copies cost no compute
    CHECK(with.period->proven_lower_bound == *with.period->recompute_period);
    CHECK(with.makespan->makespan < without.makespan->makespan);
    // The repetend's copies at N meet the bound without memory: optimal, on both backends.
    CHECK(with.makespan->makespan == with.makespan->proven_lower_bound);
    CHECK(with.makespan->proven_optimal);
    CHECK_FALSE(best.transfers.empty());
  }
}

TEST_CASE("strategy fast offering recomputation: the period decided again, the same on both backends",
          "[solver][fast][memory-choice][recompute-choice]") {
  const Placement plain = make_case("vshape", 4, false);
  const SearchReport without = fast(plain, "cadical");
  REQUIRE(without.makespan);
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const SearchReport with = fast(testing::offering_recompute(plain), backend);
    REQUIRE(with.period);
    REQUIRE(with.makespan);
    valid_best(with);
    CHECK(with.period->period == 8);  // the constructed period keeps everything
    CHECK(with.period->recompute_decided);
    REQUIRE(with.period->recompute_period);
    CHECK(*with.period->recompute_period == 5);  // 4 refuted for every choice, as the repetend strategy finds
    CHECK(with.period->proven_lower_bound == 5);
    CHECK_FALSE(with.period->recompute_chosen.empty());
    CHECK(with.makespan->makespan < without.makespan->makespan);
    bool listed = false;
    for (const Candidate& candidate : with.makespan->candidates)
      listed = listed || (candidate.name.rfind("repetend, recompute chosen", 0) == 0 && candidate.makespan);
    CHECK(listed);
  }
}

TEST_CASE("strategy fast's traded answer rejected once a copy or a recompute is moved where it cannot be",
          "[solver][fast][memory-choice][offload]") {
  const SearchReport with = fast(offering_offload(make_case("vshape", 4, false), true), "cadical");
  const Schedule& best = valid_best(with);
  REQUIRE_FALSE(best.transfers.empty());
  const nlohmann::json valid = schedule_to_json(best);
  {
    // Every copy out at time 0: two copies at once on a channel, or one before its forward ends.
    nlohmann::json document = valid;
    for (nlohmann::json& copy : document["transfers"])
      if (copy["direction"] == "out") copy["start"] = 0;
    CHECK_FALSE(verify::check_schedule(document).valid);
    CHECK((kinds(document).count("channel") + kinds(document).count("order")) > 0);
  }
  {
    // A copy in started at the start of the block that needs it: it ends too late.
    nlohmann::json document = valid;
    Transfer copy = best.transfers.front();
    for (const Transfer& transfer : best.transfers)
      if (transfer.direction == TransferDirection::In) copy = transfer;
    REQUIRE(copy.direction == TransferDirection::In);
    const int needs = best.placement.blocks[copy.block].offload->before;
    Time needed = -1;
    for (const Instance& instance : best.instances)
      if (instance.block == needs && instance.micro == copy.micro) needed = instance.start;
    REQUIRE(needed >= 0);
    const std::string id = best.placement.blocks[copy.block].id;
    for (nlohmann::json& entry : document["transfers"])
      if (entry["block"] == id && entry["micro"] == copy.micro && entry["direction"] == "in") entry["start"] = needed;
    CHECK_FALSE(verify::check_schedule(document).valid);
    CHECK(kinds(document).count("order"));
  }
}
