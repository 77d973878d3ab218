// Small linear constraints over order-encoded integers by enumeration (see
// linear_order_cnf.hpp).
#include "sat/linear_order_cnf.hpp"

#include <algorithm>

namespace tessel::cnf {

namespace {

long long floor_div(long long a, long long b) {
  long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

}  // namespace

bool add_linear_by_enumeration(Sink& sink, const std::vector<std::pair<long long, OrderVar>>& all_terms,
                               long long bound, const std::vector<Lit>& guard, long long limit) {
  std::vector<std::pair<long long, const OrderVar*>> terms;
  for (const auto& [coefficient, x] : all_terms)
    if (coefficient != 0) terms.push_back({coefficient, &x});
  if (terms.empty()) {
    if (bound < 0) sink.add_clause(guarded_clause(guard, {}));
    return true;
  }
  // The term with the largest domain is the one solved for.
  size_t last = 0;
  for (size_t i = 1; i < terms.size(); ++i)
    if (terms[i].second->hi - terms[i].second->lo > terms[last].second->hi - terms[last].second->lo) last = i;
  std::swap(terms[last], terms.back());
  long long combinations = 1;
  for (size_t i = 0; i + 1 < terms.size(); ++i) {
    combinations *= terms[i].second->hi - terms[i].second->lo + 1;
    if (combinations > limit) return false;
  }

  const auto [last_coefficient, last_var] = terms.back();
  const size_t free_terms = terms.size() - 1;
  std::vector<long long> values(free_terms);
  for (size_t i = 0; i < free_terms; ++i) values[i] = terms[i].second->lo;
  while (true) {
    long long left = bound;
    for (size_t i = 0; i < free_terms; ++i) left -= terms[i].first * values[i];
    // What the last term must satisfy: a x <= left.
    Lit conclusion = last_coefficient > 0 ? order_at_most(sink, *last_var, floor_div(left, last_coefficient))
                                          : ~order_at_most(sink, *last_var, ceil_div(left, last_coefficient) - 1);
    if (!sink.is_true(conclusion)) {
      std::vector<Lit> clause = guarded_clause(guard, {conclusion});
      for (size_t i = 0; i < free_terms; ++i) {
        // The premise "a_i x_i >= a_i v_i": x_i >= v_i for a_i > 0, x_i <= v_i for a_i < 0.
        if (terms[i].first > 0) clause.push_back(order_at_most(sink, *terms[i].second, values[i] - 1));
        else clause.push_back(~order_at_most(sink, *terms[i].second, values[i]));
      }
      sink.add_clause(clause);
    }
    size_t i = 0;
    while (i < free_terms && values[i] == terms[i].second->hi) values[i] = terms[i].second->lo, ++i;
    if (i == free_terms) break;
    ++values[i];
  }
  return true;
}

}  // namespace tessel::cnf
