// Costs by action letter (see the header): defaults, then one decimal scale
// for all spans and one for all memory deltas.
#include "classic/stage_costs.hpp"

#include <algorithm>

#include "model/input_error.hpp"

namespace tessel::classic {
namespace {

Decimal value_or(const CostValues& values, const std::string& key, Decimal fallback) {
  auto found = values.find(key);
  return found == values.end() ? fallback : found->second;
}

Decimal whole(long long value) { return {value, 0}; }

int decimals_of(std::initializer_list<Decimal> values) {
  int decimals = 0;
  for (const Decimal& value : values) decimals = std::max(decimals, value.decimals);
  return decimals;
}

long long ticks_of(const Decimal& value, int decimals, const std::string& field, const std::string& key) {
  std::optional<long long> ticks = to_ticks(value, decimals);
  if (!ticks) throw InputError("", field, key + "=" + format_ticks(value.digits, value.decimals) + " is too large");
  return *ticks;
}

void require_positive(const CostValues& spans, const std::string& field) {
  for (const auto& [key, value] : spans)
    if (value.digits <= 0) throw InputError("", field, key + " must be > 0, got " + format_ticks(value.digits, value.decimals));
}

}  // namespace

const std::vector<std::string>& scheme_letters() {
  static const std::vector<std::string> letters = {"F", "B", "W"};
  return letters;
}

const std::vector<std::string>& pytorch_letters() {
  static const std::vector<std::string> letters = {"F", "B", "I", "W", "FB"};
  return letters;
}

StageCosts scheme_costs(const CostValues& spans, const CostValues& memory, bool split, const std::string& span_field,
                        const std::string& memory_field) {
  require_positive(spans, span_field);
  if (!split && memory.count("W"))
    throw InputError("", memory_field, "W is given but the backward is not split (add W to the spans)");
  const Decimal forward = value_or(spans, "F", whole(1));
  const Decimal backward = value_or(spans, "B", whole(split ? 1 : 2));  // split: the input part
  const Decimal weight = value_or(spans, "W", whole(1));
  const Decimal forward_memory = value_or(memory, "F", whole(1));
  // A full backward frees the activation; split, its input part frees
  // nothing and W frees it.
  const Decimal backward_memory = value_or(memory, "B", whole(-1));
  const Decimal input_memory = value_or(memory, "B", whole(0));
  const Decimal weight_memory = value_or(memory, "W", whole(-1));
  StageCosts costs;
  costs.time_decimals = decimals_of({forward, backward, weight});
  costs.memory_decimals = decimals_of({forward_memory, backward_memory, input_memory, weight_memory});
  const int t = costs.time_decimals, m = costs.memory_decimals;
  costs.forward_span = ticks_of(forward, t, span_field, "F");
  costs.backward_span = ticks_of(backward, t, span_field, "B");
  costs.input_span = costs.backward_span;
  costs.weight_span = ticks_of(weight, t, span_field, "W");
  costs.forward_memory = ticks_of(forward_memory, m, memory_field, "F");
  costs.backward_memory = ticks_of(backward_memory, m, memory_field, "B");
  costs.input_memory = ticks_of(input_memory, m, memory_field, "B");
  costs.weight_memory = ticks_of(weight_memory, m, memory_field, "W");
  return costs;
}

StageCosts pytorch_costs(const CostValues& spans, const CostValues& memory, const std::string& span_field,
                         const std::string& memory_field) {
  require_positive(spans, span_field);
  const Decimal forward = value_or(spans, "F", whole(1));
  const Decimal input = value_or(spans, "I", whole(1));
  const Decimal weight = value_or(spans, "W", whole(1));
  std::optional<Decimal> backward, overlap;
  if (spans.count("B")) backward = spans.at("B");
  if (spans.count("FB")) overlap = spans.at("FB");
  const Decimal forward_memory = value_or(memory, "F", whole(1));
  const Decimal backward_memory = value_or(memory, "B", whole(-1));
  const Decimal input_memory = value_or(memory, "I", whole(0));
  const Decimal weight_memory = value_or(memory, "W", whole(-1));
  StageCosts costs;
  costs.time_decimals = decimals_of({forward, input, weight, backward.value_or(whole(1)), overlap.value_or(whole(1))});
  costs.memory_decimals = decimals_of({forward_memory, backward_memory, input_memory, weight_memory});
  const int t = costs.time_decimals, m = costs.memory_decimals;
  costs.forward_span = ticks_of(forward, t, span_field, "F");
  costs.input_span = ticks_of(input, t, span_field, "I");
  costs.weight_span = ticks_of(weight, t, span_field, "W");
  costs.backward_span = backward ? ticks_of(*backward, t, span_field, "B") : costs.input_span + costs.weight_span;
  costs.overlap_span = overlap ? ticks_of(*overlap, t, span_field, "FB") : 0;
  costs.forward_memory = ticks_of(forward_memory, m, memory_field, "F");
  costs.backward_memory = ticks_of(backward_memory, m, memory_field, "B");
  costs.input_memory = ticks_of(input_memory, m, memory_field, "I");
  costs.weight_memory = ticks_of(weight_memory, m, memory_field, "W");
  return costs;
}

}  // namespace tessel::classic
