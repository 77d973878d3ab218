// PLACEHOLDER: the built-in cases land with the foundation issue.
#include "cases/builtin_cases.hpp"
#include "model/input_error.hpp"
namespace tessel {
const std::vector<CaseInfo>& builtin_cases() { static std::vector<CaseInfo> none; return none; }
Placement make_case(const std::string& name, int, bool) { throw InputError("", "--case", "unknown case '" + name + "'"); }
}  // namespace tessel
