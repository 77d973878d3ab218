// The backward DRAT checker (see the header for the method).
//
// State: every clause's literals in one array, the two watched literals
// first (the first is the one a unit propagates, so "is this clause a
// reason" is one look-up); two watch lists per literal, one for core clauses
// and one for the rest, each entry with a blocker literal (when it is true
// the clause is satisfied and need not be read); the top-level trail with
// each variable's reason; and for each proof step the trail length before it.
//
// Why no watch is ever repaired when the trail shrinks: a clause keeps a
// false watch only while its other watch (or the blocker) is true and was
// assigned in the same proof step or an earlier one, and the trail only
// shrinks back to the start of a step. So whatever stays false keeps its
// true partner. A deleted clause is only flagged: its watches freeze, and
// when the backward pass brings it back the trail is exactly what it was at
// the deletion, so the frozen watches are right again; watch entries it
// left (lists drop inactive clauses as they meet them) are put back then.
#include "certify/drat_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <unordered_map>

namespace tessel::certify {
namespace {

struct Clause {
  uint64_t start = 0;   // in the literal array
  uint32_t size = 0;    // literals after removing duplicates
  int pivot = 0;        // first literal as written (RAT)
  bool active = false, core = false, tautology = false;
  unsigned char unwatched = 0;  // bit w: watch w's entry left its list while inactive
};

struct Watch {
  int clause;
  int blocker;  // another literal of the clause; true means satisfied
};

std::string clause_text(const std::vector<int>& literals) {
  std::string text;
  for (size_t i = 0; i < literals.size() && i < 12; ++i) text += std::to_string(literals[i]) + " ";
  if (literals.size() > 12) text += "... ";
  return text + "0";
}

// A well-mixed 64-bit value of a literal; clause hashes add them, so the
// order the literals are written in does not matter.
uint64_t mix(int literal) {
  uint64_t x = static_cast<uint64_t>(static_cast<int64_t>(literal)) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Checker {
 public:
  explicit Checker(int variables)
      : value_(2 * (variables + 1), 0), marked_(2 * (variables + 1), 0), reason_(variables + 1, -1),
        seen_(variables + 1, 0) {
    watches_[0].resize(2 * (variables + 1));
    watches_[1].resize(2 * (variables + 1));
  }

  DratResult run(const Cnf& cnf, const std::vector<ProofStep>& proof);

 private:
  static size_t code(int literal) { return 2 * static_cast<size_t>(std::abs(literal)) + (literal < 0); }
  int value(int literal) const { return value_[code(literal)]; }
  int* literals(int id) { return arena_.data() + clauses_[id].start; }
  void assign(int literal, int reason) {
    value_[code(literal)] = 1;
    value_[code(-literal)] = -1;
    reason_[std::abs(literal)] = reason;
    trail_.push_back(literal);
  }
  void undo_to(size_t size);
  int add_clause(const std::vector<int>& written);
  void watch(int id, int w) { watches_[clauses_[id].core][code(literals(id)[w])].push_back({id, literals(id)[1 - w]}); }
  int attach(int id);
  void reactivate(int id);
  int propagate();
  int visit(int false_literal, bool core_pass);
  void mark_from(int clause, int variable);
  bool rup(const std::vector<int>& clause);
  bool rat(int id);
  bool is_reason(int id) { return clauses_[id].size > 0 && reason_[std::abs(literals(id)[0])] == id; }
  int match_deletion(const std::vector<int>& written);
  int forward(const std::vector<ProofStep>& proof, std::vector<int>& step_clause, std::vector<size_t>& trail_before,
              size_t& last);

  std::vector<int> arena_;
  std::vector<Clause> clauses_;
  std::vector<signed char> value_;  // by literal code: 1 true, -1 false, 0 unassigned
  std::vector<char> marked_;        // by literal code: scratch for deduplicating and comparing clauses
  std::vector<int> reason_;         // by variable: the clause that propagated it, -1 for none
  std::vector<char> seen_;          // by variable: scratch for mark_from
  std::vector<std::vector<Watch>> watches_[2];  // [core][literal code]: clauses watching that literal
  std::vector<int> trail_;
  size_t core_head_ = 0, all_head_ = 0;
  std::unordered_multimap<uint64_t, int> by_hash_;  // forward pass only: active clauses by their literal set
  DratResult result_;
};

void Checker::undo_to(size_t size) {
  while (trail_.size() > size) {
    const int literal = trail_.back();
    value_[code(literal)] = value_[code(-literal)] = 0;
    reason_[std::abs(literal)] = -1;
    trail_.pop_back();
  }
  core_head_ = std::min(core_head_, size);
  all_head_ = std::min(all_head_, size);
}

// Stores a clause without duplicate literals, hashed for deletions to find.
int Checker::add_clause(const std::vector<int>& written) {
  Clause clause;
  clause.start = arena_.size();
  clause.pivot = written.empty() ? 0 : written[0];
  uint64_t hash = 0;
  for (int literal : written) {
    if (marked_[code(literal)]) continue;
    marked_[code(literal)] = 1;
    clause.tautology = clause.tautology || marked_[code(-literal)];
    arena_.push_back(literal);
    hash += mix(literal);
  }
  clause.size = static_cast<uint32_t>(arena_.size() - clause.start);
  for (uint64_t i = clause.start; i < arena_.size(); ++i) marked_[code(arena_[i])] = 0;
  const int id = static_cast<int>(clauses_.size());
  clauses_.push_back(clause);
  by_hash_.emplace(hash, id);
  return id;
}

// Forward pass only: watches the two best literals (true, then unassigned,
// then false); a clause all false returns itself as the conflict, a unit
// assigns. Everything assigned now stays while the clause is active.
int Checker::attach(int id) {
  Clause& clause = clauses_[id];
  clause.active = true;
  if (clause.tautology) return -1;
  if (clause.size == 0) return id;
  int* lits = literals(id);
  auto rank = [&](int literal) { return value(literal) + 1; };
  for (uint32_t w = 0; w < std::min<uint32_t>(2, clause.size); ++w)
    for (uint32_t j = w + 1; j < clause.size; ++j)
      if (rank(lits[j]) > rank(lits[w])) std::swap(lits[j], lits[w]);
  if (clause.size >= 2) {
    watch(id, 0);
    watch(id, 1);
  }
  if (value(lits[0]) == -1) return id;
  if (value(lits[0]) == 0 && (clause.size == 1 || value(lits[1]) == -1)) assign(lits[0], id);
  return -1;
}

// Backward pass: a deleted clause comes back with the watches it had.
void Checker::reactivate(int id) {
  Clause& clause = clauses_[id];
  clause.active = true;
  for (int w = 0; w < 2; ++w)
    if (clause.unwatched & (1 << w)) watch(id, w);
  clause.unwatched = 0;
}

// The clauses of one kind (core or not) watching `false_literal`: satisfied
// (kept), or the watch moves to a literal not false, or the clause
// propagates or conflicts (returned). A core clause found in the other list
// moves to the core list; an inactive one leaves.
int Checker::visit(int false_literal, bool core_pass) {
  std::vector<Watch>& list = watches_[core_pass][code(false_literal)];
  size_t keep = 0, i = 0;
  int conflict = -1;
  for (; i < list.size() && conflict < 0; ++i) {
    const Watch entry = list[i];
    if (value(entry.blocker) == 1) {
      list[keep++] = entry;
      continue;
    }
    Clause& clause = clauses_[entry.clause];
    int* lits = arena_.data() + clause.start;
    if (!clause.active) {
      clause.unwatched |= lits[0] == false_literal ? 1 : 2;
      continue;
    }
    if (lits[0] == false_literal) std::swap(lits[0], lits[1]);
    const Watch kept{entry.clause, lits[0]};
    if (value(lits[0]) != 1) {
      uint32_t other = 2;
      while (other < clause.size && value(lits[other]) == -1) ++other;
      if (other < clause.size) {
        std::swap(lits[1], lits[other]);
        watches_[clause.core][code(lits[1])].push_back(kept);
        continue;
      }
      if (value(lits[0]) == -1) conflict = entry.clause;
      else assign(lits[0], entry.clause);
    }
    if (clause.core && !core_pass) watches_[1][code(false_literal)].push_back(kept);
    else list[keep++] = kept;
  }
  for (; i < list.size(); ++i) list[keep++] = list[i];
  list.resize(keep);
  return conflict;
}

// Core first: the other clauses are visited only when the core ones are at
// a fixpoint, so that refutations use (and mark) core clauses.
int Checker::propagate() {
  for (;;) {
    while (core_head_ < trail_.size()) {
      const int conflict = visit(-trail_[core_head_++], true);
      if (conflict >= 0) return conflict;
    }
    if (all_head_ == trail_.size()) return -1;
    const int conflict = visit(-trail_[all_head_++], false);
    if (conflict >= 0) return conflict;
  }
}

// Marks `clause` core and, through the reasons of its false literals, every
// clause the derivation used (the variable `variable` alone when clause < 0).
void Checker::mark_from(int clause, int variable) {
  std::vector<int> stack, touched;
  auto push_reason = [&](int literal) {
    const int v = std::abs(literal);
    if (seen_[v] || reason_[v] < 0) return;
    seen_[v] = 1;
    touched.push_back(v);
    stack.push_back(reason_[v]);
  };
  if (clause >= 0) stack.push_back(clause);
  else push_reason(variable);
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    clauses_[id].core = true;
    const int* lits = literals(id);
    for (uint32_t i = 0; i < clauses_[id].size; ++i) push_reason(lits[i]);
  }
  for (int v : touched) seen_[v] = 0;
}

// Reverse unit propagation: the negation of `clause` propagates to a
// conflict. Marks what the conflict used.
bool Checker::rup(const std::vector<int>& clause) {
  const size_t saved = trail_.size();
  for (int literal : clause) {
    if (value(literal) == 1) {
      mark_from(-1, std::abs(literal));
      undo_to(saved);
      return true;
    }
    if (value(literal) == 0) assign(-literal, -1);
  }
  const int conflict = propagate();
  if (conflict >= 0) mark_from(conflict, 0);
  undo_to(saved);
  return conflict >= 0;
}

// RAT on the pivot: every resolvent with an active clause holding the
// pivot's negation is a tautology or RUP; those clauses become core.
bool Checker::rat(int id) {
  const int pivot = clauses_[id].pivot;
  if (pivot == 0) return false;
  const std::vector<int> lemma(literals(id), literals(id) + clauses_[id].size);
  for (size_t other = 0; other < clauses_.size(); ++other) {
    const Clause& candidate = clauses_[other];
    const int* lits = arena_.data() + candidate.start;
    if (!candidate.active || std::find(lits, lits + candidate.size, -pivot) == lits + candidate.size) continue;
    std::vector<int> resolvent = lemma;
    bool tautology = false;
    for (uint32_t i = 0; i < candidate.size; ++i) {
      if (lits[i] == -pivot) continue;
      if (std::find(lemma.begin(), lemma.end(), -lits[i]) != lemma.end()) tautology = true;
      resolvent.push_back(lits[i]);
    }
    clauses_[other].core = true;
    if (!tautology && !rup(resolvent)) return false;
  }
  ++result_.rat;
  return true;
}

// The active clause a deletion line names (its literal set), or -1.
int Checker::match_deletion(const std::vector<int>& written) {
  std::vector<int> wanted;
  uint64_t hash = 0;
  for (int literal : written) {
    if (marked_[code(literal)]) continue;
    marked_[code(literal)] = 1;
    wanted.push_back(literal);
    hash += mix(literal);
  }
  int found = -1;
  auto range = by_hash_.equal_range(hash);
  for (auto it = range.first; it != range.second && found < 0; ++it) {
    const Clause& clause = clauses_[it->second];
    const int* lits = arena_.data() + clause.start;
    if (clause.size != wanted.size() || !std::all_of(lits, lits + clause.size, [&](int l) { return marked_[code(l)]; }))
      continue;
    if (is_reason(it->second)) continue;  // an identical copy that is not a reason may follow
    found = it->second;
    by_hash_.erase(it);
  }
  for (int literal : wanted) marked_[code(literal)] = 0;
  return found;
}

// Adds the lemmas (propagating) and applies the deletions until a conflict;
// `last` is one past the step that refuted. Returns the conflict or -1.
int Checker::forward(const std::vector<ProofStep>& proof, std::vector<int>& step_clause,
                     std::vector<size_t>& trail_before, size_t& last) {
  int conflict = -1;
  for (last = 0; conflict < 0 && last < proof.size(); ++last) {
    const ProofStep& step = proof[last];
    trail_before[last] = trail_.size();
    if (!step.deletion) {
      ++result_.lemmas;
      step_clause[last] = add_clause(step.literals);
      conflict = attach(step_clause[last]);
      if (conflict < 0) conflict = propagate();
      continue;
    }
    const int id = match_deletion(step.literals);
    if (id < 0) {
      ++result_.ignored_deletions;
      continue;
    }
    clauses_[id].active = false;
    step_clause[last] = id;
  }
  return conflict;
}

DratResult Checker::run(const Cnf& cnf, const std::vector<ProofStep>& proof) {
  by_hash_.reserve(cnf.clauses.size() + proof.size());
  int conflict = -1;
  for (const std::vector<int>& clause : cnf.clauses)
    if (conflict < 0) conflict = attach(add_clause(clause));
  if (conflict < 0) conflict = propagate();
  std::vector<int> step_clause(proof.size(), -1);
  std::vector<size_t> trail_before(proof.size(), 0);
  size_t last = 0;
  if (conflict < 0) conflict = forward(proof, step_clause, trail_before, last);
  if (conflict < 0) {
    result_.reason = "the proof never refutes the CNF (no empty clause, no conflict by unit propagation)";
    return result_;
  }
  by_hash_.clear();
  mark_from(conflict, 0);
  // Backward: undo each step; check each core lemma against the clauses before it.
  for (size_t i = last; i-- > 0;) {
    const int id = step_clause[i];
    if (id < 0) continue;
    if (proof[i].deletion) {
      reactivate(id);
      continue;
    }
    clauses_[id].active = false;
    undo_to(trail_before[i]);
    if (!clauses_[id].core) continue;
    ++result_.checked;
    const Clause& lemma = clauses_[id];
    if (lemma.tautology || rup(std::vector<int>(literals(id), literals(id) + lemma.size)) || rat(id)) continue;
    result_.reason = "proof step " + std::to_string(i + 1) + ": lemma " + clause_text(proof[i].literals) +
                     " is neither RUP nor RAT on its first literal";
    return result_;
  }
  result_.valid = true;
  return result_;
}

}  // namespace

DratResult check_drat(const Cnf& cnf, const std::vector<ProofStep>& proof) {
  int variables = cnf.variables;
  for (const ProofStep& step : proof)
    for (int literal : step.literals) variables = std::max(variables, std::abs(literal));
  for (const std::vector<int>& clause : cnf.clauses)
    for (int literal : clause) variables = std::max(variables, std::abs(literal));
  Checker checker(variables);
  return checker.run(cnf, proof);
}

}  // namespace tessel::certify
