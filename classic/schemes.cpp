// Choosing a classic scheme: its stage graph, its orders, its timed schedule.
#include "classic/schemes.hpp"

#include <stdexcept>

#include "classic/timed_schedule.hpp"

namespace tessel::classic {

const std::vector<std::string>& scheme_names() {
  static const std::vector<std::string> names = {"gpipe", "1f1b", "interleaved-1f1b",
                                                 "zb-h1", "zb-h2", "zb-v"};
  return names;
}

Schedule generate_scheme(const SchemeRequest& request) {
  if (request.ranks < 1) throw std::invalid_argument("the number of stages must be >= 1");
  if (request.nmicros < 1) throw std::invalid_argument("the number of micro-batches must be >= 1");
  const std::string& scheme = request.scheme;
  bool zero_bubble = scheme.rfind("zb-", 0) == 0;
  bool split = request.split || zero_bubble;
  int ranks = request.ranks;
  StageGraph graph;
  RankOrders orders;
  if (scheme == "gpipe" || scheme == "1f1b") {
    graph = uniform_stage_graph(ranks, loop_stage_map(ranks, 1), split, request.costs);
    orders = scheme == "gpipe" ? gpipe_orders(ranks, request.nmicros, split)
                               : one_f_one_b_orders(ranks, request.nmicros, split);
  } else if (scheme == "interleaved-1f1b") {
    if (request.chunks < 1) throw std::invalid_argument("the number of chunks must be >= 1");
    graph = uniform_stage_graph(ranks, loop_stage_map(ranks, request.chunks), split, request.costs);
    std::vector<std::vector<int>> codes;
    for (int rank = 0; rank < ranks; ++rank)
      codes.push_back(megatron_rank_order(ranks, rank, request.chunks, request.nmicros, ranks));
    orders = megatron_actions(codes, ranks, split);
  } else if (scheme == "zb-h1" || scheme == "zb-h2") {
    graph = uniform_stage_graph(ranks, loop_stage_map(ranks, 1), true, request.costs);
    orders = scheme == "zb-h1" ? zb_h1_orders(graph, request.nmicros) : zb_h2_orders(graph, request.nmicros);
  } else if (scheme == "zb-v") {
    graph = uniform_stage_graph(ranks, v_stage_map(ranks), true, request.costs);
    orders = zb_v_orders(graph, request.nmicros);
  } else {
    throw std::invalid_argument("unknown scheme '" + scheme + "'");
  }
  std::string name = scheme + "-" + std::to_string(ranks) + "x" + std::to_string(request.nmicros);
  Schedule schedule = schedule_from_orders(graph, orders, name, request.nmicros);
  schedule.meta = {{"generator", "tessel generate"}, {"scheme", scheme}, {"stages", ranks},
                   {"pipeline_stages", graph.stages()}};
  return schedule;
}

}  // namespace tessel::classic
