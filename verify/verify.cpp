// PLACEHOLDER: the verifier lands with the foundation issue.
#include "verify/verify.hpp"
namespace tessel::verify {
Report check_schedule(const nlohmann::json&, const std::optional<std::vector<long long>>&) {
  throw FormatError{"", "verifier not implemented yet"};
}
nlohmann::json report_to_json(const Report&) { return {}; }
std::string report_to_text(const Report&) { return {}; }
}  // namespace tessel::verify
