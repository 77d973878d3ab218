// The backward DRAT checker (see the header for the method). State: the
// clauses with two watched literals, the top-level trail with each literal's
// reason, and for each proof step the trail length before it, so that going
// back past a lemma restores the trail the forward pass had there.
#include "certify/drat_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <unordered_map>

namespace tessel::certify {
namespace {

struct Clause {
  std::vector<int> literals;  // watched literals first
  int pivot = 0;              // first literal as written (RAT)
  bool active = false, core = false, tautology = false;
};

std::string clause_text(const std::vector<int>& literals) {
  std::string text;
  for (size_t i = 0; i < literals.size() && i < 12; ++i) text += std::to_string(literals[i]) + " ";
  if (literals.size() > 12) text += "... ";
  return text + "0";
}

class Checker {
 public:
  explicit Checker(int variables) : value_(variables + 1, 0), reason_(variables + 1, -1), seen_(variables + 1, 0),
                                    watches_(2 * (variables + 1)) {}

  DratResult run(const Cnf& cnf, const std::vector<ProofStep>& proof);

 private:
  int value(int literal) const { return literal > 0 ? value_[literal] : -value_[-literal]; }
  static size_t code(int literal) { return 2 * static_cast<size_t>(std::abs(literal)) + (literal < 0); }
  void assign(int literal, int reason) {
    value_[std::abs(literal)] = literal > 0 ? 1 : -1;
    reason_[std::abs(literal)] = reason;
    trail_.push_back(literal);
  }
  void undo_to(size_t size) {
    while (trail_.size() > size) {
      value_[std::abs(trail_.back())] = 0;
      reason_[std::abs(trail_.back())] = -1;
      trail_.pop_back();
    }
    core_head_ = std::min(core_head_, size);
    all_head_ = std::min(all_head_, size);
  }
  int add_clause(const std::vector<int>& literals);
  int attach(int id);
  void detach(int id);
  void pop_to(size_t size);
  int propagate();
  int visit(int false_literal, bool core_pass);
  void mark_from(int clause, int variable);
  bool rup(const std::vector<int>& literals);
  bool check_lemma(int id);
  uint64_t key_of(std::vector<int> literals) const;
  int find_active(const std::vector<int>& literals);

  std::vector<Clause> clauses_;
  std::vector<signed char> value_;
  std::vector<int> reason_;
  std::vector<char> seen_;
  std::vector<std::vector<int>> watches_;
  std::vector<int> trail_;
  size_t core_head_ = 0, all_head_ = 0;
  std::unordered_map<uint64_t, std::vector<int>> by_key_;
  DratResult result_;
};

uint64_t Checker::key_of(std::vector<int> literals) const {
  std::sort(literals.begin(), literals.end());
  uint64_t hash = 1469598103934665603ULL;
  for (int literal : literals) hash = (hash ^ static_cast<uint32_t>(literal)) * 1099511628211ULL;
  return hash;
}

// A clause with its duplicate literals removed; a tautology is never watched.
int Checker::add_clause(const std::vector<int>& literals) {
  Clause clause;
  clause.pivot = literals.empty() ? 0 : literals[0];
  for (int literal : literals) {
    if (std::find(clause.literals.begin(), clause.literals.end(), literal) != clause.literals.end()) continue;
    if (std::find(clause.literals.begin(), clause.literals.end(), -literal) != clause.literals.end()) clause.tautology = true;
    clause.literals.push_back(literal);
  }
  clauses_.push_back(std::move(clause));
  return static_cast<int>(clauses_.size()) - 1;
}

// Watches the two best literals (true, then unassigned, then the latest
// false); a clause falsified returns itself as the conflict, a unit assigns.
int Checker::attach(int id) {
  Clause& clause = clauses_[id];
  clause.active = true;
  by_key_[key_of(clause.literals)].push_back(id);
  if (clause.tautology) return -1;
  std::vector<int>& literals = clause.literals;
  auto rank = [&](int literal) { return value(literal) == 1 ? 2 : value(literal) == 0 ? 1 : 0; };
  std::stable_sort(literals.begin(), literals.end(), [&](int a, int b) { return rank(a) > rank(b); });
  if (literals.empty()) return id;
  if (literals.size() >= 2) {
    watches_[code(literals[0])].push_back(id);
    watches_[code(literals[1])].push_back(id);
  }
  if (value(literals[0]) == -1) return id;
  if (value(literals[0]) == 0 && (literals.size() == 1 || value(literals[1]) == -1)) assign(literals[0], id);
  return -1;
}

void Checker::detach(int id) {
  Clause& clause = clauses_[id];
  clause.active = false;
  std::vector<int>& same = by_key_[key_of(clause.literals)];
  same.erase(std::find(same.begin(), same.end(), id));
  if (clause.tautology || clause.literals.size() < 2) return;
  for (int w = 0; w < 2; ++w) {
    std::vector<int>& list = watches_[code(clause.literals[w])];
    list.erase(std::find(list.begin(), list.end(), id));
  }
}

// Going back past a lemma shortens the trail. A clause whose false watch was
// covered by a true one that is now unassigned would hide a unit, so such
// clauses (they watch a popped literal) choose their watches again.
void Checker::pop_to(size_t size) {
  const std::vector<int> popped(trail_.begin() + size, trail_.end());
  undo_to(size);
  auto rank = [&](int literal) { return value(literal) == 1 ? 2 : value(literal) == 0 ? 1 : 0; };
  for (int literal : popped) {
    const std::vector<int> watching = watches_[code(literal)];
    for (int id : watching) {
      std::vector<int>& literals = clauses_[id].literals;
      const int other = literals[0] == literal ? literals[1] : literals[0];
      if (value(other) != -1) continue;
      for (int w = 0; w < 2; ++w) {
        std::vector<int>& list = watches_[code(literals[w])];
        list.erase(std::find(list.begin(), list.end(), id));
      }
      std::stable_sort(literals.begin(), literals.end(), [&](int a, int b) { return rank(a) > rank(b); });
      watches_[code(literals[0])].push_back(id);
      watches_[code(literals[1])].push_back(id);
    }
  }
}

// Clauses watching `false_literal`: move the watch, or propagate, or
// conflict (returned). The core pass visits core clauses only, the other
// pass the rest.
int Checker::visit(int false_literal, bool core_pass) {
  std::vector<int>& list = watches_[code(false_literal)];
  size_t keep = 0;
  int conflict = -1;
  for (size_t i = 0; i < list.size(); ++i) {
    const int id = list[i];
    Clause& clause = clauses_[id];
    if (conflict >= 0 || clause.core != core_pass) {
      list[keep++] = id;
      continue;
    }
    std::vector<int>& literals = clause.literals;
    if (literals[0] == false_literal) std::swap(literals[0], literals[1]);
    if (value(literals[0]) == 1) {
      list[keep++] = id;
      continue;
    }
    size_t other = 2;
    while (other < literals.size() && value(literals[other]) == -1) ++other;
    if (other < literals.size()) {
      std::swap(literals[1], literals[other]);
      watches_[code(literals[1])].push_back(id);
      continue;
    }
    list[keep++] = id;
    if (value(literals[0]) == -1) conflict = id;
    else assign(literals[0], id);
  }
  list.resize(keep);
  return conflict;
}

// Core first: the non-core clauses are visited only when the core ones are
// at a fixpoint, so that refutations use (and mark) core clauses.
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
  auto push_reasons = [&](const std::vector<int>& literals) {
    for (int literal : literals) {
      const int v = std::abs(literal);
      if (seen_[v] || reason_[v] < 0) continue;
      seen_[v] = 1;
      touched.push_back(v);
      stack.push_back(reason_[v]);
    }
  };
  if (clause >= 0) stack.push_back(clause);
  else push_reasons({variable});
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    clauses_[id].core = true;
    push_reasons(clauses_[id].literals);
  }
  for (int v : touched) seen_[v] = 0;
}

