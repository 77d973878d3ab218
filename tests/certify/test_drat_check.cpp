// The DRAT checker of certify/ on hand-made formulas and proofs: correct
// proofs pass (RUP and RAT steps), broken ones fail with the step named, and
// CaDiCaL's own proofs of the verifier's CNFs pass.
#include <catch2/catch.hpp>

#include <cadical.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

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
  char path[] = "/tmp/tessel_drat_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    solver.set("binary", 0);
    REQUIRE(solver.trace_proof(path));
    for (const auto& clause : cnf.clauses) {
      for (int literal : clause) solver.add(literal);
      solver.add(0);
    }
    REQUIRE(solver.solve() == 20);
    solver.close_proof_trace();
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  const std::vector<ProofStep> proof = parse_drat(text.str(), path);
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
