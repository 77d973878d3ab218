// At most one of a set of literals: the exclusivity of a device step (or a
// phase of the repetend's circle) over the blocks that could occupy it.
//
// Pairwise for a handful of literals (no new variables, strongest
// propagation); the sequential "ladder" of Sinz (CP 2005) above that, whose
// 3n clauses keep large steps with many candidates linear in size.
#pragma once

#include <vector>

#include "sat/cnf_sink.hpp"

namespace tessel::cnf {

// At most this many literals use the pairwise encoding.
constexpr size_t kPairwiseAtMostOneLimit = 6;

void add_at_most_one(Sink& sink, const std::vector<Lit>& lits);

}  // namespace tessel::cnf
