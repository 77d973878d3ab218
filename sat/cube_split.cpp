// The cube queue of one period (see the header): handed out in order, the
// period refuted only once every cube is resolved (refuted, or split into cubes that follow).
#include "sat/cube_split.hpp"

namespace tessel {

std::optional<size_t> take_cube(CubeJob& job) {
  if (!cubes_left(job)) return std::nullopt;
  return job.next++;
}

bool cubes_left(const CubeJob& job) { return job.ready && job.next < job.cubes.size(); }

bool all_refuted(const CubeJob& job) { return job.ready && job.resolved == job.cubes.size(); }

}  // namespace tessel
