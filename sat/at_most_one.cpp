// At most one of a set of literals (see at_most_one.hpp).
#include "sat/at_most_one.hpp"

namespace tessel::cnf {

void add_at_most_one(Sink& sink, const std::vector<Lit>& lits) {
  if (lits.size() <= 1) return;
  if (lits.size() <= kPairwiseAtMostOneLimit) {
    for (size_t i = 0; i < lits.size(); ++i)
      for (size_t j = i + 1; j < lits.size(); ++j) sink.add_clause({~lits[i], ~lits[j]});
    return;
  }
  // some[i]: one of lits[0..i] is true. A true literal sets its rung, the
  // rung carries upward, and a set rung below forbids the next literal.
  Lit previous = lits[0];
  for (size_t i = 1; i < lits.size(); ++i) {
    sink.add_clause({~previous, ~lits[i]});
    if (i + 1 == lits.size()) break;
    Lit some = sink.new_var();
    sink.add_clause({~previous, some});
    sink.add_clause({~lits[i], some});
    previous = some;
  }
}

}  // namespace tessel::cnf
