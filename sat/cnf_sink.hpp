// Where the CNF building blocks (order encoding, at-most-one, pseudo-Boolean
// sums) put their variables and clauses. The CaDiCaL backend is the one real
// sink; keeping the blocks behind this small interface lets each be a file of
// its own and be tested without a solver.
//
// Constants: every sink owns one variable fixed to true (`truth()`), so that
// "the literal [x <= v] outside the domain" can be an ordinary literal.
// Sinks drop clauses that contain the true literal and drop the false literal
// from clauses, so callers may pass constants freely.
#pragma once

#include <optional>
#include <vector>

#include "sat/backend.hpp"

namespace tessel::cnf {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual Lit new_var() = 0;
  virtual void add_clause(const std::vector<Lit>& lits) = 0;
  virtual Lit truth() const = 0;

  // Whether `lit` is an order literal [x <= v] (or its negation) of an
  // integer made by this sink; encodings use it to recognise sorted chains.
  virtual std::optional<std::pair<int, long long>> order_literal(Lit) const { return std::nullopt; }

  Lit falsity() const { return ~truth(); }
  bool is_true(Lit lit) const { return lit == truth(); }
  bool is_false(Lit lit) const { return lit == falsity(); }
};

// The clause `not guard_1 or ... or not guard_n or rest...`: how every
// guarded constraint ends up in CNF.
inline std::vector<Lit> guarded_clause(const std::vector<Lit>& guard, std::initializer_list<Lit> rest) {
  std::vector<Lit> clause;
  clause.reserve(guard.size() + rest.size());
  for (Lit g : guard) clause.push_back(~g);
  for (Lit l : rest) clause.push_back(l);
  return clause;
}

}  // namespace tessel::cnf
