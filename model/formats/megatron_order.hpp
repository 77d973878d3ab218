// Megatron-LM's interleaved pipeline order as a file: a JSON list with one
// list per rank of signed chunk codes (+k forward of local chunk k-1, -k its
// backward; formats.md). Only reading and checking the shape is here;
// classic/ turns it into a schedule.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessel {

// Throws InputError naming `file` and the entry ("[2][5]") that is not a
// non-zero integer.
std::vector<std::vector<int>> megatron_order_from_json(const nlohmann::json& document, const std::string& file);

// The largest |k| in the order: the number of chunks when not given.
int megatron_chunks(const std::vector<std::vector<int>>& orders);

// Forwards of chunk 1 on rank 0: the number of micro-batches when not given.
int megatron_micro_count(const std::vector<std::vector<int>>& orders);

}  // namespace tessel
