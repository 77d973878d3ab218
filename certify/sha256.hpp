// SHA-256 of a text (FIPS 180-4), so that a manifest names the exact CNF a
// proof refutes and a reviewer can compare it with sha256sum.
#pragma once

#include <string>

namespace tessel::certify {

std::string sha256_hex(const std::string& data);

}  // namespace tessel::certify
