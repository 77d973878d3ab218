// Certificates of claims beyond k = 1 periods, end to end through certify/
// alone: a period claim of a window of k = 2 micro-batches, and a makespan
// claim certified by a device's ends (certify/ends). Each is written
// (certify/prove), checked (check_certificate), and tampered with: a proof
// stripped of its lemmas, a clause added to a CNF, a span or an end's idle
// changed in the manifest, each failing with the reason.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>

#include "cases/builtin_cases.hpp"
#include "certify/ends.hpp"
#include "certify/manifest.hpp"
#include "certify/prove/prove.hpp"
#include "model/placement_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::read_text;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

certify::PlannedClaim planned(certify::ClaimKind kind, long long period, int k, long long below) {
  certify::PlannedClaim claim;
  claim.kind = kind;
  claim.claim.period = period, claim.claim.k = k, claim.claim.max_in_flight = 10;
  claim.below = below;
  return claim;
}

// Keeps only the deletions and the empty clause: no lemma is left, so
// unless unit propagation alone refutes the CNF the check must fail.
void strip_lemmas(const std::string& path) {
  std::istringstream lines(read_text(path));
  std::string line, kept;
  while (std::getline(lines, line))
    if (line == "0" || line.rfind("d ", 0) == 0) kept += line + "\n";
  write_text(path, kept);
}

std::vector<certify::ClaimCheck> failures(const std::string& directory) {
  std::vector<certify::ClaimCheck> failed;
  for (const certify::ClaimCheck& check : certify::check_certificate(directory))
    if (!check.certified) failed.push_back(check);
  return failed;
}

void edit_manifest(const std::string& directory, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json manifest = nlohmann::json::parse(read_text(directory + "/manifest.json"));
  edit(manifest);
  write_text(directory + "/manifest.json", manifest.dump());
}

}  // namespace

TEST_CASE("certificate: a window of k = 2 certified, checked, tampering caught", "[certify]") {
  // mshape on 4 devices at memory 2: load 6 per micro-batch, and the search
  // proves no window of 2 micro-batches below period 20; period 12 (= 2 L)
  // is the cheapest of those refutations.
  TempDir dir;
  const std::string certificate = dir.file("cert");
  const nlohmann::json placement = placement_to_json(make_case("mshape", 4, false));
  const certify::Manifest written = certify::write_certificate(
      certificate, placement, {2, 2, 2, 2},
      {planned(certify::ClaimKind::Load, 0, 2, 12), planned(certify::ClaimKind::Period, 12, 2, 0)}, 120, nullptr);
  REQUIRE(written.claims.size() == 2);
  REQUIRE(written.claims[1].certified);
  CHECK(written.claims[1].claim.k == 2);
  CHECK(failures(certificate).empty());

  SECTION("the proof's lemmas deleted") {
    strip_lemmas(certificate + "/" + written.claims[1].proof);
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].claim, Catch::Contains("window k = 2"));
  }
  SECTION("a clause added to the CNF") {
    const std::string path = certificate + "/" + written.claims[1].cnf;
    write_text(path, read_text(path) + "-1 0\n");
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("is not the verifier's encoding"));
  }
  SECTION("a span changed in the placement") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["placement"]["blocks"][5]["span"] = 2; });
    const auto failed = failures(certificate);
    REQUIRE_FALSE(failed.empty());
    CHECK_THAT(failed[0].reason, Catch::Contains("the load") || Catch::Contains("not the verifier's encoding"));
  }
  SECTION("the window's k changed in the manifest") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][1]["k"] = 1; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("not the verifier's encoding"));
  }
}

