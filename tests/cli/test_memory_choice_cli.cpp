// `tessel search` on a placement that offers recomputation (docs/algorithms.md,
// "Memory traded for time"): where memory binds the answer recomputes and
// says so, with room it keeps everything; the written schedule passes the
// verifier; a typo in an offer is bad input (exit 2).
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using namespace tessel::testing;

namespace {

// nnshape with every forward offering recomputation at its own span before
// its backward on the same device (cases/bench/offer_recompute.py).
std::string offering_nnshape(const TempDir& dir, int ndevs) {
  Placement placement = make_case("nnshape", ndevs, false);
  for (Block& block : placement.blocks) {
    if (block.kind != BlockKind::Forward || block.memory <= 0) continue;
    const int before = find_block(placement, "b" + block.id.substr(1));
    REQUIRE(before >= 0);
    block.recompute = RecomputeOffer{block.span, before, 0};
  }
  const std::string path = dir.file("p.json");
  write_json_file(path, placement_to_json(placement));
  return path;
}

}  // namespace

TEST_CASE("search recomputes where memory binds and keeps where it does not", "[cli][memory-choice]") {
  TempDir dir;
  const std::string placement = offering_nnshape(dir, 8);
  const CommandResult tight =
      run_tessel("search --placement " + placement + " --memory 8 --total-micros 32 -o " + dir.file("tight.json"));
  REQUIRE(tight.exit_code == 0);
  CHECK(tight.out.find("memory traded    recomputes f0 x") != std::string::npos);
  const Schedule chosen = read_schedule_file(dir.file("tight.json"));
  // Whole blocks (the derived search, the choice in the period search at
  // k = 1) or single micro-batches (the shift search chooses per
  // micro-batch, docs/algorithms.md): at most every forward's 32.
  CHECK_FALSE(chosen.recomputes.empty());
  CHECK(chosen.recomputes.size() <= 8 * 32);
  CHECK(verify_schedule(chosen).valid);
  CHECK(run_tessel("verify " + dir.file("tight.json")).exit_code == 0);

  const CommandResult roomy =
      run_tessel("search --placement " + placement + " --memory 16 --total-micros 32 -o " + dir.file("roomy.json"));
  REQUIRE(roomy.exit_code == 0);
  CHECK(roomy.out.find("memory traded    recomputes nothing") != std::string::npos);
  const Schedule kept = read_schedule_file(dir.file("roomy.json"));
  CHECK(kept.recomputes.empty());
  CHECK(verify_schedule(kept).valid);
}

TEST_CASE("a typo in an offer is bad input naming the field", "[cli][memory-choice]") {
  TempDir dir;
  write_text(dir.file("p.json"), R"({"format": "tessel.placement/1", "ndevs": 1,
    "blocks": [{"id": "f", "kind": "forward", "span": 1, "memory": 1, "devices": [0],
                "recompute": {"span": 1, "befor": "b"}},
               {"id": "b", "kind": "backward", "span": 1, "memory": -1, "devices": [0]}],
    "edges": [["f", "b"]]})");
  const CommandResult result = run_tessel("search --placement " + dir.file("p.json") + " --memory 2");
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("blocks[0].recompute.befor") != std::string::npos);
  CHECK(result.err.find("did you mean 'before'") != std::string::npos);
}
