// The backward DRAT checker (see the header for the method).
//
// State: every clause in one array, a header (number, size, flags) before
// its literals, the two watched literals first (the first is the one a unit
// propagates, so "is this clause a reason" is one look-up); two watch lists
// per literal, one for core clauses and one for the rest, side by side, each
// entry with the clause's place in the array (so a visit reads one place)
// and a blocker literal (when it is true the clause is satisfied and need
// not be read); the top-level trail with each variable's reason; and for
// each proof step the trail length before it.
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
#include <stdexcept>
#include <unordered_map>

namespace tessel::certify {
namespace {

// A clause in the array: [number, size, flags, literal...]; it is named by
// its number (reasons, proof steps) or by where its literals start (watches).
constexpr int kHeader = 3;
enum Flag : int { kActive = 1, kCore = 2, kTautology = 4, kUnwatched0 = 8, kUnwatched1 = 16 };

struct Clause {
  uint32_t start = 0;   // where its literals start in the array
  int pivot = 0;        // first literal as written (RAT)
};

struct Watch {
  uint32_t start;  // the clause's literals
  int blocker;     // another literal of the clause; true means satisfied
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
        seen_(variables + 1, 0), watches_(4 * (variables + 1)) {}

  DratResult run(const Cnf& cnf, const std::vector<ProofStep>& proof);

 private:
  static size_t code(int literal) { return 2 * static_cast<size_t>(std::abs(literal)) + (literal < 0); }
  int value(int literal) const { return value_[code(literal)]; }
  int* literals(int id) { return arena_.data() + clauses_[id].start; }
  uint32_t size(int id) const { return static_cast<uint32_t>(arena_[clauses_[id].start - 2]); }
  int& flags(int id) { return arena_[clauses_[id].start - 1]; }
  bool has(int id, Flag flag) { return flags(id) & flag; }
  std::vector<Watch>& list(int literal, bool core) { return watches_[2 * code(literal) + core]; }
  void assign(int literal, int reason) {
    value_[code(literal)] = 1;
    value_[code(-literal)] = -1;
    reason_[std::abs(literal)] = reason;
    trail_.push_back(literal);
  }
  void undo_to(size_t size);
  int add_clause(const std::vector<int>& written);
  void watch(int id, int w) {
    list(literals(id)[w], has(id, kCore)).push_back({clauses_[id].start, literals(id)[1 - w]});
  }
  int attach(int id);
  void reactivate(int id);
  int propagate();
  int visit(int false_literal, bool core_pass);
  void mark_from(int clause, int variable);
  bool rup(const std::vector<int>& clause);
  bool rat(int id);
  bool is_reason(int id) { return size(id) > 0 && reason_[std::abs(literals(id)[0])] == id; }
  int match_deletion(const std::vector<int>& written);
  int forward(const std::vector<ProofStep>& proof, std::vector<int>& step_clause, std::vector<size_t>& trail_before,
              size_t& last);

