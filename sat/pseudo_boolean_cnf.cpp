// Linear constraints over literals in CNF (see pseudo_boolean_cnf.hpp for
// the choice of encodings and why).
#include "sat/pseudo_boolean_cnf.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <deque>
#include <limits>
#include <numeric>

namespace tessel::cnf {

namespace {

constexpr long long kMinusInfinity = std::numeric_limits<long long>::min() / 4;
constexpr long long kPlusInfinity = std::numeric_limits<long long>::max() / 4;

struct BddTooLarge {};

// Clauses making `out` equal to f(inputs), one per row of the truth table:
// the tables here have at most 8 rows (adders), so this is the clearest way.
template <typename Function>
void define_function(Sink& sink, const std::vector<Lit>& inputs, Lit out, Function&& f) {
  for (unsigned row = 0; row < (1u << inputs.size()); ++row) {
    std::vector<Lit> clause;
    for (size_t i = 0; i < inputs.size(); ++i) clause.push_back((row >> i) & 1 ? ~inputs[i] : inputs[i]);
    clause.push_back(f(std::popcount(row)) ? out : ~out);
    sink.add_clause(clause);
  }
}

}  // namespace

//------------------------------------------------------------------------------
// Normalisation: positive weights over distinct variables, constants folded
// into the bound, literals heavier than the bound forced false, the gcd of
// the weights divided out. What is left is either trivial or handed to one
// of the three encodings.

void PbEncoder::add_at_most(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard) {
  ++stats_.constraints;
  std::map<int, long long> coefficient;  // variable -> weight of its positive literal
  std::vector<int> first_seen;
  long long rest = bound;
  for (const WeightedLit& term : terms) {
    if (term.weight == 0 || sink_.is_false(term.lit)) continue;
    if (sink_.is_true(term.lit)) {
      rest -= term.weight;
      continue;
    }
    int variable = std::abs(term.lit.code);
    auto [entry, fresh] = coefficient.try_emplace(variable, 0);
    if (fresh) first_seen.push_back(variable);
    if (term.lit.code > 0) {
      entry->second += term.weight;
    } else {  // w * not x = w - w * x
      rest -= term.weight;
      entry->second -= term.weight;
    }
  }
  std::vector<WeightedLit> normal;
  for (int variable : first_seen) {
    long long weight = coefficient[variable];
    if (weight > 0) normal.push_back({weight, Lit{variable}});
    if (weight < 0) {  // c * x = c + (-c) * not x
      rest -= weight;
      normal.push_back({-weight, Lit{-variable}});
    }
  }
  if (rest < 0) {
    sink_.add_clause(guarded_clause(guard, {}));
    return;
  }
  std::vector<WeightedLit> kept;
  long long total = 0;
  long long divisor = 0;
  for (const WeightedLit& term : normal) {
    if (term.weight > rest) {
      sink_.add_clause(guarded_clause(guard, {~term.lit}));
      continue;
    }
    kept.push_back(term);
    total += term.weight;
    divisor = std::gcd(divisor, term.weight);
  }
  if (total <= rest) return;
  for (WeightedLit& term : kept) term.weight /= divisor;
  rest /= divisor;

  bool cardinality = std::all_of(kept.begin(), kept.end(), [](const WeightedLit& t) { return t.weight == 1; });
  // The totalizer's clauses grow as terms x bound (and its merging as
  // terms^2), the BDD's recursion is as deep as the sum is long: a sum over
  // 10^4-10^5 literals (the stage loads of a traced model's operator graph)
  // goes to the adder, which is linear in terms x bits and has no recursion.
  const double length = static_cast<double>(kept.size());
  if (cardinality && cardinality_ == CardinalityEncoding::Totalizer && kept.size() <= kTotalizerTermLimit &&
      length * std::min<double>(length, static_cast<double>(rest) + 1) <= kTotalizerCellLimit) {
    add_cardinality(kept, rest, guard);
    return;
  }
  if (kept.size() <= kBddTermLimit && add_bdd(kept, rest, guard)) return;
  add_adder(kept, rest, guard);
}

//------------------------------------------------------------------------------
// Totalizer: a tree of unary counters whose root output number bound + 1 must
// be false. Leaves are single literals or whole order chains; the two
// smallest counters are merged first, each merge cached by its inputs.

void PbEncoder::add_cardinality(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard) {
  const long long cap = bound + 1;
  std::vector<Counter> pending = unary_leaves(terms, cap);
  while (pending.size() > 1) {
    auto by_size = [](const Counter& a, const Counter& b) { return a.outputs.size() > b.outputs.size(); };
    std::stable_sort(pending.begin(), pending.end(), by_size);  // smallest last
    Counter right = std::move(pending.back());
    pending.pop_back();
    Counter left = std::move(pending.back());
    pending.pop_back();
    pending.push_back(merge_counters(left, right, cap));
  }
  sink_.add_clause(guarded_clause(guard, {~pending.front().outputs[bound]}));
}

// Order literals of one integer with one polarity, sorted so that the k-th
// is "at least k of them are true": [x <= v] by decreasing v (a smaller v
// implies the larger ones), not [x <= v] by increasing v.
std::vector<PbEncoder::Counter> PbEncoder::unary_leaves(const std::vector<WeightedLit>& terms, long long cap) const {
  std::map<std::pair<int, bool>, std::vector<std::pair<long long, Lit>>> chains;
  std::vector<Counter> leaves;
  for (const WeightedLit& term : terms) {
    auto position = sink_.order_literal(term.lit);
    if (!position) {
      leaves.push_back({{term.lit.code}, {term.lit}});
      continue;
    }
    chains[{position->first, term.lit.code > 0}].push_back({position->second, term.lit});
  }
  for (auto& [chain, members] : chains) {
    bool positive = chain.second;
    std::sort(members.begin(), members.end(), [&](const auto& a, const auto& b) {
      return positive ? a.first > b.first : a.first < b.first;
    });
    Counter leaf;
    for (const auto& [value, lit] : members) {
      leaf.inputs.push_back(lit.code);
      if ((long long)leaf.outputs.size() < cap) leaf.outputs.push_back(lit);
    }
    std::sort(leaf.inputs.begin(), leaf.inputs.end());
    leaves.push_back(std::move(leaf));
  }
  return leaves;
}

// out[k - 1] is forced when the two sides together count k (k <= cap; the
// last output also stands for "cap or more").
PbEncoder::Counter PbEncoder::merge_counters(const Counter& left, const Counter& right, long long cap) {
  Counter merged;
  std::merge(left.inputs.begin(), left.inputs.end(), right.inputs.begin(), right.inputs.end(),
             std::back_inserter(merged.inputs));
  size_t size = std::min<long long>(left.outputs.size() + right.outputs.size(), cap);
  auto cached = totalizers_.find(merged.inputs);
  if (cached != totalizers_.end() && cached->second.size() >= size) {
    ++stats_.totalizer_nodes_reused;
    merged.outputs = cached->second;
    return merged;
  }
  ++stats_.totalizer_nodes_built;
  for (size_t k = 0; k < size; ++k) merged.outputs.push_back(sink_.new_var());
  for (size_t i = 0; i <= left.outputs.size(); ++i) {
    for (size_t j = 0; j <= right.outputs.size(); ++j) {
      if (i + j == 0) continue;
      std::vector<Lit> clause;
      if (i > 0) clause.push_back(~left.outputs[i - 1]);
      if (j > 0) clause.push_back(~right.outputs[j - 1]);
      clause.push_back(merged.outputs[std::min(i + j, size) - 1]);
      sink_.add_clause(clause);
    }
  }
  totalizers_[merged.inputs] = merged.outputs;
  return merged;
}

//------------------------------------------------------------------------------
// Reduced BDD with interval merging. A node at level i stands for "the terms
// from i on sum to at most K" for every K of its interval; heavier terms
// first keeps it small. With unit weights it is the sequential counter.

bool PbEncoder::add_bdd(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard) {
  std::vector<WeightedLit> ordered = terms;
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const WeightedLit& a, const WeightedLit& b) { return a.weight > b.weight; });
  bdd_terms_ = &ordered;
  bdd_rest_.assign(ordered.size() + 1, 0);
  for (size_t i = ordered.size(); i-- > 0;) bdd_rest_[i] = bdd_rest_[i + 1] + ordered[i].weight;
  bdd_levels_.assign(ordered.size() + 1, {});
  bdd_nodes_ = 0;
  bool built = true;
  try {
    BddResult root = bdd_node(0, bound);
    sink_.add_clause(guarded_clause(guard, {root.lit}));
  } catch (const BddTooLarge&) {
    built = false;  // the nodes made so far are definitions nobody uses: harmless
  }
  stats_.bdd_nodes += bdd_nodes_;
  bdd_levels_.clear();
  bdd_terms_ = nullptr;
  return built;
}