TEST_CASE("certificate: a makespan claim certified by a device's ends", "[certify]") {
  // vshape on 4 devices at memory 4: 128 micro-batches take 524 steps (the
  // search proves it optimal); device 3 works 512 and idles at least 3 steps
  // at the head and 9 at the tail in every schedule.
  TempDir dir;
  const std::string certificate = dir.file("cert");
  const nlohmann::json placement = placement_to_json(make_case("vshape", 4, false));
  certify::PlannedClaim claim = planned(certify::ClaimKind::Makespan, 0, 128, 524);
  claim.hint = {3, 3, 9};  // what the search passes: its bound's device and idle split
  const certify::Manifest written =
      certify::write_certificate(certificate, placement, {4, 4, 4, 4}, {claim}, 120, nullptr);
  REQUIRE(written.claims.size() == 1);
  const certify::ManifestClaim& makespan = written.claims[0];
  REQUIRE(makespan.certified);
  REQUIRE(makespan.relaxation == certify::Relaxation::Ends);
  long long idle = 0;
  for (const certify::EndProof& end : makespan.ends) idle += end.question.idle;
  CHECK(idle >= 12);
  CHECK(failures(certificate).empty());

  SECTION("a makespan one step longer is not implied") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][0]["below"] = 525 + 100; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("idles at least"));
  }
  SECTION("an end refuted by unit propagation needs no lemma; a missing proof is malformed") {
    // Both ends of this claim are contradictory by unit propagation alone
    // (the checker finds the conflict before it reads a lemma), so a proof
    // stripped of its lemmas still certifies: what keeps the claim honest is
    // the CNF, compared with the verifier's own encoding (next sections).
    strip_lemmas(certificate + "/" + makespan.ends.back().proof);
    CHECK(failures(certificate).empty());
    std::remove((certificate + "/" + makespan.ends.back().proof).c_str());
    CHECK_THROWS_WITH(certify::check_certificate(certificate), Catch::Contains("cannot be read"));
  }
  SECTION("a clause added to an end's CNF") {
    const std::string path = certificate + "/" + makespan.ends.front().cnf;
    write_text(path, read_text(path) + "1 0\n");
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("is not the verifier's encoding"));
  }
  SECTION("an end's idle raised in the manifest") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][0]["ends"][0]["idle"] = 50; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("is not the verifier's encoding"));
  }
  SECTION("a span changed in the placement") {
    edit_manifest(certificate, [](nlohmann::json& m) {
      for (nlohmann::json& block : m["placement"]["blocks"]) block["span"] = 1;
    });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
  }
  SECTION("windows that could overlap are refused") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][0]["k"] = 1; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
  }
}

TEST_CASE("certificate: a claim whose solve times out is listed not certified, with the limit", "[certify]") {
  // mshape 4/2's k = 2 period 19 takes CaDiCaL seconds to refute (25 s
  // measured with the proof); 0.05 s is far too little.
  TempDir dir;
  const std::string certificate = dir.file("cert");
  const nlohmann::json placement = placement_to_json(make_case("mshape", 4, false));
  const certify::Manifest written = certify::write_certificate(
      certificate, placement, {2, 2, 2, 2}, {planned(certify::ClaimKind::Period, 19, 2, 0)}, 0.05, nullptr);
  REQUIRE(written.claims.size() == 1);
  CHECK_FALSE(written.claims[0].certified);
  CHECK(written.claims[0].solve_seconds < 5);
  CHECK_THAT(written.claims[0].reason, Catch::Contains("did not refute") && Catch::Contains("within 0.05 s"));
  // The manifest keeps the time the claim was given (it ran the whole 0.05 s).
  const nlohmann::json manifest = nlohmann::json::parse(certify::read_file(certificate + "/manifest.json"));
  CHECK(manifest["claims"][0]["solve_seconds"].get<double>() >= 0.04);
  CHECK(manifest["claims"][0]["solver"].get<std::string>().rfind("CaDiCaL", 0) == 0);
  const auto failed = failures(certificate);
  REQUIRE(failed.size() == 1);
  CHECK_THAT(failed[0].reason, Catch::StartsWith("not certified: CaDiCaL did not refute"));
  const auto checked = tessel::testing::run_tessel("check-certificate " + certificate);
  CHECK(checked.exit_code == 1);
  CHECK_THAT(checked.err, Catch::Contains("period 19") && Catch::Contains("within 0.05 s"));
}

TEST_CASE("certificate: an interrupt ends a claim's solve at once and lists the claims left", "[certify][interrupt]") {
  // A hard claim with no time limit, and the command's stop flag raised
  // 1 s in (as Ctrl-C or SIGTERM would): the solve ends, the claim after it
  // is not started, both are listed as interrupted. (Raised at 5 s the
  // first claim is still unsolved: the interrupt, not the claim, ends it.)
  TempDir dir;
  const std::string certificate = dir.file("cert");
  // mshape 8/8's period 13 at k = 2: tens of seconds of CaDiCaL.
  const nlohmann::json placement = placement_to_json(make_case("mshape", 8, false));
  certify::PlannedClaim hard = planned(certify::ClaimKind::Period, 13, 2, 0);
  hard.claim.max_in_flight = 18;
  std::atomic<bool> stop{false};
  std::thread raiser([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    stop = true;
  });
  const auto begin = std::chrono::steady_clock::now();
  const certify::Manifest written = certify::write_certificate(
      certificate, placement, std::vector<long long>(8, 8), {hard, planned(certify::ClaimKind::Period, 12, 2, 0)},
      certify::SolveLimit(0, &stop), nullptr);
  raiser.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  CHECK(seconds < 10);  // not the claim's whole refutation
  REQUIRE(written.claims.size() == 2);
  for (const certify::ManifestClaim& claim : written.claims) {
    CHECK_FALSE(claim.certified);
    CHECK_THAT(claim.reason, Catch::Contains("interrupted"));
  }
  const auto failed = failures(certificate);
  REQUIRE(failed.size() == 2);
  CHECK_THAT(failed[1].reason, Catch::StartsWith("not certified: interrupted"));
}

