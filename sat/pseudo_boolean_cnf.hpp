// Linear constraints over literals in CNF: `guard -> sum w_i * l_i <= bound`,
// the memory limit of a device at a phase or step (docs/algorithms.md, "The repetend as a modulo schedule").
//
// Three encodings, chosen per constraint:
//  - cardinality (all weights equal after dividing by their gcd, which is the
//    memory of the paper's cases: +1 per forward, -1 per backward): a
//    totalizer (Bailleux and Boufkhad, CP 2003) cut off at bound + 1
//    (k-simplification). Literals that are order literals of one integer
//    ([x <= v] for several v, as the modulo encoding's memory sums are) are
//    already a sorted unary count — the chain clauses make the true ones a
//    prefix — so they enter the tree as one leaf without any new variable or
//    clause, and the counter knows what the chain knows. Leaves are merged
//    smallest first, and every merged node is cached by the multiset of its
//    input literals, so a sub-sum that recurs (the same device at another
//    bound) is built once. The sequential counter is the alternative
//    (selectable for measurement, see `CardinalityEncoding`).
//  - small weights: a reduced BDD with interval merging (Abio, Nieuwenhuis,
//    Oliveras, Rodriguez-Carbonell, "BDDs for pseudo-Boolean constraints",
//    2012): nodes "the rest of the sum is at most K" are shared for every K
//    in an interval of equivalent bounds, so equal partial sums merge.
//  - large weights (bytes, FLOPs from the partitioner): when the BDD would
//    exceed `kBddNodeLimit` nodes, or the sum is longer than
//    `kBddTermLimit` (or a cardinality sum too large for the totalizer), a
//    binary adder tree with a comparator
//    against the bound: polynomial in the number of bits, weaker propagation,
//    always correct.
// All encodings only propagate upward (inputs force counters), which is what
// an upper bound needs; the guard enters only the final clauses, so one
// encoded sum serves any bound tested under assumptions.
#pragma once

#include <map>
#include <vector>

#include "sat/cnf_sink.hpp"

namespace tessel::cnf {

struct WeightedLit {
  long long weight = 0;
  Lit lit;
};


enum class CardinalityEncoding { Totalizer, SequentialCounter };

// Above this many BDD nodes, one constraint falls back to the adder.
constexpr long long kBddNodeLimit = 200000;
// Sums longer than this skip the BDD for the adder: the BDD's construction
// recurses once per term (a 37,000-term sum overflowed the stack).
constexpr size_t kBddTermLimit = 4096;
// And longer than this the totalizer, whose merging is quadratic in the
// terms (a sum of 45,000 crossings took minutes).
constexpr size_t kTotalizerTermLimit = 12288;
// Cardinality sums whose totalizer would exceed terms x min(terms, bound+1)
// of this go to the adder (a 10^4-literal sum under a bound of 2,500 took
// tens of GB).
constexpr double kTotalizerCellLimit = 2e7;

struct PbStats {
  long long constraints = 0;
  long long totalizer_nodes_built = 0;
  long long totalizer_nodes_reused = 0;
  long long bdd_nodes = 0;
  long long adder_constraints = 0;
};

class PbEncoder {
 public:
  explicit PbEncoder(Sink& sink, CardinalityEncoding cardinality = CardinalityEncoding::Totalizer,
                     long long bdd_node_limit = kBddNodeLimit)
      : sink_(sink), cardinality_(cardinality), bdd_node_limit_(bdd_node_limit) {}

  // guard -> sum weight * lit <= bound. Any signs, constants, repeated and
  // complementary literals are accepted (normalised here).
  void add_at_most(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard);

  const PbStats& stats() const { return stats_; }

 private:
  struct BddEntry {
    long long low;   // the node stands for every bound K in [low, high]
    long long high;
    Lit lit;
  };
  struct BddResult {
    Lit lit;
    long long low;
    long long high;
  };

  // A unary counter: outputs[k - 1] is forced when k of the inputs are true.
  struct Counter {
    std::vector<int> inputs;  // sorted literal codes below it (the cache key)
    std::vector<Lit> outputs;
  };

  void add_cardinality(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard);
  std::vector<Counter> unary_leaves(const std::vector<WeightedLit>& terms, long long cap) const;
  Counter merge_counters(const Counter& left, const Counter& right, long long cap);
  bool add_bdd(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard);
  BddResult bdd_node(size_t level, long long bound);
  void add_adder(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard);

  Sink& sink_;
  CardinalityEncoding cardinality_;
  long long bdd_node_limit_;
  PbStats stats_;
  // Totalizer outputs by sorted input codes.
  std::map<std::vector<int>, std::vector<Lit>> totalizers_;
  // State of one BDD construction.
  const std::vector<WeightedLit>* bdd_terms_ = nullptr;
  std::vector<long long> bdd_rest_;
  std::vector<std::map<long long, BddEntry>> bdd_levels_;
  long long bdd_nodes_ = 0;
};

}  // namespace tessel::cnf