PbEncoder::BddResult PbEncoder::bdd_node(size_t level, long long bound) {
  if (bound < 0) return {sink_.falsity(), kMinusInfinity, -1};
  if (bound >= bdd_rest_[level]) return {sink_.truth(), bdd_rest_[level], kPlusInfinity};
  auto& known = bdd_levels_[level];
  auto found = known.upper_bound(bound);
  if (found != known.begin()) {
    --found;
    if (found->second.high >= bound) return {found->second.lit, found->second.low, found->second.high};
  }
  const WeightedLit& term = (*bdd_terms_)[level];
  BddResult if_false = bdd_node(level + 1, bound);
  BddResult if_true = bdd_node(level + 1, bound - term.weight);
  long long low = std::max(if_false.low, if_true.low + term.weight);
  long long high = std::min(if_false.high, if_true.high + term.weight);
  Lit node = if_false.lit;
  if (!(if_false.lit == if_true.lit)) {
    if (++bdd_nodes_ > bdd_node_limit_) throw BddTooLarge{};
    node = sink_.new_var();
    sink_.add_clause({~node, if_false.lit});
    sink_.add_clause({~node, ~term.lit, if_true.lit});
  }
  known[low] = {low, high, node};
  return {node, low, high};
}

//------------------------------------------------------------------------------
// Adder tree: the weighted literals as binary columns, reduced by full and
// half adders to one bit per column, then "sum > bound" is excluded bit by
// bit: for every 0-bit i of the bound, bit i set and every higher 1-bit of
// the bound set would make the sum larger.

