// Building CNF for the verifier's encoders (certify/encoder for period
// claims, certify/ends for the makespan's relaxations): fresh variables,
// clauses, and the two counting constraints both need. Kept apart so that
// the two encoders count the same way and neither owns the other.
#pragma once

#include <utility>
#include <vector>

namespace tessel::certify {

struct Cnf {
  int variables = 0;
  std::vector<std::vector<int>> clauses;
};

struct Builder {
  Cnf cnf;
  int fresh() { return ++cnf.variables; }
  void add(std::vector<int> clause) { cnf.clauses.push_back(std::move(clause)); }
};

// sum weight_i * lit_i <= bound, weights > 0, as a sequential weighted
// counter (a negative bound: the empty clause).
void at_most(Builder& builder, const std::vector<std::pair<long long, int>>& terms, long long bound);

// At most one of `literals` true (sequential: linear in their number).
void at_most_one(Builder& builder, const std::vector<int>& literals);

}  // namespace tessel::certify
