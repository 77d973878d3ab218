// Small linear constraints over order-encoded integers, by enumeration: the
// order encoding of a linear comparison (Tamura, Taga, Kitagawa, Banbara,
// "Compiling finite linear CSP into SAT", Constraints 2009).
//
// For sum a_i x_i <= c, enumerate the values of every term but the one with
// the largest domain; each combination v gives the clause
//   (some x_i < v_i where a_i > 0) or (some x_i > v_i where a_i < 0)
//   or (the last term within what is left of c),
// all literals of the order encoding. Why: a tie such as s = q P + tau (an
// integer, its quotient and its remainder) has three integers with
// coefficients 1 and P; as a pseudo-Boolean sum over order literals it is a
// weighted constraint with a large bound (a big BDD that propagates little),
// while by enumeration it is q_domain x tau_domain ternary clauses that give
// bounds propagation in every direction. Used only when the enumeration
// stays below a limit; the pseudo-Boolean encodings take the rest.
#pragma once

#include <utility>
#include <vector>

#include "sat/order_encoding.hpp"

namespace tessel::cnf {

// At most this many combinations (clauses) per constraint.
constexpr long long kLinearEnumerationLimit = 4096;

// guard -> sum coefficient * x <= bound. Returns false, adding nothing, when
// the enumeration would exceed `limit` combinations.
bool add_linear_by_enumeration(Sink& sink, const std::vector<std::pair<long long, OrderVar>>& terms, long long bound,
                               const std::vector<Lit>& guard, long long limit = kLinearEnumerationLimit);

}  // namespace tessel::cnf
