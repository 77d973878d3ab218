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
  const std::atomic<bool>* stop = nullptr;  // the command's interrupt
  // One question's share: what is left, at most a minute, so that one hard
  // question does not take the time of the easier ones after it.
  double left() const {
    if (!limited) return 60;
    return std::min(60.0, std::max(1e-3, std::chrono::duration<double>(end - Clock::now()).count()));
  }
  bool over() const { return (stop != nullptr && stop->load()) || (limited && Clock::now() >= end); }
};

struct Search {
  const std::string& directory;
  const Placement& placement;
  const std::vector<long long>& memory_limit;
  Budget budget;
  double solve_seconds = 0;
  std::string tried;  // what each device's ends reached, for the reason
};

// Refutes "idle <= question.idle - 1"; on success the CNF and proof are
// kept as stem.cnf / stem.drat. 20, 10 or 0 as refute.
int ask(Search& search, const EndQuestion& question, const std::string& stem, EndProof& kept) {
  const Cnf cnf = encode_end(search.placement, search.memory_limit, question);
  const std::string trial = search.directory + "/" + stem + ".trial.drat";
  const auto begin = Clock::now();
  const int answer = refute(cnf, trial, SolveLimit(search.budget.left(), search.budget.stop));
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

// Why an end of `device` may show no idle at all: memory-free blocks on
// every device with no predecessor (successor) can run back to back first
// (last), N copies each, so a window no longer than that proves nothing
// (mshape: fs and bs, 128 steps each at N = 128). The search's bound counts
// the idle before the first block such fillers cannot stand in for,
// wherever it falls; the ends need a window past all the fillers.
std::string fillers_note(const Placement& placement, long long micros) {
  std::string names;
  long long head = 0, tail = 0;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.memory != 0 || static_cast<int>(block.devices.size()) != placement.ndevs) continue;
    bool source = true, sink = true;
    for (const Edge& edge : placement.edges) {
      if (edge.to == static_cast<int>(b)) source = false;
      if (edge.from == static_cast<int>(b)) sink = false;
    }
    if (!source && !sink) continue;
    names += (names.empty() ? "" : ", ") + block.id;
    if (source) head += micros * block.span;
    if (sink) tail += micros * block.span;
  }
  if (names.empty()) return "";
  return " (its memory-free all-device blocks " + names + " can fill its first " + std::to_string(head) +
         " and last " + std::to_string(tail) + " steps, so an end shows idle only in a window longer than that, "
         "whose CNF holds every copy that may start inside it)";
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
  if (from_head + (tail ? tail->question.idle : 0) < need) {
    search.tried += "; device " + std::to_string(device) + " needs " + std::to_string(need) + " idle steps, its ends " +
                    "proved " + std::to_string(from_head) + " at the head and " +
                    std::to_string(tail ? tail->question.idle : 0) + " at the tail" +
                    fillers_note(search.placement, claim.claim.k);
    return false;
  }
  claim.relaxation = Relaxation::Ends, claim.device = device;
  if (head) claim.ends.push_back(*head);
  if (tail) claim.ends.push_back(*tail);
  return true;
}

}  // namespace

void prove_makespan(const std::string& directory, const std::string& stem, const Placement& placement,
                    const std::vector<long long>& memory_limit, const MakespanHint& hint, const SolveLimit& limit,
                    ManifestClaim& claim) {
  const long long micros = claim.claim.k, below = claim.below;
  claim.solver = solver_name();
  claim.certified = true;
  if (critical_path(placement) >= below) return void(claim.relaxation = Relaxation::CriticalPath);
  // With fillers (memory-free all-device blocks) the ends are asked of the
  // placement without them (certify/ends.hpp): the fillers no longer stand
  // in for the idle at the ends, and the CNFs hold fewer copies.
  const std::optional<Placement> rest = without_fillers(placement);
  const Placement& asked = rest ? *rest : placement;
  Search search{directory, asked, memory_limit, {}, 0};
  search.budget.limited = limit.seconds > 0;
  search.budget.end = Clock::now() + std::chrono::microseconds(static_cast<long long>(limit.seconds * 1e6));
  search.budget.stop = limit.stop;
  for (int device : devices_by_load(placement, hint.device)) {
    const long long work = micros * device_load(placement, device);
    if (work >= below) {
      claim.relaxation = Relaxation::Load, claim.device = device, claim.solve_seconds = search.solve_seconds;
      return;
    }
    const long long asked_work = micros * device_load(asked, device);
    if (prove_ends(search, device, below - work, asked_work, hint, stem + "-d" + std::to_string(device), claim)) {
      if (rest) claim.relaxation = Relaxation::EndsWithoutFillers;
      claim.solve_seconds = search.solve_seconds;
      return;
    }
    if (search.budget.over()) break;
  }
  claim.certified = false;
  claim.solve_seconds = search.solve_seconds;
  claim.reason = "no relaxation of the verifier's (the critical path, a device's load, a device's idle at its "
                 "ends) reached " + std::to_string(below) + (search.budget.over() ? " within the time given" : "") +
                 search.tried;
}

}  // namespace tessel::certify
