// How `tessel search` prints a SearchReport: the text a person reads and
// the JSON object scripts read (docs/cli.md lists its keys). Printing only:
// every number and every "proven" comes from the report as solve() made it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "solver/search.hpp"

namespace tessel::cli {

std::string report_text(const SearchRequest& request, const SearchReport& report);
nlohmann::json report_json(const SearchRequest& request, const SearchReport& report);

// The `search` object written into the schedule file: where it came from.
nlohmann::json provenance(const SearchRequest& request, const SearchReport& report);

}  // namespace tessel::cli
