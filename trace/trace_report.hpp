// What `tessel verify --trace` prints: a TraceCheck (trace/trace_check.hpp)
// as text for people or as one JSON object (docs/runtime.md lists its keys).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "trace/trace_check.hpp"

namespace tessel {

std::string trace_check_text(const TraceCheck& check);
nlohmann::json trace_check_json(const TraceCheck& check);

}  // namespace tessel
