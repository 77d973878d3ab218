// The second campaign's search reproducers (tests/data/repro/r2/): edge
// delays a phase ignored, a candidate the verifier rejected that ended the
// whole search with exit 4, a warmup that broke the memory limit, and static
// memory above the limit on a device. Each runs the real binary (the test
// main sets TESSEL_STRICT_CANDIDATES=1, so a rejected candidate is exit 4
// here) and the schedule -o wrote goes through `tessel verify`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "tests/support.hpp"

using tessel::testing::run_tessel;
using tessel::testing::TempDir;

namespace {

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/data/repro/r2/";

// `search ARGS -o FILE` ends with an exit in `exits`, and FILE is valid.
void check_search_valid(const std::string& args, std::initializer_list<int> exits) {
  TempDir dir;
  const std::string out = dir.file("best.json");
  const tessel::testing::CommandResult search = run_tessel("search " + args + " --quiet -o " + out);
  INFO("tessel search " << args << "\nexit " << search.exit_code << "\nstderr: " << search.err.substr(0, 800));
  CHECK(std::find(exits.begin(), exits.end(), search.exit_code) != exits.end());
  CHECK(search.err.find("internal error") == std::string::npos);
  CHECK(search.out.find("rejected ") == std::string::npos);
  const tessel::testing::CommandResult verified = run_tessel("verify " + out);
  INFO("tessel verify: " << verified.out.substr(0, 400));
  CHECK(verified.exit_code == 0);
}

}  // namespace

TEST_CASE("r2: delays on a staged placement's edges are honoured by every phase", "[cli][repro][r2]") {
  // The two-stage placement of docs/python.md with delays: the family
  // replays ran the 1F1B order without them (15 dependencies too early).
  check_search_valid("--placement " + kData + "two_stage_delays.placement.json --memory 2 --total-micros 8", {0});
}

TEST_CASE("r2: a delayed edge into a batched block keeps its delay", "[cli][repro][r2]") {
  // The staged schedule laid its suffix right after the middle, 100 too early.
  const std::string placement = "--placement " + kData + "offered_invalid.placement.json --memory 5 --time-limit 5";
  check_search_valid(placement, {0, 3});
  check_search_valid(placement + " --strategy fast", {0, 3});
  check_search_valid(placement + " --resolution 0.01", {0, 3});
  check_search_valid("--placement " + kData + "r2-10.placement.json --memory 1 --time-limit 5", {0, 3});
}

TEST_CASE("r2: a repetend whose warmup breaks memory is not the answer", "[cli][repro][r2]") {
  // Blocks +1 +1 -1 -1 on one device, the second freeing one unrelated to
  // the first: the steady state fits, the truncated warmup held 2 > 1.
  check_search_valid("--placement " + kData + "r2-11.placement.json --memory 1 --time-limit 5", {0, 3});
  check_search_valid("--placement " + kData + "r2-11.placement.json --memory 1 --time-limit 5 --strategy fast", {0, 3});
}

TEST_CASE("r2: static memory above the limit is exit 1 naming the device", "[cli][repro][r2]") {
  // Devices without blocks (cyclic_unsound) or whose blocks change no memory (r2-12).
  const tessel::testing::CommandResult none =
      run_tessel("search --placement " + kData + "cyclic_unsound.placement.json --memory 1.25 --time-limit 5");
  INFO(none.err);
  CHECK(none.exit_code == 1);
  CHECK(none.err.find("device 2's static memory 2 is above its limit 1.25") != std::string::npos);
  const tessel::testing::CommandResult idle =
      run_tessel("search --placement " + kData + "r2-12.placement.json --memory 1 --time-limit 5");
  INFO(idle.err);
  CHECK(idle.exit_code == 1);
  CHECK(idle.err.find("device 1's static memory 2 is above its limit 1") != std::string::npos);
}
