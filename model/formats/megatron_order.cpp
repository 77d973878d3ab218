// Reading Megatron-LM order lists.
#include "model/formats/megatron_order.hpp"

#include <algorithm>
#include <cstdlib>

#include "model/input_error.hpp"

namespace tessel {

std::vector<std::vector<int>> megatron_order_from_json(const nlohmann::json& document, const std::string& file) {
  if (!document.is_array()) throw InputError(file, "", "expected a JSON list with one list per rank");
  std::vector<std::vector<int>> orders;
  for (size_t rank = 0; rank < document.size(); ++rank) {
    const nlohmann::json& row = document[rank];
    std::string where = std::string(1, '[').append(std::to_string(rank)).append("]");
    if (!row.is_array()) throw InputError(file, where, "expected the list of rank " + std::to_string(rank));
    orders.emplace_back();
    for (size_t i = 0; i < row.size(); ++i) {
      const nlohmann::json& code = row[i];
      std::string at = where + "[" + std::to_string(i) + "]";
      if (!code.is_number_integer() || code.get<long long>() == 0 || std::llabs(code.get<long long>()) > 1000)
        throw InputError(file, at, "expected +k (forward of chunk k-1) or -k (its backward), got " + code.dump());
      orders.back().push_back(code.get<int>());
    }
  }
  return orders;
}

int megatron_chunks(const std::vector<std::vector<int>>& orders) {
  int chunks = 0;
  for (const auto& row : orders)
    for (int code : row) chunks = std::max(chunks, std::abs(code));
  return chunks;
}

int megatron_micro_count(const std::vector<std::vector<int>>& orders) {
  if (orders.empty()) return 0;
  return static_cast<int>(std::count(orders.front().begin(), orders.front().end(), 1));
}

}  // namespace tessel