TEST_CASE("certificate: a makespan claim with fillers certified by the ends without them", "[certify]") {
  // mshape on 4 devices at memory 4: 780 is optimal at 128 micro-batches
  // (device 3 works 768 and idles during f0-f2 of the first micro-batch
  // and b2-b0 of the last). fs and bs run on every device and hold no
  // memory: 128 copies of each could open and close device 3's run, so its
  // ends show idle only in windows longer than 128 steps, which were not
  // refuted. Cut out (certify/ends.hpp, without_fillers), the ends are asked
  // of the rest and the 12 steps come at once.
  TempDir dir;
  const std::string certificate = dir.file("cert");
  const nlohmann::json placement = placement_to_json(make_case("mshape", 4, false));
  const certify::Placement read = certify::placement_from_json(placement, "placement");
  const std::optional<certify::Placement> rest = certify::without_fillers(read);
  REQUIRE(rest);
  CHECK(rest->blocks.size() + 2 == read.blocks.size());
  CHECK(certify::device_load(*rest, 3) + 2 == certify::device_load(read, 3));  // fs and bs: 1 step each
  certify::PlannedClaim claim = planned(certify::ClaimKind::Makespan, 0, 128, 780);
  claim.hint = {3, 3, 9};
  const certify::Manifest written =
      certify::write_certificate(certificate, placement, {4, 4, 4, 4}, {claim}, 60, nullptr);
  REQUIRE(written.claims.size() == 1);
  const certify::ManifestClaim& makespan = written.claims[0];
  REQUIRE(makespan.certified);
  CHECK(makespan.relaxation == certify::Relaxation::EndsWithoutFillers);
  CHECK(makespan.device == 3);
  CHECK(failures(certificate).empty());

  SECTION("read as the plain ends (fillers kept), the CNFs are not the verifier's") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][0]["relaxation"] = "ends"; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("is not the verifier's encoding"));
  }
  SECTION("one step more is not implied") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["claims"][0]["below"] = 781; });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("idles at least"));
  }
  SECTION("an edge with a delay: the cut could shorten it, so the fillers stay") {
    edit_manifest(certificate, [](nlohmann::json& m) { m["placement"]["edges"][1].push_back(1); });
    const auto failed = failures(certificate);
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0].reason, Catch::Contains("no filler to cut out"));
  }
}

TEST_CASE("certificate: a makespan claim the ends cannot reach says why", "[certify]") {
  // The same mshape claim with a delay on one edge: the fillers cannot be cut
  // out (the cut could shorten the delay), and within a second no window
  // longer than the fillers' 128 steps is refuted; the reason says so.
  TempDir dir;
  const std::string certificate = dir.file("cert");
  nlohmann::json placement = placement_to_json(make_case("mshape", 4, false));
  placement["edges"][1].push_back(1);  // f0 -> f1 one step apart
  certify::PlannedClaim claim = planned(certify::ClaimKind::Makespan, 0, 128, 781);
  claim.hint = {3, 3, 9};
  const certify::Manifest written =
      certify::write_certificate(certificate, placement, {4, 4, 4, 4}, {claim}, 1, nullptr);
  REQUIRE(written.claims.size() == 1);
  const certify::ManifestClaim& makespan = written.claims[0];
  CHECK_FALSE(makespan.certified);
  CHECK(makespan.solve_seconds < 10);
  // Not certified, and still the seconds its ends' CNFs took are kept.
  const nlohmann::json manifest = nlohmann::json::parse(certify::read_file(certificate + "/manifest.json"));
  CHECK(manifest["claims"][0]["solve_seconds"].get<double>() > 0.5);
  CHECK(manifest["claims"][0]["solve_seconds"].get<double>() == Approx(makespan.solve_seconds));
  CHECK_THAT(makespan.reason, Catch::Contains("reached 781 within the time given") &&
                                  Catch::Contains("device 3 needs 13 idle steps") &&
                                  Catch::Contains("fs, bs can fill its first 128 and last 128 steps"));
  const auto failed = failures(certificate);
  REQUIRE(failed.size() == 1);
  CHECK_THAT(failed[0].reason, Catch::Contains("fs, bs"));
}