// Reverse unit propagation: the negation of `literals` propagates to a
// conflict. Marks what the conflict used.
bool Checker::rup(const std::vector<int>& literals) {
  const size_t saved = trail_.size();
  for (int literal : literals) {
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

// RUP, or RAT on the pivot: every resolvent with an active clause holding
// the pivot's negation is RUP.
bool Checker::check_lemma(int id) {
  const std::vector<int> lemma = clauses_[id].literals;
  if (clauses_[id].tautology || rup(lemma)) return true;
  const int pivot = clauses_[id].pivot;
  if (pivot == 0) return false;
  for (size_t other = 0; other < clauses_.size(); ++other) {
    const Clause& candidate = clauses_[other];
    if (!candidate.active || std::find(candidate.literals.begin(), candidate.literals.end(), -pivot) == candidate.literals.end())
      continue;
    std::vector<int> resolvent = lemma;
    bool tautology = false;
    for (int literal : candidate.literals) {
      if (literal == -pivot) continue;
      if (std::find(lemma.begin(), lemma.end(), -literal) != lemma.end()) tautology = true;
      resolvent.push_back(literal);
    }
    clauses_[other].core = true;
    if (!tautology && !rup(resolvent)) return false;
  }
  ++result_.rat;
  return true;
}

int Checker::find_active(const std::vector<int>& literals) {
  std::vector<int> wanted = literals;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  auto found = by_key_.find(key_of(wanted));
  if (found == by_key_.end()) return -1;
  for (int id : found->second) {
    std::vector<int> have = clauses_[id].literals;
    std::sort(have.begin(), have.end());
    if (have == wanted) return id;
  }
  return -1;
}

DratResult Checker::run(const Cnf& cnf, const std::vector<ProofStep>& proof) {
  int conflict = -1;
  for (const std::vector<int>& clause : cnf.clauses)
    if (conflict < 0) conflict = attach(add_clause(clause));
  if (conflict < 0) conflict = propagate();
  // Forward: the step of every proof line's clause, and the trail before it.
  std::vector<int> step_clause(proof.size(), -1);
  std::vector<size_t> trail_before(proof.size(), 0);
  size_t last = 0;
  for (; conflict < 0 && last < proof.size(); ++last) {
    const ProofStep& step = proof[last];
    trail_before[last] = trail_.size();
    if (!step.deletion) {
      ++result_.lemmas;
      step_clause[last] = add_clause(step.literals);
      conflict = attach(step_clause[last]);
      if (conflict < 0) conflict = propagate();
      continue;
    }
    const int id = find_active(step.literals);
    bool reason = false;
    if (id >= 0)
      for (int literal : clauses_[id].literals) reason = reason || reason_[std::abs(literal)] == id;
    if (id < 0 || reason) {
      ++result_.ignored_deletions;
      continue;
    }
    detach(id);
    step_clause[last] = id;
  }
  if (conflict < 0) {
    result_.reason = "the proof never refutes the CNF (no empty clause, no conflict by unit propagation)";
    return result_;
  }
  mark_from(conflict, 0);
  // Backward: undo each step; check each core lemma against the clauses before it.
  for (size_t i = last; i-- > 0;) {
    const int id = step_clause[i];
    if (id < 0) continue;
    if (proof[i].deletion) {
      attach(id);
      continue;
    }
    detach(id);
    if (trail_.size() > trail_before[i]) pop_to(trail_before[i]);
    if (!clauses_[id].core) continue;
    ++result_.checked;
    if (check_lemma(id)) continue;
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
