// `tessel generate SCHEME`: the classic pipeline schedules (GPipe, 1F1B,
// interleaved 1F1B, ZB-H1/H2/V) as tessel.schedule/1, timed by running each
// rank's order as soon as possible, checkable with `tessel verify`.
#include <algorithm>
#include <iostream>

#include "classic/order_execution.hpp"
#include "classic/schemes.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "tools/classic_options.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

namespace {

const char* kUsage =
    "tessel generate SCHEME --stages S --nmicros N [--chunks V] [--span F=..,B=..[,W=..]]\n"
    "                [--memory F=..,B=..[,W=..]] [--memory-limit M] [-o FILE] [--report]\n\n"
    "SCHEME: gpipe | 1f1b | interleaved-1f1b | zb-h1 | zb-h2 | zb-v\n"
    "  --stages S is the number of pipeline ranks (devices). interleaved-1f1b puts\n"
    "  --chunks V stages on each rank (stage c*S+r on rank r, Megatron's order);\n"
    "  zb-v puts two stages on each rank in a \"v\" (ranks 0..S-1, then S-1..0).\n"
    "Spans (steps): default F=1,B=2 (B = full backward). Giving W splits the backward\n"
    "  into B (input gradient) and W (weight gradient); zb-* always split, default\n"
    "  F=1,B=1,W=1.\n"
    "Memory (change at the block's start): default F=1,B=-1; split: F=1,B=0,W=-1\n"
    "  (F allocates one activation unit, the backward - or W when split - frees it).\n"
    "The schedule's memory limit is the peak it needs per device, or --memory-limit.\n"
    "Its steady state (the longest run of identical periods, if any) is written as its\n"
    "repetend, which `tessel verify` checks.\n"
    "The schedule goes to -o FILE, else to stdout; --report runs the verifier and\n"
    "prints makespan, bubble ratio and peak memory per device on stderr";

}  // namespace

int run_generate(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("scheme", po::value<std::string>()->required(), "the scheme (positional)")
      ("stages", po::value<int>()->required(), "pipeline ranks (devices)")
      ("nmicros", po::value<int>()->required(), "micro-batches")
      ("chunks", po::value<int>()->default_value(2), "interleaved-1f1b: model chunks per rank")
      ("span", po::value<std::string>(), "spans, e.g. F=1,B=2 or F=1,B=1,W=1 (W = split backward)")
      ("memory", po::value<std::string>(), "memory deltas, e.g. F=1,B=-1 or F=1,B=0,W=-1")
      ("memory-limit", po::value<std::string>(), "limit written into the schedule: M or M0,M1,.. (default: its peak)")
      ("output,o", po::value<std::string>(), "write the schedule here (default: stdout)")
      ("placement-out", po::value<std::string>(), "also write its placement (tessel.placement/1), e.g. for 'tessel search'")
      ("report", po::bool_switch(), "verify and print makespan, bubble ratio, peak memory (stderr)");
  po::positional_options_description positional;
  positional.add("scheme", 1);
  po::variables_map values;
  if (auto done = parse(argc, argv, kUsage, options, positional, values)) return *done;

  return guarded("generate", [&]() {
    classic::SchemeRequest request;
    request.scheme = values["scheme"].as<std::string>();
    const auto& names = classic::scheme_names();
    if (std::find(names.begin(), names.end(), request.scheme) == names.end())
      throw InputError("", "SCHEME", "unknown scheme '" + request.scheme +
                                         "' (gpipe, 1f1b, interleaved-1f1b, zb-h1, zb-h2, zb-v)");
    request.ranks = values["stages"].as<int>();
    request.nmicros = values["nmicros"].as<int>();
    request.chunks = values["chunks"].as<int>();
    if (request.ranks < 1 || request.ranks > 4096) throw InputError("", "--stages", "must be in [1, 4096]");
    if (request.nmicros < 1 || request.nmicros > 100000) throw InputError("", "--nmicros", "must be in [1, 100000]");
    if (request.chunks < 1 || request.chunks > 64) throw InputError("", "--chunks", "must be in [1, 64]");
    long long stages_total = static_cast<long long>(request.ranks) *
                             (request.scheme == "interleaved-1f1b" ? request.chunks : request.scheme == "zb-v" ? 2 : 1);
    if (stages_total * request.nmicros * 3 > 3000000)
      throw InputError("", "--nmicros", "stages x micro-batches is too large (at most 1e6 stage runs)");
    bool zero_bubble = request.scheme.rfind("zb-", 0) == 0;
    bool w_given = values.count("span") &&
                   parse_key_values(values["span"].as<std::string>(), "FBW", "--span").count('W');
    request.split = zero_bubble || w_given;
    request.costs = scheme_costs(optional_text(values, "span"), optional_text(values, "memory"), request.split);

    Schedule schedule = classic::generate_scheme(request);
    return write_classic_output(values, schedule);
  });
}

}  // namespace tessel::cli
