// The counting constraints of the verifier's encoders (see the header).
#include "certify/clauses.hpp"

#include <cstddef>

namespace tessel::certify {

// sum(i, v) means "the first i terms add up to at least v".
void at_most(Builder& builder, const std::vector<std::pair<long long, int>>& terms, long long bound) {
  if (bound < 0) return builder.add({});
  std::vector<int> previous;  // previous[v - 1]: sum so far >= v, v in 1..bound
  for (const auto& [weight, literal] : terms) {
    if (weight > bound) {
      builder.add({-literal});
      continue;
    }
    for (long long v = bound - weight + 1; v <= static_cast<long long>(previous.size()); ++v)
      builder.add({-literal, -previous[v - 1]});  // would pass the bound
    std::vector<int> current(bound);
    for (long long v = 1; v <= bound; ++v) current[v - 1] = builder.fresh();
    for (long long v = 1; v <= bound; ++v) {
      if (v <= static_cast<long long>(previous.size())) builder.add({-previous[v - 1], current[v - 1]});
      if (v <= weight) builder.add({-literal, current[v - 1]});
      else if (v - weight <= static_cast<long long>(previous.size()))
        builder.add({-literal, -previous[v - weight - 1], current[v - 1]});
    }
    previous = std::move(current);
  }
}

// s_i: "one of the first i literals is true".
void at_most_one(Builder& builder, const std::vector<int>& literals) {
  int previous = 0;
  for (std::size_t i = 0; i < literals.size(); ++i) {
    if (previous) builder.add({-literals[i], -previous});
    if (i + 1 == literals.size()) break;
    const int current = builder.fresh();
    builder.add({-literals[i], current});
    if (previous) builder.add({-previous, current});
    previous = current;
  }
}

}  // namespace tessel::certify
