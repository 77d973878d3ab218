// Automorphisms of a placement under a device renaming (see the header).
//
// Why a backtracking and not a name rule ("f3" <-> "fr12"): names are the
// user's; the constraints are what must be kept. Blocks are matched in a
// topological order, each to a still-free block of the same kind, span,
// memory and degrees on the renamed devices, whose edges from the blocks
// already matched exist with the same delays. Every edge is checked once (at
// its head) and the map is a bijection of blocks with as many edges on both
// sides, so the edges map onto the edges. On chain-shaped placements the
// candidates collapse after the first block; the step budget bounds the rest.
#include "solver/modulo/placement_symmetry.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace tessel {
namespace {

// Safety limits, not knobs (solver/knobs/tuning.hpp): the matcher backtracks,
// exponential at worst, and is called by the encodings, which must build
// in bounded time; past the steps the placement counts as not mirrored,
// which costs only the symmetry rules (milliseconds either way).
constexpr long kStepBudget = 200000;
constexpr size_t kMostBlocks = 4096;  // the recursion is as deep as the blocks

struct Matcher {
  const Placement& placement;
  std::vector<int> order;
  std::vector<std::vector<int>> candidates;
  std::vector<std::vector<std::pair<int, Time>>> predecessors;
  std::set<std::tuple<int, int, Time>> edges;
  std::vector<int> image;
  std::vector<bool> used;
  long steps = kStepBudget;

  bool assign(size_t index) {
    if (index == order.size()) return true;
    if (--steps < 0) return false;
    const int block = order[index];
    for (int candidate : candidates[block]) {
      if (used[candidate] || !edges_kept(block, candidate)) continue;
      image[block] = candidate;
      used[candidate] = true;
      if (assign(index + 1)) return true;
      used[candidate] = false;
    }
    image[block] = -1;
    return false;
  }

  bool edges_kept(int block, int candidate) const {
    for (const auto& [from, delay] : predecessors[block])
      if (!edges.count({image[from], candidate, delay})) return false;
    return true;
  }
};

bool same_under(const std::vector<long long>& values, const std::vector<int>& device_map) {
  if (values.empty()) return true;
  for (size_t d = 0; d < device_map.size(); ++d)
    if (values[d] != values[device_map[d]]) return false;
  return true;
}

// The block permutation under `device_map`, if there is one and it is not
// the identity.
std::optional<std::vector<int>> automorphism(const Placement& placement, const std::vector<int>& device_map) {
  const size_t n = placement.blocks.size();
  Matcher matcher{placement, topological_order(placement), {}, {}, {}, std::vector<int>(n, -1),
                  std::vector<bool>(n, false)};
  std::vector<int> in_degree(n, 0), out_degree(n, 0);
  matcher.predecessors.resize(n);
  for (const Edge& edge : placement.edges) {
    ++out_degree[edge.from];
    ++in_degree[edge.to];
    matcher.predecessors[edge.to].push_back({edge.from, edge.delay});
    matcher.edges.insert({edge.from, edge.to, edge.delay});
  }
  matcher.candidates.resize(n);
  for (size_t b = 0; b < n; ++b) {
    const Block& block = placement.blocks[b];
    std::vector<int> renamed;
    for (int device : block.devices) renamed.push_back(device_map[device]);
    std::sort(renamed.begin(), renamed.end());
    for (size_t c = 0; c < n; ++c) {
      const Block& other = placement.blocks[c];
      if (other.kind == block.kind && other.span == block.span && other.memory == block.memory &&
          other.devices == renamed && in_degree[c] == in_degree[b] && out_degree[c] == out_degree[b])
        matcher.candidates[b].push_back(static_cast<int>(c));
    }
    if (matcher.candidates[b].empty()) return std::nullopt;
  }
  if (!matcher.assign(0)) return std::nullopt;
  for (size_t b = 0; b < n; ++b)
    if (matcher.image[b] != static_cast<int>(b)) return matcher.image;
  return std::nullopt;
}

// The first copy of a window placement (blocks 0 .. n-1 and their edges).
Placement first_copy(const Placement& window, int copies) {
  Placement copy = window;
  const size_t n = window.blocks.size() / std::max(1, copies);
  copy.blocks.resize(n);
  copy.edges.clear();
  for (const Edge& edge : window.edges)
    if (edge.from < static_cast<int>(n) && edge.to < static_cast<int>(n)) copy.edges.push_back(edge);
  return copy;
}

}  // namespace

std::vector<std::vector<int>> mirror_automorphisms(const Placement& placement,
                                                   const std::vector<long long>& memory_limit) {
  std::vector<std::vector<int>> found;
  const int d = placement.ndevs;
  if (d < 2 || placement.blocks.empty() || placement.blocks.size() > kMostBlocks) return found;
  std::vector<std::vector<int>> device_maps(1, std::vector<int>(d));
  for (int i = 0; i < d; ++i) device_maps[0][i] = d - 1 - i;
  if (d % 2 == 0 && d > 2) {
    device_maps.emplace_back(d);
    for (int i = 0; i < d; ++i) device_maps[1][i] = (i + d / 2) % d;
  }
  for (const std::vector<int>& device_map : device_maps) {
    if (!same_under(memory_limit, device_map) || !same_under(placement.static_memory, device_map)) continue;
    if (auto image = automorphism(placement, device_map)) found.push_back(*image);
  }
  return found;
}

std::optional<int> first_source_fixed(const Placement& window, const std::vector<long long>& memory_limit,
                                      int copies) {
  const Placement copy = first_copy(window, copies);
  std::vector<bool> source(copy.blocks.size(), true);
  for (const Edge& edge : copy.edges) source[edge.to] = false;
  if (copy.blocks.empty() || !source[0]) return std::nullopt;
  // The orbit of block 0 under the automorphisms (a closure: they generate
  // a group, and the argument in modulo_encoding.cpp holds for all of it).
  const std::vector<std::vector<int>> maps = mirror_automorphisms(copy, memory_limit);
  std::vector<bool> in_orbit(copy.blocks.size(), false);
  std::vector<int> frontier{0};
  in_orbit[0] = true;
  while (!frontier.empty()) {
    const int block = frontier.back();
    frontier.pop_back();
    for (const std::vector<int>& map : maps)
      if (!in_orbit[map[block]]) {
        in_orbit[map[block]] = true;
        frontier.push_back(map[block]);
      }
  }
  for (size_t b = 0; b < copy.blocks.size(); ++b)
    if (source[b] && !in_orbit[b]) return std::nullopt;
  return 0;
}

}  // namespace tessel
