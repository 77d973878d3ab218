// The paper's placements (docs/formats.md, "Built-in placements"), built for a device count.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct CaseInfo {
  std::string name;
  std::string description;        // one line
  std::string supported_devices;  // e.g. "D >= 2, even"
};

const std::vector<CaseInfo>& builtin_cases();

// Throws InputError (field "--case" or "--ndevs") for an unknown case or an
// unsupported device count. Blocks are listed in the Python Tessel's `gid`
// order (see the foundation issue).
Placement make_case(const std::string& name, int ndevs, bool infer);

}  // namespace tessel
