// Reading Megatron-LM order lists.
#include "model/formats/megatron_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

namespace {

MegatronStep step_of(const nlohmann::json& code, const std::string& file, const std::string& at) {
  const char* expected = "expected +k (forward of chunk k), -k (its backward) or -(k + 0.5) (its weight gradient, "
                         "layer-wise orders), k in 1..1000, got ";
  if (code.is_number_unsigned() && code.get<unsigned long long>() > 1000)
    throw InputError(file, at, expected + shown_value(code));
  if (code.is_number_integer()) {
    long long value = code.get<long long>();
    // Range first: the absolute value of the most negative integer overflows.
    if (value == 0 || value < -1000 || value > 1000) throw InputError(file, at, expected + shown_value(code));
    return {value > 0 ? 'F' : 'B', static_cast<int>(value > 0 ? value : -value)};
  }
  if (code.is_number_float()) {
    double value = code.get<double>();
    double twice = 2 * value;
    bool half_integer = std::isfinite(value) && twice == std::floor(twice) && std::fmod(std::fabs(twice), 2.0) == 1.0;
    if (half_integer && value < -1 && value >= -1000.5)
      return {'W', static_cast<int>(-(value + 0.5))};
  }
  throw InputError(file, at, expected + shown_value(code));
}

}  // namespace

MegatronOrders megatron_order_from_json(const nlohmann::json& document, const std::string& file) {
  if (!document.is_array()) throw InputError(file, "", "expected a JSON list with one list per rank");
  MegatronOrders orders;
  for (size_t rank = 0; rank < document.size(); ++rank) {
    const nlohmann::json& row = document[rank];
    std::string where = std::string(1, '[').append(std::to_string(rank)).append("]");
    if (!row.is_array()) throw InputError(file, where, "expected the list of rank " + std::to_string(rank));
    orders.emplace_back();
    for (size_t i = 0; i < row.size(); ++i)
      orders.back().push_back(step_of(row[i], file, where + "[" + std::to_string(i) + "]"));
  }
  return orders;
}

std::vector<MegatronStep> megatron_steps(const std::vector<int>& codes) {
  std::vector<MegatronStep> steps;
  for (int code : codes) steps.push_back({code > 0 ? 'F' : 'B', std::abs(code)});
  return steps;
}

int megatron_chunks(const MegatronOrders& orders) {
  int chunks = 0;
  for (const auto& row : orders)
    for (const MegatronStep& step : row) chunks = std::max(chunks, step.chunk);
  return chunks;
}

int megatron_micro_count(const MegatronOrders& orders) {
  if (orders.empty()) return 0;
  return static_cast<int>(std::count(orders.front().begin(), orders.front().end(), MegatronStep{'F', 1}));
}

bool megatron_has_weights(const MegatronOrders& orders) {
  for (const auto& row : orders)
    for (const MegatronStep& step : row)
      if (step.kind == 'W') return true;
  return false;
}

}  // namespace tessel
