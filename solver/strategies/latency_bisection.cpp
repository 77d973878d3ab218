// The latency bisection and its second solver (see the header). One mutex
// guards what the two threads share: the bisection's best latency, whether
// the second solver settled it, and the list of calls. Neither solver is
// shared; each thread stops the other's question when an answer makes it
// moot (a flag per question, as in the period race).
#include "solver/strategies/latency_bisection.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "model/placement.hpp"
#include "solver/modulo/modulo_check.hpp"

namespace tessel {
namespace {

// What the bisection and the second solver share.
struct Shared {
  std::mutex mutex;
  std::condition_variable changed;
  int best = 0;              // the bisection's window's latency
  std::atomic<bool> settled{false};  // "latency <= best - 1" refuted: best is least
  StopFlag finished{false};  // the bisection ended: the second solver stops
  StopFlag bisection_stop{false};                         // raised when settled
  std::unique_ptr<StopFlag> probe_stop = std::make_unique<StopFlag>(false);  // the second solver's question
  std::exception_ptr failure;
  std::vector<SolverCall>* calls = nullptr;
};

void report_call(Shared& shared, const SearchOptions& options, const std::string& what, Answer answer,
                 double seconds) {
  {
    std::lock_guard<std::mutex> lock(shared.mutex);
    shared.calls->push_back({what, answer, seconds});
  }
  std::ostringstream line;
  line << "repetend: " << what << ": " << answer_name(answer) << " (" << seconds << " s)";
  if (options.progress) options.progress(line.str());
}

// The second solver: "latency <= best - 1?" at the bisection's best, asked
// again whenever the bisection lowers it, until refuted or moot.
class TopProbe {
 public:
  TopProbe(const LatencyQuestion& question, const SearchOptions& options, const Deadline& budget, Shared& shared)
      : question_(question), options_(options), budget_(budget), shared_(shared) {
    worker_ = std::thread([this] {
      try {
        run();
      } catch (...) {
        std::lock_guard<std::mutex> lock(shared_.mutex);
        shared_.failure = std::current_exception();
      }
    });
  }
  ~TopProbe() { join(); }

  void join() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(shared_.mutex);
      shared_.finished = true;
      *shared_.probe_stop = true;
      shared_.changed.notify_all();
    }
    worker_.join();
    if (budget_.expired()) release_in_background(std::move(backend_));
  }

 private:
  void run() {
    const int period = question_.found.period;
    // CaDiCaL's "sat" configuration, though the question is there to be
    // refuted: it refuted mllm 64/16's last latency question fresh in
    // 2.5-3.0 s, the default in 3.1 s (and lost to the bisection once),
    // "unsat" lost to the bisection both times (over 3.9 s).
    BackendSettings settings = options_.backend_settings;
    if (options_.backend == "cadical") settings.configuration = 1;
    backend_ = make_backend(options_.backend, settings);
    const ModuloEncoding encoding =
        encode_modulo(*backend_, *question_.window, options_.memory_limit, {period, period}, question_.max_in_flight,
                      question_.rules, budget_.with_sibling_stop(&shared_.finished));
    if (!encoding.complete) return;
    int asked_sat = -1;  // a target found satisfiable: wait for the bisection to go below it
    for (;;) {
      const StopFlag* stop = nullptr;
      std::optional<int> target = next_target(asked_sat, stop);
      if (!target) return;
      const auto begin = std::chrono::steady_clock::now();
      const Lit bounded = latency_literal(*backend_, encoding, *question_.window, period, *target);
      const Answer answer =
          backend_->solve({period_assumption(encoding, period), bounded}, budget_.with_sibling_stop(stop));
      const std::string what =
          question_.label + "latency <= " + std::to_string(*target) + " (second solver, one below the best)";
      if (answer == Answer::Unknown && !budget_.expired()) {
        const bool ended = shared_.finished;
        report_call(shared_, options_, what + (ended ? " (stopped: the bisection ended)" : " (stopped: moot)"), answer,
                    seconds_since(begin));
        if (ended) return;
        continue;  // moot: the bisection went below it
      }
      report_call(shared_, options_, what, answer, seconds_since(begin));
      if (answer == Answer::Unknown) return;
      if (answer == Answer::Sat) {
        asked_sat = *target;
        continue;
      }
      std::lock_guard<std::mutex> lock(shared_.mutex);
      if (*target >= shared_.best)
        throw std::logic_error("latency bisection: latency " + std::to_string(*target) +
                               " refuted by the second solver, yet the bisection holds a window of latency " +
                               std::to_string(shared_.best));
      if (*target == shared_.best - 1) {
        shared_.settled = true;
        shared_.bisection_stop = true;
      }
      return;
    }
  }