void PbEncoder::add_adder(const std::vector<WeightedLit>& terms, long long bound, const std::vector<Lit>& guard) {
  ++stats_.adder_constraints;
  std::vector<std::deque<Lit>> columns;
  for (const WeightedLit& term : terms) {
    for (int bit = 0; (term.weight >> bit) != 0; ++bit) {
      if (((term.weight >> bit) & 1) == 0) continue;
      if ((int)columns.size() <= bit) columns.resize(bit + 1);
      columns[bit].push_back(term.lit);
    }
  }
  for (size_t bit = 0; bit < columns.size(); ++bit) {
    while (columns[bit].size() >= 2) {
      std::vector<Lit> inputs;
      size_t take = columns[bit].size() >= 3 ? 3 : 2;
      for (size_t i = 0; i < take; ++i) {
        inputs.push_back(columns[bit].front());
        columns[bit].pop_front();
      }
      Lit sum = sink_.new_var();
      Lit carry = sink_.new_var();
      define_function(sink_, inputs, sum, [](int ones) { return ones % 2 == 1; });
      define_function(sink_, inputs, carry, [](int ones) { return ones >= 2; });
      columns[bit].push_back(sum);
      if (columns.size() <= bit + 1) columns.resize(bit + 2);
      columns[bit + 1].push_back(carry);
    }
  }
  auto bound_bit = [&](size_t bit) { return bit < 62 && ((bound >> bit) & 1); };
  for (size_t bit = 0; bit < columns.size(); ++bit) {
    if (columns[bit].empty() || bound_bit(bit)) continue;
    std::vector<Lit> clause = guarded_clause(guard, {~columns[bit].front()});
    bool can_exceed = true;  // a 1-bit of the bound over an empty column: the sum stays below there
    for (size_t higher = bit + 1; higher < 62 && can_exceed; ++higher) {
      if (!bound_bit(higher)) continue;
      if (higher >= columns.size() || columns[higher].empty()) can_exceed = false;
      else clause.push_back(~columns[higher].front());
    }
    if (can_exceed) sink_.add_clause(clause);
  }
}

}  // namespace tessel::cnf
