// The DRAT checker of certify/ on hand-made formulas and proofs: correct
// proofs pass (RUP and RAT steps), broken ones fail with the step named, and
// CaDiCaL's own proofs of the verifier's CNFs pass.
#include <catch2/catch.hpp>

#include <cadical.hpp>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "certify/dimacs.hpp"
#include "certify/drat_check.hpp"
#include "certify/encoder.hpp"

using namespace tessel::certify;

namespace {

// Unsatisfiable, and its refutation needs a RAT step: "-1" is not implied
// by unit propagation, but every resolvent on 1 is.
const char* kEight =
    "p cnf 4 8\n1 2 -3 0\n-1 -2 3 0\n2 3 -4 0\n-2 -3 4 0\n1 3 4 0\n-1 -3 -4 0\n-1 2 4 0\n1 -2 -4 0\n";

DratResult check(const std::string& cnf, const std::string& proof) {
  return check_drat(parse_dimacs(cnf, "test.cnf"), parse_drat(proof, "test.drat"));
}

// CaDiCaL's answer on `cnf` (10 sat, 20 unsat) and its DRAT proof as text.
struct CadicalProof {
  int answer = 0;
  std::string text;
};

CadicalProof cadical_proof(const Cnf& cnf) {
  char path[] = "/tmp/tessel_drat_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  CadicalProof result;
  {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    solver.set("binary", 0);
    REQUIRE(solver.trace_proof(path));
    for (const auto& clause : cnf.clauses) {
      for (int literal : clause) solver.add(literal);
      solver.add(0);
    }
    result.answer = solver.solve();
    solver.close_proof_trace();
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  result.text = text.str();
  return result;
}

}  // namespace

TEST_CASE("DRAT: RUP and RAT proofs pass, broken ones fail with the step", "[certify][drat]") {
  const std::string square = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
  DratResult rup = check(square, "2 0\n0\n");
  CHECK(rup.valid);
  CHECK(rup.rat == 0);

  DratResult rat = check(kEight, "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n");
  CHECK(rat.valid);
  CHECK(rat.rat == 1);

  // Without the RAT lemma the next one is no longer implied.
  DratResult missing = check(kEight, "2 0\n0\n");
  CHECK_FALSE(missing.valid);
  CHECK_THAT(missing.reason, Catch::Contains("proof step"));

  // A lemma that is neither RUP nor RAT (pivot 2: (-1 2) and (1 2) are
  // not implied after resolving on it).
  DratResult wrong = check("p cnf 3 2\n1 2 0\n-1 2 0\n", "-2 3 0\n");
  CHECK_FALSE(wrong.valid);
  CHECK_THAT(wrong.reason, Catch::Contains("never refutes"));

  // A satisfiable formula is never refuted.
  CHECK_FALSE(check("p cnf 2 1\n1 2 0\n", "0\n").valid);
  // A lemma that is not implied, then used for the empty clause.
  DratResult bogus = check("p cnf 2 2\n1 2 0\n-1 2 0\n", "-2 0\n0\n");
  CHECK_FALSE(bogus.valid);
  CHECK_THAT(bogus.reason, Catch::Contains("proof step 1"));
}

TEST_CASE("DRAT: malformed files are refused with the line", "[certify][drat]") {
  CHECK_THROWS_WITH(parse_dimacs("p cnf 2 2\n1 2 0\n", "x.cnf"), Catch::Contains("1 clauses, the header says 2"));
  CHECK_THROWS_WITH(parse_dimacs("p cnf 2 1\n1 3 0\n", "x.cnf"), Catch::Contains("beyond the 2 variables"));
  CHECK_THROWS_WITH(parse_drat("1 x 0\n", "x.drat"), Catch::Contains("line 1"));
  CHECK_THROWS_WITH(parse_drat("1 2\n", "x.drat"), Catch::Contains("no terminating 0"));
}

TEST_CASE("DRAT: CaDiCaL's proofs of pigeonhole formulas pass; a deleted lemma is caught", "[certify][drat]") {
  // 6 pigeons into 5 holes: hard enough for hundreds of lemmas.
  const int pigeons = 6, holes = 5;
  Cnf cnf;
  cnf.variables = pigeons * holes;
  auto var = [&](int p, int h) { return p * holes + h + 1; };
  for (int p = 0; p < pigeons; ++p) {
    cnf.clauses.push_back({});
    for (int h = 0; h < holes; ++h) cnf.clauses.back().push_back(var(p, h));
  }
  for (int h = 0; h < holes; ++h)
    for (int p = 0; p < pigeons; ++p)
      for (int q = p + 1; q < pigeons; ++q) cnf.clauses.push_back({-var(p, h), -var(q, h)});
  const CadicalProof solved = cadical_proof(cnf);
  REQUIRE(solved.answer == 20);
  const std::vector<ProofStep> proof = parse_drat(solved.text, "pigeonhole.drat");
  DratResult good = check_drat(cnf, proof);
  INFO(good.reason);
  REQUIRE(good.valid);
  CHECK(good.checked > 0);
  // Deleting a lemma the refutation used breaks it somewhere.
  int broken = 0, tried = 0;
  for (size_t i = 0; i < proof.size() && tried < 20; ++i) {
    if (proof[i].deletion || proof[i].literals.empty()) continue;
    std::vector<ProofStep> cut = proof;
    cut.erase(cut.begin() + i);
    ++tried;
    broken += !check_drat(cnf, cut).valid;
  }
  CHECK(broken > 0);
}

TEST_CASE("DRAT: deletions take clauses away, a reason's deletion is ignored, deleted clauses come back", "[certify][drat]") {
  const std::string square = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
  // (1 2) deleted before the lemma 2 that needs it: 2 is neither RUP nor RAT.
  DratResult gone = check(square, "d 2 1 0\n2 0\n0\n");
  CHECK_FALSE(gone.valid);
  CHECK_THAT(gone.reason, Catch::Contains("proof step 2"));
  CHECK(gone.ignored_deletions == 0);
  // The unit 2 is the reason of its own literal: deleting it is ignored,
  // so the refutation still stands.
  const std::string two = "p cnf 4 6\n1 2 0\n-1 2 0\n1 -2 3 0\n-1 -2 3 0\n-3 4 0\n-3 -4 0\n";
  DratResult unit = check(two, "2 0\nd 2 0\n3 0\n0\n");
  CHECK(unit.valid);
  CHECK(unit.ignored_deletions == 1);
  // A deletion naming no clause is ignored too (written in another order,
  // a clause is the same clause: that one is found).
  DratResult absent = check(square, "d 1 -1 0\nd -2 1 0\n2 0\n0\n");
  CHECK(absent.ignored_deletions == 1);
  CHECK_FALSE(absent.valid);  // (1 -2) went, so -1 then propagates nothing
  // Clauses deleted after the lemma that used them come back for its
  // check: lemma 1 is RUP through the chain 2, 3, 4 the deletions removed.
  const std::string chain =
      "p cnf 6 8\n1 2 0\n1 -2 3 0\n1 -3 4 0\n1 -4 0\n-1 5 6 0\n-1 -5 6 0\n-1 5 -6 0\n-1 -5 -6 0\n";
  DratResult back = check(chain, "1 0\nd 1 -2 3 0\nd 1 -3 4 0\nd 1 -4 0\n6 0\n0\n");
  INFO(back.reason);
  CHECK(back.valid);
  CHECK(back.checked == 2);
  // The same deletions before the lemma: it no longer follows.
  CHECK_FALSE(check(chain, "d 1 -2 3 0\nd 1 -3 4 0\nd 1 -4 0\n1 0\n6 0\n0\n").valid);
}

TEST_CASE("DRAT: CaDiCaL's proofs of random unsatisfiable 3-CNFs pass; each lemma's removal is judged", "[certify][drat]") {
  uint64_t seed = 12345;
  auto next = [&]() { return (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  int refuted = 0;
  for (int round = 0; round < 6; ++round) {
    Cnf cnf;
    cnf.variables = 60;
    for (int c = 0; c < 300; ++c) {
      cnf.clauses.push_back({});
      for (int l = 0; l < 3; ++l) cnf.clauses.back().push_back((next() % 2 ? 1 : -1) * static_cast<int>(1 + next() % 60));
    }
    const CadicalProof solved = cadical_proof(cnf);
    if (solved.answer != 20) continue;
    ++refuted;
    const std::vector<ProofStep> proof = parse_drat(solved.text, "random.drat");
    const DratResult good = check_drat(cnf, proof);
    INFO(good.reason);
    CHECK(good.valid);
    // Dropping the proof's empty clause still refutes only if the lemmas do.
    // Dropping all deletions keeps it valid (more clauses never hurt RUP).
    std::vector<ProofStep> kept;
    for (const ProofStep& step : proof)
      if (!step.deletion) kept.push_back(step);
    CHECK(check_drat(cnf, kept).valid);
  }
  CHECK(refuted >= 3);
}
