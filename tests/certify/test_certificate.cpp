// Certificates end to end: `search --certify` on a paper case writes one,
// `check-certificate` accepts it, and each tampering (a proof line deleted, a
// clause added to a CNF, a span changed in the manifest's placement) makes
// the check fail with the reason. And the two encoders agree: the schedule
// the solver found satisfies the verifier's CNF of its own period.
#include <catch2/catch.hpp>

#include <cadical.hpp>

#include <sstream>

#include "cases/builtin_cases.hpp"
#include "certify/encoder.hpp"
#include "certify/manifest.hpp"
#include "certify/symmetry.hpp"
#include "model/placement_json.hpp"
#include "solver/search.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::read_text;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

// With k = 1 only: which wider windows the search decides depends on the
// time it is given, and their claims take minutes to certify (nnshape 4/2's
// k = 2 periods 16..23: 3 minutes, two not within 60 s each), so the claims
// of this test would vary with the machine's load.
nlohmann::json search_certified(const std::string& name, int ndevs, int memory, const std::string& directory) {
  const auto result = run_tessel("search --case " + name + " --ndevs " + std::to_string(ndevs) + " --memory " +
                                 std::to_string(memory) + " --micros-per-window 1 --quiet --json --certify " + directory);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

// The claim with the longest proof, as the manifest lists it: its CNF is
// surely not refuted by unit propagation alone, which would leave nothing to
// delete from its proof (the memory by allocation/free pairs refutes
// nnshape 4/2's period 8 so).
nlohmann::json hardest_refutation(const std::string& directory) {
  const nlohmann::json manifest = nlohmann::json::parse(read_text(directory + "/manifest.json"));
  nlohmann::json hardest;
  size_t longest = 0;
  for (const nlohmann::json& claim : manifest["claims"]) {
    if (!claim.contains("proof")) continue;
    const size_t length = read_text(directory + "/" + claim["proof"].get<std::string>()).size();
    if (length > longest) longest = length, hardest = claim;
  }
  if (hardest.is_null()) FAIL("no refutation in the certificate");
  return hardest;
}

}  // namespace

TEST_CASE("certificate: written by search, checked, and every tampering caught", "[certify][cli]") {
  TempDir dir;
  const std::string certificate = dir.file("cert");
  // nnshape 4/2: 6 claims, all certified in about a second (mshape 4/2 now
  // lists its k = 2 window too: 25 s of CaDiCaL, run once per section).
  const nlohmann::json report = search_certified("nnshape", 4, 2, certificate);
  REQUIRE(report.contains("certificate"));
  const nlohmann::json& summary = report["certificate"];
  CHECK(summary["certified"] == summary["claims"].size());
  const nlohmann::json claim = hardest_refutation(certificate);

  const auto good = run_tessel("check-certificate " + certificate);
  INFO(good.out << good.err);
  CHECK(good.exit_code == 0);
  CHECK_THAT(good.out, Catch::Contains("claims certified"));

  SECTION("proof lines deleted") {
    // A proof with a redundant line removed is still a proof, so the lemmas
    // are all removed (the empty clause kept): the CNF is not refuted by unit
    // propagation alone, so the check must fail and say which claim.
    const std::string path = certificate + "/" + claim["proof"].get<std::string>();
    std::istringstream lines(read_text(path));
    std::string line, kept;
    while (std::getline(lines, line))
      if (line == "0" || line.rfind("d ", 0) == 0) kept += line + "\n";
    write_text(path, kept);
    const auto bad = run_tessel("check-certificate " + certificate);
    CHECK(bad.exit_code == 1);
    CHECK_THAT(bad.err, Catch::Contains(claim["claim"].get<std::string>()));
  }
  SECTION("a clause added to a CNF") {
    const std::string path = certificate + "/" + claim["cnf"].get<std::string>();
    write_text(path, read_text(path) + "1 0\n");
    const auto bad = run_tessel("check-certificate " + certificate);
    CHECK(bad.exit_code == 1);
    CHECK_THAT(bad.err, Catch::Contains("is not the verifier's encoding"));
  }
  SECTION("a span changed in the manifest's placement") {
    nlohmann::json manifest = nlohmann::json::parse(read_text(certificate + "/manifest.json"));
    manifest["placement"]["blocks"][1]["span"] = manifest["placement"]["blocks"][1]["span"].get<int>() + 1;
    write_text(certificate + "/manifest.json", manifest.dump());
    const auto bad = run_tessel("check-certificate " + certificate);
    CHECK(bad.exit_code == 1);
    CHECK_THAT(bad.err, Catch::Contains("fails"));
  }
  SECTION("a malformed manifest is bad input") {
    write_text(certificate + "/manifest.json", "{\"format\": \"tessel.certificate/1\"}");
    const auto bad = run_tessel("check-certificate " + certificate);
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("placement"));
  }
}

