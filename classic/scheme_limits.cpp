// The size limits of generate, shared by the command line and Python (see
// the header).
#include "classic/scheme_limits.hpp"

#include "model/input_error.hpp"

namespace tessel::classic {

void check_scheme_sizes(const SchemeRequest& request, const GivenSizes& given, const std::string& prefix) {
  auto outside = [&](const std::string& name, long long value, long long high) {
    if (value < 1 || value > high)
      throw InputError("", prefix + name, "must be in [1, " + std::to_string(high) + "], got " + std::to_string(value));
  };
  outside("stages", request.ranks, kMaxRanks);
  outside("nmicros", request.nmicros, kMaxMicros);
  if (given.chunks) outside("chunks", request.chunks, kMaxChunks);
  if (given.group) outside("group", request.group, kMaxGroup);
  if (given.max_pending) outside(prefix.empty() ? "max_pending" : "max-pending", request.max_pending, kMaxPending);
  const int chunks = request.chunks > 0 ? request.chunks : default_chunks(request.scheme);
  const long long runs = static_cast<long long>(request.ranks) * chunks * request.nmicros;
  if (runs > kMaxStageRuns)
    throw InputError("", prefix + "nmicros", "stages x micro-batches is too large (" + std::to_string(runs) +
                                                 " stage runs, at most " + std::to_string(kMaxStageRuns) + ")");
}

}  // namespace tessel::classic
