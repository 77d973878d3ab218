// The Python Tessel's own saved schedules (tests/data/python_tessel/, README
// there): every file that its composer wrote with `SchedPlan.save()` for the
// configurations of the reference measurements imports against the built-in
// case by gid, keeps the search's memory limit, passes the verifier, and,
// where a repetend is claimed, unrolls to more micro-batches validly. The
// files cover odd device counts (mshape, vshape and nnshape on 5 devices)
// where the block order of the built-in cases once differed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "cases/builtin_cases.hpp"
#include "model/formats/tessel_json.hpp"
#include "model/json_file.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// What a file's name says: `tessel-CASE-dD-mM-memMEM[-infer].json` (compose_n)
// or `fast-CASE-dD-memMEM.json` (compose_fast).
struct SavedConfiguration {
  std::string placement;
  int ndevs = 0;
  long long memory = 0;
  bool infer = false;
};

SavedConfiguration configuration_of(const std::string& name) {
  static const std::regex pattern(R"((tessel|fast)-([a-z]+)-d(\d+)(-m\d+)?-mem(\d+)(-infer)?\.json)");
  std::smatch match;
  REQUIRE(std::regex_match(name, match, pattern));
  return {match[2], std::stoi(match[3]), std::stoll(match[5]), match[6].matched};
}

}  // namespace

TEST_CASE("the Python Tessel's saved schedules import and verify", "[tessel-json]") {
  const std::filesystem::path folder = std::filesystem::path(TESSEL_SOURCE_DIR) / "tests/data/python_tessel";
  int files = 0, odd = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    INFO(name);
    const SavedConfiguration saved = configuration_of(name);
    const Placement placement = make_case(saved.placement, saved.ndevs, saved.infer);
    // Inference zeroes every block's memory, so no limit applies there.
    const std::vector<long long> limit = saved.infer ? std::vector<long long>{} : std::vector<long long>{saved.memory};
    const Schedule schedule = import_tessel_json(read_json_file(entry.path().string()), placement, name, limit);
    const verify::Report report = testing::verify_schedule(schedule);
    INFO(verify::report_to_text(report));
    CHECK(report.valid);
    if (schedule.repetend) {
      const Schedule unrolled = unroll(schedule, schedule.nmicros + 3);
      CHECK(testing::verify_schedule(unrolled).valid);
    }
    ++files;
    odd += saved.ndevs % 2;
  }
  CHECK(files >= 42);
  CHECK(odd >= 3);
}

// The Python tool's numbers are whole units; a limit with a decimal puts the
// placement's memory in tenths (1 is 10 ticks). The file read against it is
// the same schedule: the import compared the file's 1 with the block's 10 and
// refused it.
TEST_CASE("a saved schedule imports under a limit with a decimal", "[tessel-json][cli]") {
  testing::TempDir dir;
  const std::string saved = std::string(TESSEL_SOURCE_DIR) + "/tests/data/python_tessel/tessel-vshape-d4-m4-mem4.json";
  for (const std::string limit : {"4", "4.5"}) {
    INFO(limit);
    const auto imported = testing::run_tessel("import --from tessel-json " + saved + " --case vshape --ndevs 4 " +
                                              "--memory-limit " + limit + " -o " + dir.file(limit + ".json"));
    REQUIRE(imported.exit_code == 0);
    const auto checked = testing::run_tessel("verify " + dir.file(limit + ".json"));
    CHECK(checked.exit_code == 0);
    CHECK_THAT(checked.out, Catch::Contains("makespan: 37"));
  }
}
