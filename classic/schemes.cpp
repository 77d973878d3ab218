// Choosing a scheme: its stage graph, its orders, its timed schedule.
#include "classic/schemes.hpp"

#include <algorithm>
#include <stdexcept>

#include "classic/timed_schedule.hpp"

namespace tessel::classic {

const std::vector<std::string>& scheme_names() {
  static const std::vector<std::string> names = {
      "gpipe", "1f1b",  "interleaved-1f1b", "looped-bfs", "interleaved-zb", "zb-h1",    "zb-h2",
      "zb-v",  "zb-auto", "v-half",         "v-min",      "dualpipe",       "dualpipev"};
  return names;
}

int default_chunks(const std::string& scheme) {
  static const std::vector<std::string> two = {"interleaved-1f1b", "looped-bfs", "interleaved-zb", "zb-v",
                                               "v-half", "v-min", "dualpipe", "dualpipev"};
  return std::find(two.begin(), two.end(), scheme) == two.end() ? 1 : 2;
}

bool chunks_adjustable(const std::string& scheme) {
  return scheme == "interleaved-1f1b" || scheme == "looped-bfs" || scheme == "interleaved-zb";
}

bool always_split(const std::string& scheme) {
  return scheme.rfind("zb-", 0) == 0 || scheme == "interleaved-zb" || scheme == "v-half" || scheme == "v-min" ||
         scheme == "dualpipe" || scheme == "dualpipev";
}

namespace {

struct Built {
  StageGraph graph;
  RankOrders orders;
  int nmicros = 0;  // of the schedule (dualpipe: pairs)
};

Built build(const SchemeRequest& request, int chunks, bool split) {
  const std::string& scheme = request.scheme;
  int ranks = request.ranks, nmicros = request.nmicros;
  Built built;
  built.nmicros = nmicros;
  auto graph = [&](std::vector<int> map) { return uniform_stage_graph(ranks, std::move(map), split, request.costs); };
  if (scheme == "gpipe" || scheme == "1f1b") {
    built.graph = graph(loop_stage_map(ranks, 1));
    built.orders = scheme == "gpipe" ? gpipe_orders(ranks, nmicros, split) : one_f_one_b_orders(ranks, nmicros, split);
  } else if (scheme == "interleaved-1f1b") {
    int group = request.flavour == Flavour::pytorch ? pytorch_round_size(ranks, nmicros)
                                                      : (request.group > 0 ? request.group : ranks);
    if (request.flavour == Flavour::megatron) check_megatron_group(ranks, nmicros, group);
    built.graph = graph(loop_stage_map(ranks, chunks));
    std::vector<std::vector<int>> codes;
    for (int rank = 0; rank < ranks; ++rank) codes.push_back(megatron_rank_order(ranks, rank, chunks, nmicros, group));
    built.orders = megatron_actions(codes, ranks, split);
  } else if (scheme == "looped-bfs") {
    built.graph = graph(loop_stage_map(ranks, chunks));
    built.orders = looped_bfs_orders(ranks, chunks, nmicros, split);
  } else if (scheme == "interleaved-zb") {
    built.graph = graph(loop_stage_map(ranks, chunks));
    for (int rank = 0; rank < ranks; ++rank)
      built.orders.push_back(interleaved_zb_rank_order(ranks, rank, chunks, nmicros));
  } else if (scheme == "zb-h1" || scheme == "zb-h2" || scheme == "zb-auto") {
    built.graph = graph(loop_stage_map(ranks, 1));
    long long pending = request.max_pending > 0 ? request.max_pending : ranks;
    built.orders = scheme == "zb-h1"   ? zb_h1_orders(built.graph, nmicros)
                   : scheme == "zb-h2" ? zb_h2_orders(built.graph, nmicros)
                                       : zb_auto_orders(built.graph, nmicros, pending * request.costs.forward_memory);
  } else if (scheme == "zb-v") {
    built.graph = graph(v_stage_map(ranks));
    built.orders = zb_v_orders(built.graph, nmicros);
  } else if (scheme == "v-half" || scheme == "v-min") {
    built.graph = graph(v_stage_map(ranks));
    built.orders = v_schedule_orders(ranks, nmicros, scheme == "v-min");
  } else if (scheme == "dualpipev") {
    built.graph = graph(v_stage_map(ranks));
    built.orders = dualpipev_orders(ranks, nmicros);
  } else if (scheme == "dualpipe") {
    built.graph = graph(loop_stage_map(ranks, 1));
    for (int rank = 0; rank < ranks; ++rank) built.graph.reverse_rank.push_back(ranks - 1 - rank);
    built.orders = dualpipe_orders(ranks, nmicros);
    built.nmicros = nmicros / 2;
  } else {
    throw std::invalid_argument("unknown scheme '" + scheme + "'");
  }
  return built;
}

// DualPipe(V) run some stages' backwards only as full B's: those stages are
// not split, as a PyTorch table of the same order reads them, so that the
// schedule round-trips through one; a full B frees what its I and W would.
void unsplit_full_backward_stages(Built& built) {
  std::vector<bool> split(built.graph.stages(), false);
  for (const auto& order : built.orders)
    for (const Action& action : order)
      if (action.kind == 'I' || action.kind == 'W') split[action.stage] = true;
  built.graph.split = split;
  built.graph.costs.backward_memory = built.graph.costs.input_memory + built.graph.costs.weight_memory;
}

}  // namespace

Schedule generate_scheme(const SchemeRequest& request) {
  const auto& names = scheme_names();
  if (std::find(names.begin(), names.end(), request.scheme) == names.end())
    throw std::invalid_argument("unknown scheme '" + request.scheme + "'");
  if (request.ranks < 1) throw std::invalid_argument("the number of stages must be >= 1");
  if (request.nmicros < 1) throw std::invalid_argument("the number of micro-batches must be >= 1");
  int chunks = request.chunks > 0 ? request.chunks : default_chunks(request.scheme);
  if (chunks != default_chunks(request.scheme) && !chunks_adjustable(request.scheme))
    throw std::invalid_argument(request.scheme + " has " + std::to_string(default_chunks(request.scheme)) +
                                " chunk(s) per rank; --chunks " + std::to_string(chunks) + " is not possible");
  if (request.group > 0 && (request.scheme != "interleaved-1f1b" || request.flavour != Flavour::megatron))
    throw std::invalid_argument("a micro-batch group size applies to interleaved-1f1b's megatron flavour only");
  if (request.max_pending > 0 && request.scheme != "zb-auto")
    throw std::invalid_argument("a limit of pending activations applies to zb-auto only");
  bool split = request.split || always_split(request.scheme);
  Built built = build(request, chunks, split);
  if (request.scheme == "dualpipe" || request.scheme == "dualpipev") unsplit_full_backward_stages(built);
  std::string name = request.scheme + "-" + std::to_string(request.ranks) + "x" + std::to_string(request.nmicros);
  Schedule schedule = schedule_from_orders(built.graph, built.orders, name, built.nmicros);
  schedule.meta = {{"generator", "tessel generate"}, {"scheme", request.scheme}, {"stages", request.ranks},
                   {"pipeline_stages", built.graph.stages()}};
  if (request.scheme == "interleaved-1f1b")
    schedule.meta["flavour"] = request.flavour == Flavour::pytorch ? "pytorch" : "megatron";
  if (built.graph.bidirectional())
    schedule.meta["bidirectional"] = {{"pairs", built.nmicros}, {"up_micro_offset", built.nmicros}};
  return schedule;
}

}  // namespace tessel::classic