TEST_CASE("certificate: bad --certify-seconds and unknown manifest keys are bad input", "[certify][cli]") {
  TempDir dir;
  const auto negative = run_tessel("search --case vshape --ndevs 4 --memory 4 --certify " + dir.file("c") +
                                   " --certify-seconds -1");
  CHECK(negative.exit_code == 2);
  CHECK_THAT(negative.err, Catch::Contains("--certify-seconds") && Catch::Contains(">= 0"));
  const auto alone = run_tessel("search --case vshape --ndevs 4 --memory 4 --certify-seconds 5");
  CHECK(alone.exit_code == 2);
  CHECK_THAT(alone.err, Catch::Contains("give --certify DIR too"));

  const std::string certificate = dir.file("cert");
  search_certified("vshape", 4, 4, certificate);
  nlohmann::json manifest = nlohmann::json::parse(read_text(certificate + "/manifest.json"));
  manifest["claims"][0]["bellow"] = 3;
  write_text(certificate + "/manifest.json", manifest.dump());
  const auto misspelt = run_tessel("check-certificate " + certificate);
  CHECK(misspelt.exit_code == 2);
  CHECK_THAT(misspelt.err, Catch::Contains("claims[0].bellow: unknown key (did you mean 'below'?)"));

  for (const nlohmann::json& bad : {nlohmann::json(-1.0), nlohmann::json("fast")}) {
    manifest["claims"][0].erase("bellow");
    manifest["claims"][0]["solve_seconds"] = bad;
    write_text(certificate + "/manifest.json", manifest.dump());
    const auto timed = run_tessel("check-certificate " + certificate);
    CHECK(timed.exit_code == 2);
    CHECK_THAT(timed.err, Catch::Contains("claims[0].solve_seconds: not a number of seconds >= 0"));
  }
}

namespace {

// CaDiCaL's answer on the verifier's CNF of `claim` with every block's start
// fixed (10: the CNF holds that window; 20: it refuses it).
int answer_with_starts(const certify::Placement& placement, const std::vector<long long>& memory,
                       const certify::Claim& claim, const std::vector<long long>& starts) {
  const certify::Cnf cnf = certify::encode_claim(placement, memory, claim);
  CaDiCaL::Solver solver;
  for (const auto& clause : cnf.clauses) {
    for (int literal : clause) solver.add(literal);
    solver.add(0);
  }
  for (size_t b = 0; b < starts.size(); ++b) {
    const int literal = certify::start_literal(placement, claim, static_cast<int>(b), starts[b]);
    REQUIRE(literal != 0);
    solver.assume(literal);
  }
  return solver.solve();
}

// Window g of the unrolled repetend, well inside the steady state, shifted
// to start at 0: copy c of block b at c n + b.
std::vector<long long> steady_window(const Schedule& repetend, const PeriodReport& period, int n) {
  const int k = period.micros_per_window;
  const Schedule unrolled = unroll(repetend, 8 * period.in_flight + 8 * k);
  const int g = (unrolled.nmicros / k) / 2;
  std::vector<long long> starts(n * k, -1);
  for (const Instance& instance : unrolled.instances)
    if (instance.micro / k == g) starts[(instance.micro % k) * n + instance.block] = instance.start;
  const long long earliest = *std::min_element(starts.begin(), starts.end());
  for (long long& start : starts) start -= earliest;
  return starts;
}

}  // namespace

