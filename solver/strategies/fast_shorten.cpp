// The improvement step of strategy `fast` (see the header).
#include "solver/strategies/fast_shorten.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "sat/backend.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"

namespace tessel {

ShortenedWindow shorten_window(const Placement& placement, const std::vector<long long>& memory_limit,
                               const ModuloSolution& constructed, const std::string& backend_name,
                               int max_in_flight, const Deadline& deadline, const ProgressSink& progress) {
  ShortenedWindow outcome{constructed, false, {}};
  for (int period = constructed.period - 1; period >= period_lower_bound(placement); --period) {
    if (deadline.expired()) break;
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Backend> backend = make_backend(backend_name);
    ModuloEncoding encoding =
        encode_modulo(*backend, placement, memory_limit, {period, period}, max_in_flight, {}, deadline);
    if (!encoding.complete) break;
    Answer answer = backend->solve({period_assumption(encoding, period)}, deadline);
    const double seconds = seconds_since(start);
    outcome.calls.push_back({"fast: period " + std::to_string(period), answer, seconds});
    if (progress) {
      std::ostringstream line;
      line << "fast: shorten to period " << period << ": " << answer_name(answer) << " (" << seconds << " s)";
      progress(line.str());
    }
    if (answer != Answer::Sat) break;
    const ModuloSolution solution = modulo_solution(placement, period, decode_starts(*backend, encoding, period));
    // The encoding's answer must pass the direct check; if not, keep what was valid.
    if (modulo_violation(placement, memory_limit, solution, max_in_flight)) break;
    outcome.solution = solution;
    outcome.improved = true;
  }
  return outcome;
}

}  // namespace tessel