  // best - 1, once it differs from a target found satisfiable, with a
  // fresh flag for its question (raised when the bisection lowers the best);
  // none when the bisection ended.
  std::optional<int> next_target(int asked_sat, const StopFlag*& stop) {
    std::unique_lock<std::mutex> lock(shared_.mutex);
    for (;;) {
      if (shared_.finished || budget_.expired()) return std::nullopt;
      if (shared_.best - 1 != asked_sat) {
        shared_.probe_stop = std::make_unique<StopFlag>(false);
        stop = shared_.probe_stop.get();
        return shared_.best - 1;
      }
      shared_.changed.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  const LatencyQuestion& question_;
  const SearchOptions& options_;
  const Deadline budget_;
  Shared& shared_;
  std::unique_ptr<Backend> backend_;
  std::thread worker_;
};

}  // namespace

LatencyOutcome bisect_latency(const LatencyQuestion& question, const SearchOptions& options, const Deadline& deadline,
                              const Deadline& budget, Backend& backend, const ModuloEncoding& encoding,
                              std::vector<SolverCall>& calls) {
  LatencyOutcome outcome{question.found};
  const Placement& window = *question.window;
  const int period = question.found.period;
  int low = critical_path(window);
  if (low >= outcome.solution.latency) return outcome;
  Shared shared;
  shared.best = outcome.solution.latency;
  shared.calls = &calls;
  // One sibling flag per deadline: a bisection that already has one (it
  // runs beside something else) runs alone; so does one with a single
  // question left, the one the second solver would ask.
  const bool probing = options.threads >= 2 && !budget.sibling_stop && outcome.solution.latency - low >= 2;
  const Deadline own = probing ? budget.with_sibling_stop(&shared.bisection_stop) : budget;
  std::optional<TopProbe> probe;
  if (probing) probe.emplace(question, options, budget, shared);
  while (low < outcome.solution.latency) {
    const int mid = low + (outcome.solution.latency - low) / 2;
    const auto begin = std::chrono::steady_clock::now();
    const Lit bounded = latency_literal(backend, encoding, window, period, mid);
    const Answer answer = backend.solve({period_assumption(encoding, period), bounded}, own);
    if (answer == Answer::Unknown && shared.settled) break;  // the second solver proved the best least
    report_call(shared, options, question.label + "latency <= " + std::to_string(mid), answer, seconds_since(begin));
    if (answer == Answer::Sat) {
      outcome.solution = checked_solution(window, options.memory_limit, period, decode_starts(backend, encoding, period),
                                          question.max_in_flight);
      std::lock_guard<std::mutex> lock(shared.mutex);
      shared.best = outcome.solution.latency;
      *shared.probe_stop = true;  // its question lies at or above the new best: moot
      shared.changed.notify_all();
    } else if (answer == Answer::Unsat) {
      low = mid + 1;
    } else {
      if (deadline.expired()) outcome.gave_up = true;
      else outcome.unfinished = true;
      break;
    }
  }
  if (probe) probe->join();
  if (shared.failure) std::rethrow_exception(shared.failure);
  return outcome;
}

}  // namespace tessel
