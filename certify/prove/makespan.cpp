// Certifying a makespan claim by a relaxation (see the header).
#include "certify/prove/makespan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include "certify/encoder.hpp"
#include "certify/prove/refute.hpp"
#include "certify/sha256.hpp"

namespace tessel::certify {
namespace {

using Clock = std::chrono::steady_clock;

struct Budget {
  Clock::time_point end;
  bool limited = false;
  // One question's share: what is left, at most a minute, so that one hard
  // question does not take the time of the easier ones after it.
  double left() const {
    if (!limited) return 60;
    return std::min(60.0, std::max(1e-3, std::chrono::duration<double>(end - Clock::now()).count()));
  }
  bool over() const { return limited && Clock::now() >= end; }
};

struct Search {
  const std::string& directory;
  const Placement& placement;
  const std::vector<long long>& memory_limit;
  Budget budget;
  double solve_seconds = 0;
};

// Refutes "idle <= question.idle - 1"; on success the CNF and proof are
// kept as stem.cnf / stem.drat. 20, 10 or 0 as refute.
int ask(Search& search, const EndQuestion& question, const std::string& stem, EndProof& kept) {
  const Cnf cnf = encode_end(search.placement, search.memory_limit, question);
  const std::string trial = search.directory + "/" + stem + ".trial.drat";
  const auto begin = Clock::now();
  const int answer = refute(cnf, trial, search.budget.left());
  const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  search.solve_seconds += seconds;
  if (answer != 20) {
    std::remove(trial.c_str());
    return answer;
  }
  const std::string text = dimacs_text(cnf);
  kept.question = question, kept.cnf = stem + ".cnf", kept.proof = stem + ".drat";
  kept.cnf_sha256 = sha256_hex(text), kept.solve_seconds = seconds;
  write_text(search.directory + "/" + kept.cnf, text);
  std::rename(trial.c_str(), (search.directory + "/" + kept.proof).c_str());
  return answer;
}

// The most idle one end of `device` is proven to have, from `first` up to
// `wanted`: windows from half the critical path up to `longest`, growing by
// half, and in each window the idle raised one step at a time until
// satisfiable (or undecided).
std::optional<EndProof> best_end(Search& search, EndQuestion question, long long first, long long wanted,
                                 long long longest, const std::string& stem) {
  std::optional<EndProof> best;
  const long long path = critical_path(search.placement);
  for (long long window = std::max(1LL, path / 2); window <= longest && !search.budget.over();
       window = std::max(window + 1, window * 3 / 2)) {
    question.window = window;
    for (question.idle = best ? best->question.idle + 1 : first; question.idle <= window; ++question.idle) {
      EndProof proof;
      const int answer = ask(search, question, stem, proof);
      if (answer != 20) break;
      best = proof;
      if (best->question.idle >= wanted) return best;
    }
  }
  return best;
}

// The devices, the hint's first, then the most loaded: the likeliest to reach B.
std::vector<int> devices_by_load(const Placement& placement, int first) {
  std::vector<int> order(placement.ndevs);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if ((a == first) != (b == first)) return a == first;
    return device_load(placement, a) > device_load(placement, b);
  });
  return order;
}

// Both ends of `device`: true when they reach `need` steps of idle. With a
// hint (the search's own split of the idle) each end is asked its share
// first; else the head is asked as much as it gives and the tail the rest.
bool prove_ends(Search& search, int device, long long need, long long work, const MakespanHint& hint,
                const std::string& stem, ManifestClaim& claim) {
  EndQuestion question;
  question.device = device, question.micros = claim.claim.k;
  const bool split = hint.device == device && hint.head + hint.tail >= need;
  std::optional<EndProof> head;
  if (!split || hint.head > 0)
    head = best_end(search, question, split ? hint.head : 1, split ? hint.head : need, work / 2, stem + "-head");
  const long long from_head = head ? head->question.idle : 0;
  std::optional<EndProof> tail;
  if (from_head < need) {
    question.tail = true;
    tail = best_end(search, question, need - from_head, need - from_head,
                    work - (head ? head->question.window : 0), stem + "-tail");
  }
  if (from_head + (tail ? tail->question.idle : 0) < need) return false;
  claim.relaxation = Relaxation::Ends, claim.device = device;
  if (head) claim.ends.push_back(*head);
  if (tail) claim.ends.push_back(*tail);
  return true;
}

}  // namespace

void prove_makespan(const std::string& directory, const std::string& stem, const Placement& placement,
                    const std::vector<long long>& memory_limit, const MakespanHint& hint, double seconds,
                    ManifestClaim& claim) {
  const long long micros = claim.claim.k, below = claim.below;
  claim.solver = solver_name();
  claim.certified = true;
  if (critical_path(placement) >= below) return void(claim.relaxation = Relaxation::CriticalPath);
  Search search{directory, placement, memory_limit, {}, 0};
  search.budget.limited = seconds > 0;
  search.budget.end = Clock::now() + std::chrono::microseconds(static_cast<long long>(seconds * 1e6));
  for (int device : devices_by_load(placement, hint.device)) {
    const long long work = micros * device_load(placement, device);
    if (work >= below) {
      claim.relaxation = Relaxation::Load, claim.device = device;
      return;
    }
    if (prove_ends(search, device, below - work, work, hint, stem + "-d" + std::to_string(device), claim)) {
      claim.solve_seconds = search.solve_seconds;
      return;
    }
    if (search.budget.over()) break;
  }
  claim.certified = false;
  claim.solve_seconds = search.solve_seconds;
  claim.reason = "no relaxation of the verifier's (the critical path, a device's load, a device's idle at its "
                 "ends) reached " + std::to_string(below) + (search.budget.over() ? " within the time given" : "");
}

}  // namespace tessel::certify