TEST_CASE("certificate: the solver's schedule satisfies the verifier's CNF of its period", "[certify]") {
  for (const auto& [name, ndevs, memory] : {std::tuple{"mshape", 4, 4}, {"vshape", 4, 2}, {"kshape", 4, 4}, {"xshape", 4, 2}}) {
    INFO(name << " " << ndevs << "/" << memory);
    SearchRequest request;
    request.placement = make_case(name, ndevs, false);
    request.memory_limit.assign(ndevs, memory);
    request.tuning.boundary_seconds = 0;
    Progress quiet;
    const SearchReport report = solve(request, quiet);
    REQUIRE(report.outcome == Outcome::Found);
    REQUIRE(report.repetend);
    const PeriodReport& period = *report.period;
    const int n = static_cast<int>(request.placement.blocks.size());
    const certify::Claim claim{period.period, period.micros_per_window, n};
    const certify::Placement placement =
        certify::placement_from_json(placement_to_json(request.placement), "placement");
    const std::vector<long long> limit(request.memory_limit.begin(), request.memory_limit.end());
    // The verifier's symmetry rules hold of the window once mapped onto them
    // (certify/symmetry): the mapped window is a repetend the CNF accepts.
    const std::vector<long long> starts = steady_window(*report.repetend, period, n);
    const std::vector<long long> canonical = certify::canonical_starts(placement, claim, true, starts);
    CHECK(answer_with_starts(placement, limit, claim, canonical) == 10);
    // The same repetend as a window of 2 micro-batches of period 2P (copy 1
    // one period after copy 0): accepted once mapped, refused with the
    // copies swapped (the order rule), and refused with a part that holds
    // no start 0 moved a period later (the shift rule).
    if (period.micros_per_window != 1) continue;
    const certify::Claim doubled{2 * period.period, 2, n};
    std::vector<long long> two = starts;
    for (int b = 0; b < n; ++b) two.push_back(starts[b] + period.period);
    const std::vector<long long> mapped = certify::canonical_starts(placement, doubled, true, two);
    CHECK(answer_with_starts(placement, limit, doubled, mapped) == 10);
    std::vector<long long> swapped(mapped.begin() + n, mapped.end());
    swapped.insert(swapped.end(), mapped.begin(), mapped.begin() + n);
    if (swapped[0] != mapped[0]) CHECK(answer_with_starts(placement, limit, doubled, swapped) == 20);
    std::vector<long long> later = mapped;
    for (int b = n; b < 2 * n; ++b) later[b] += doubled.period;
    if (*std::min_element(mapped.begin(), mapped.begin() + n) == 0)
      CHECK(answer_with_starts(placement, limit, doubled, later) == 20);
  }
}

// A placement with decimals (spans 1.5, 2.25, 1) is certified in its whole
// ticks (150, 225, 100), as its limits and claims count: written with its
// decimals, the manifest's spans were not whole and check-certificate
// refused every claim as malformed (exit 2).
TEST_CASE("certificate: a placement with decimals is certified in its ticks", "[certify][cli]") {
  TempDir dir;
  REQUIRE(run_tessel("generate 1f1b --stages 4 --nmicros 16 --span F=1.5,B=2.25,W=1 --placement-out " +
                     dir.file("p.json") + " -o " + dir.file("h.json"))
              .exit_code == 0);
  const auto search = run_tessel("search --placement " + dir.file("p.json") +
                                 " --memory 4 --total-micros 16 --quiet --json --certify " + dir.file("cert"));
  REQUIRE(search.exit_code == 0);
  const nlohmann::json manifest = nlohmann::json::parse(read_text(dir.file("cert") + "/manifest.json"));
  CHECK(manifest["placement"]["blocks"][0]["span"] == 150);
  int certified = 0;
  for (const nlohmann::json& claim : manifest["claims"]) certified += claim["certified"].get<bool>() ? 1 : 0;
  CHECK(certified >= 1);  // at least the load claim of the proven period
  const auto check = run_tessel("check-certificate " + dir.file("cert"));
  CHECK(check.exit_code != 2);  // read and checked, whether every claim holds or not
  CHECK_THAT(check.out, Catch::Contains(std::to_string(certified) + " of "));
}
