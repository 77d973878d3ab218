// The order literals of a period claim's starts, shared by the parts of the
// verifier's encoder (certify/encoder numbers them): ge(b, t) means
// s(b) >= t, for t in 1..last[b], and the constants outside that range, so
// that each part can write its clauses for every t without range checks.
#pragma once

#include <climits>
#include <vector>

#include "certify/clauses.hpp"

namespace tessel::certify {

struct StartLadders {
  long long period = 0;
  std::vector<long long> last;  // S(b) of each window block
  std::vector<int> ge_base;     // ge(b, t) = ge_base[b] + t - 1
};

constexpr int kTrue = INT_MAX;  // a literal known true; -kTrue is known false

// s(b) >= t as a literal (kTrue for t <= 0, -kTrue past the last start).
inline int ge(const StartLadders& ladders, int b, long long t) {
  if (t <= 0) return kTrue;
  if (t > ladders.last[b]) return -kTrue;
  return ladders.ge_base[b] + static_cast<int>(t) - 1;
}

// The clause without its false literals; none when a literal is true.
inline void add_clause(Builder& builder, const std::vector<int>& literals) {
  std::vector<int> clause;
  for (int literal : literals) {
    if (literal == kTrue) return;
    if (literal != -kTrue) clause.push_back(literal);
  }
  builder.add(clause);
}

}  // namespace tessel::certify
