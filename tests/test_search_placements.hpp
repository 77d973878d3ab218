// The paper's placements (SPEC section 4) built by hand in the tests, so that
// the search can be tested on its own, independent of cases/ (which has its
// own tests); each mirrors the table of SPEC section 4.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel::testing {

struct PlacementBuilder {
  Placement placement;
  bool infer = false;

  // Adds a block and returns its index; in inference only forwards exist.
  int add(const std::string& id, const std::string& kind, int span, long long memory, std::vector<int> devices) {
    placement.blocks.push_back({id, kind, span, infer ? 0 : memory, std::move(devices)});
    return static_cast<int>(placement.blocks.size()) - 1;
  }
  std::vector<int> all() const {
    std::vector<int> devices;
    for (int d = 0; d < placement.ndevs; ++d) devices.push_back(d);
    return devices;
  }
  // Chain of blocks, -1 entries (dropped in inference) skipped.
  void chain(const std::vector<int>& blocks) {
    int previous = -1;
    for (int block : blocks) {
      if (block < 0) continue;
      if (previous >= 0) placement.edges.push_back({previous, block});
      previous = block;
    }
  }
  int forward(const std::string& id, int device) { return add(id, "forward", 1, 1, {device}); }
  int backward(const std::string& id, int device, int span = 3) {
    return infer ? -1 : add(id, "backward", span, -1, {device});
  }
  int everywhere(const std::string& id, const std::string& kind, long long memory) {
    if (infer && kind != "forward") return -1;
    return add(id, kind, 1, memory, all());
  }
};

inline PlacementBuilder builder(const std::string& name, int ndevs, bool infer) {
  PlacementBuilder b;
  b.placement.name = name;
  b.placement.ndevs = ndevs;
  b.infer = infer;
  return b;
}

inline Placement vshape(int ndevs, bool infer = false) {
  PlacementBuilder b = builder("vshape", ndevs, infer);
  std::vector<int> chain;
  for (int d = 0; d < ndevs; ++d) chain.push_back(b.forward("f" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= 0; --d) chain.push_back(b.backward("b" + std::to_string(d), d));
  b.chain(chain);
  return b.placement;
}

inline Placement xshape(int ndevs, bool infer = false) {
  PlacementBuilder b = builder("xshape", ndevs, infer);
  std::vector<int> down, up;
  for (int d = 0; d < ndevs; ++d) down.push_back(b.forward("f" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= 0; --d) down.push_back(b.backward("b" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= 0; --d) up.push_back(b.forward("g" + std::to_string(d), d));
  for (int d = 0; d < ndevs; ++d) up.push_back(b.backward("c" + std::to_string(d), d));
  b.chain(down);
  b.chain(up);
  return b.placement;
}

inline Placement mshape(int ndevs, bool infer = false) {
  PlacementBuilder b = builder("mshape", ndevs, infer);
  std::vector<int> chain{b.everywhere("fs", "forward", 0)};
  for (int d = 0; d < ndevs; ++d) chain.push_back(b.forward("f" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= 0; --d) chain.push_back(b.backward("b" + std::to_string(d), d));
  chain.push_back(b.everywhere("bs", "backward", 0));
  b.chain(chain);
  return b.placement;
}

inline Placement nnshape(int ndevs, bool infer = false) {
  PlacementBuilder b = builder("nnshape", ndevs, infer);
  const int half = ndevs / 2;
  std::vector<int> chain{b.everywhere("fs1", "forward", 0)};
  for (int d = 0; d < half; ++d) chain.push_back(b.forward("f" + std::to_string(d), d));
  chain.push_back(b.everywhere("fs2", "forward", 0));
  for (int d = half; d < ndevs; ++d) chain.push_back(b.forward("f" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= half; --d) chain.push_back(b.backward("b" + std::to_string(d), d));
  chain.push_back(b.everywhere("bs2", "backward", 0));
  for (int d = half - 1; d >= 0; --d) chain.push_back(b.backward("b" + std::to_string(d), d));
  chain.push_back(b.everywhere("bs1", "backward", 0));
  b.chain(chain);
  return b.placement;
}

inline Placement kshape(int ndevs, bool infer = false) {
  PlacementBuilder b = builder("kshape", ndevs, infer);
  const int half = ndevs / 2;
  std::vector<int> left, right;
  for (int d = 0; d < half; ++d) left.push_back(b.forward("f" + std::to_string(d), d));
  for (int d = half; d < ndevs; ++d) right.push_back(b.forward("f" + std::to_string(d), d));
  int join = b.everywhere("fs", "forward", 1);
  int join_back = b.everywhere("bs", "backward", -1);
  std::vector<int> left_back, right_back;
  for (int d = half - 1; d >= 0; --d) left_back.push_back(b.backward("b" + std::to_string(d), d));
  for (int d = ndevs - 1; d >= half; --d) right_back.push_back(b.backward("b" + std::to_string(d), d));
  left.push_back(join);
  right.push_back(join);
  b.chain(left);
  b.chain(right);
  std::vector<int> tail{join, join_back};
  b.chain(tail);
  if (join_back >= 0) {
    left_back.insert(left_back.begin(), join_back);
    right_back.insert(right_back.begin(), join_back);
    b.chain(left_back);
    b.chain(right_back);
  }
  return b.placement;
}

}  // namespace tessel::testing