  std::vector<int> arena_;
  std::vector<Clause> clauses_;
  std::vector<signed char> value_;  // by literal code: 1 true, -1 false, 0 unassigned
  std::vector<char> marked_;        // by literal code: scratch for deduplicating and comparing clauses
  std::vector<int> reason_;         // by variable: the clause that propagated it, -1 for none
  std::vector<char> seen_;          // by variable: scratch for mark_from
  std::vector<std::vector<Watch>> watches_;  // [2 * literal code + core]: clauses watching that literal
  std::vector<int> trail_;
  size_t core_head_ = 0, all_head_ = 0;
  std::unordered_multimap<uint64_t, int> by_hash_;  // forward pass only: active clauses by their literal set
  DratResult result_;
};

void Checker::undo_to(size_t length) {
  while (trail_.size() > length) {
    const int literal = trail_.back();
    value_[code(literal)] = value_[code(-literal)] = 0;
    reason_[std::abs(literal)] = -1;
    trail_.pop_back();
  }
  core_head_ = std::min(core_head_, length);
  all_head_ = std::min(all_head_, length);
}

// Stores a clause without duplicate literals, hashed for deletions to find.
int Checker::add_clause(const std::vector<int>& written) {
  const int id = static_cast<int>(clauses_.size());
  if (arena_.size() + kHeader + written.size() > UINT32_MAX) throw std::length_error("DRAT check: formula too large");
  arena_.insert(arena_.end(), {id, 0, 0});
  Clause clause;
  clause.start = static_cast<uint32_t>(arena_.size());
  clause.pivot = written.empty() ? 0 : written[0];
  uint64_t hash = 0;
  bool tautology = false;
  for (int literal : written) {
    if (marked_[code(literal)]) continue;
    marked_[code(literal)] = 1;
    tautology = tautology || marked_[code(-literal)];
    arena_.push_back(literal);
    hash += mix(literal);
  }
  arena_[clause.start - 2] = static_cast<int>(arena_.size() - clause.start);
  arena_[clause.start - 1] = tautology ? kTautology : 0;
  for (size_t i = clause.start; i < arena_.size(); ++i) marked_[code(arena_[i])] = 0;
  clauses_.push_back(clause);
  by_hash_.emplace(hash, id);
  return id;
}

// Forward pass only: watches the two best literals (true, then unassigned,
// then false); a clause all false returns itself as the conflict, a unit
// assigns. Everything assigned now stays while the clause is active.
int Checker::attach(int id) {
  flags(id) |= kActive;
  if (has(id, kTautology)) return -1;
  const uint32_t n = size(id);
  if (n == 0) return id;
  int* lits = literals(id);
  auto rank = [&](int literal) { return value(literal) + 1; };
  for (uint32_t w = 0; w < std::min<uint32_t>(2, n); ++w)
    for (uint32_t j = w + 1; j < n; ++j)
      if (rank(lits[j]) > rank(lits[w])) std::swap(lits[j], lits[w]);
  if (n >= 2) {
    watch(id, 0);
    watch(id, 1);
  }
  if (value(lits[0]) == -1) return id;
  if (value(lits[0]) == 0 && (n == 1 || value(lits[1]) == -1)) assign(lits[0], id);
  return -1;
}

// Backward pass: a deleted clause comes back with the watches it had.
void Checker::reactivate(int id) {
  const int was = flags(id);
  flags(id) = (was | kActive) & ~(kUnwatched0 | kUnwatched1);
  if (was & kUnwatched0) watch(id, 0);
  if (was & kUnwatched1) watch(id, 1);
}

// The clauses of one kind (core or not) watching `false_literal`: satisfied
// (kept), or the watch moves to a literal not false, or the clause
// propagates or conflicts (returned). A core clause found in the other list
// moves to the core list; an inactive one leaves.
int Checker::visit(int false_literal, bool core_pass) {
  std::vector<Watch>& entries = list(false_literal, core_pass);
  size_t keep = 0, i = 0;
  int conflict = -1;
  for (; i < entries.size() && conflict < 0; ++i) {
    const Watch entry = entries[i];
    if (value(entry.blocker) == 1) {
      entries[keep++] = entry;
      continue;
    }
    int* lits = arena_.data() + entry.start;
    int& flag = lits[-1];
    if (!(flag & kActive)) {
      flag |= lits[0] == false_literal ? kUnwatched0 : kUnwatched1;
      continue;
    }
    if (lits[0] == false_literal) std::swap(lits[0], lits[1]);
    const Watch kept{entry.start, lits[0]};
    const bool core = flag & kCore;
    if (value(lits[0]) != 1) {
      const uint32_t n = static_cast<uint32_t>(lits[-2]);
      uint32_t other = 2;
      while (other < n && value(lits[other]) == -1) ++other;
      if (other < n) {
        std::swap(lits[1], lits[other]);
        list(lits[1], core).push_back(kept);
        continue;
      }
      if (value(lits[0]) == -1) conflict = lits[-3];
      else assign(lits[0], lits[-3]);
    }
    if (core && !core_pass) list(false_literal, true).push_back(kept);
    else entries[keep++] = kept;
  }
  for (; i < entries.size(); ++i) entries[keep++] = entries[i];
  entries.resize(keep);
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
    flags(id) |= kCore;
    const int* lits = literals(id);
    for (uint32_t i = 0, n = size(id); i < n; ++i) push_reason(lits[i]);
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
  const std::vector<int> lemma(literals(id), literals(id) + size(id));
  for (int other = 0; other < static_cast<int>(clauses_.size()); ++other) {
    const int* lits = literals(other);
    const uint32_t n = size(other);
    if (!has(other, kActive) || std::find(lits, lits + n, -pivot) == lits + n) continue;
    std::vector<int> resolvent = lemma;
    bool tautology = false;
    for (uint32_t i = 0; i < n; ++i) {
      if (lits[i] == -pivot) continue;
      if (std::find(lemma.begin(), lemma.end(), -lits[i]) != lemma.end()) tautology = true;
      resolvent.push_back(lits[i]);
    }
    flags(other) |= kCore;
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
    const int* lits = literals(it->second);
    const uint32_t n = size(it->second);
    if (n != wanted.size() || !std::all_of(lits, lits + n, [&](int l) { return marked_[code(l)]; })) continue;
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
    flags(id) &= ~kActive;
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
    flags(id) &= ~kActive;
    undo_to(trail_before[i]);
    if (!has(id, kCore)) continue;
    ++result_.checked;
    if (has(id, kTautology) || rup(std::vector<int>(literals(id), literals(id) + size(id))) || rat(id)) continue;
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
