// Catch2's main; every other file in tests/ adds test cases. It sets
// TESSEL_STRICT_CANDIDATES=1 for the tests and every program they start: a
// search candidate the verifier rejects is then an internal error (users
// get it dropped and listed instead), so that no test passes over a phase's
// bug (solver/search.hpp, RejectedCandidate).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  setenv("TESSEL_STRICT_CANDIDATES", "1", 0);
  return Catch::Session().run(argc, argv);
}
