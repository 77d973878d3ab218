// Memory limits as written on a command line or in Python.
#include "model/memory_limits.hpp"

#include <algorithm>
#include <sstream>

#include "model/input_error.hpp"

namespace tessel {

std::vector<Decimal> parse_amounts(const std::string& text, int ndevs, const std::string& field) {
  std::vector<Decimal> amounts;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::optional<Decimal> amount = parse_quantity(item);
    if (!amount)
      throw InputError("", field, "'" + shown_token(item) + "' is not an amount (a number such as 6 or 1.5, at most " +
                                      std::to_string(kMaxDecimals) + " decimals and 18 digits, or bytes such as 40GiB, 512MiB, 2GB)");
    if (amount->digits < 0) throw InputError("", field, "'" + shown_token(item) + "' is negative; a limit is >= 0");
    amounts.push_back(*amount);
  }
  if (amounts.size() == 1) amounts.assign(ndevs, amounts.front());
  if (static_cast<int>(amounts.size()) != ndevs)
    throw InputError("", field, "give one limit, or one per device (" + std::to_string(ndevs) + ")");
  return amounts;
}

std::vector<Memory> memory_limits_for(Placement& placement, const std::string& text, const std::string& field) {
  std::vector<Decimal> amounts = parse_amounts(text, placement.ndevs, field);
  int decimals = placement.memory_decimals;
  for (const Decimal& amount : amounts) decimals = std::max(decimals, amount.decimals);
  if (!rescale_memory(placement, decimals))
    throw InputError("", field, "the limit needs " + std::to_string(decimals) +
                                     " decimals, at which a memory amount of the placement is too large");
  std::vector<Memory> limits;
  for (const Decimal& amount : amounts) {
    std::optional<long long> ticks = to_ticks(amount, decimals);
    if (!ticks) throw InputError("", field, "'" + format_ticks(amount.digits, amount.decimals) + "' is too large");
    limits.push_back(*ticks);
  }
  return limits;
}

}  // namespace tessel
