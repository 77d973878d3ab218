// `tessel generate SCHEME`: the classic pipeline schedules (GPipe, 1F1B,
// interleaved 1F1B, ZB-H1/H2/V) as tessel.schedule/1, timed by running each
// rank's order as soon as possible, checkable with `tessel verify`.
#include <algorithm>
#include <iostream>

#include "classic/order_execution.hpp"
#include "classic/scheme_limits.hpp"
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
    "tessel generate SCHEME --stages S --nmicros N [--chunks V] [--flavour megatron|pytorch] [--group G]\n"
    "                [--max-pending K] [--span ..] [--memory ..] [--memory-limit M] [-o FILE] [--report]\n\n"
    "SCHEME (reference it matches order for order):\n"
    "  gpipe, 1f1b         one stage per rank\n"
    "  interleaved-1f1b    --chunks V stages per rank (stage c*S+r on rank r); --flavour megatron\n"
    "                      (default; Megatron-LM, micro-batch group --group G, default S) or pytorch\n"
    "                      (ScheduleInterleaved1F1B's rounds: groups of N / max(1, N // S))\n"
    "  looped-bfs          PyTorch's ScheduleLoopedBFS, --chunks V stages per rank\n"
    "  interleaved-zb      PyTorch's ScheduleInterleavedZeroBubble, --chunks V stages per rank\n"
    "  zb-h1, zb-h2, zb-v  zero bubble (zb-v: two stages per rank in a \"v\": ranks 0..S-1, S-1..0)\n"
    "  zb-auto             the zero-bubble repository's heuristic under a memory limit of --max-pending K\n"
    "                      activations per rank (default S: about ZB-H1's memory; 2S: ZB-H2's)\n"
    "  v-half, v-min       the controllable-memory V schedules (half, a third of 1F1B's activations)\n"
    "  dualpipev           DeepSeek's DualPipeV (= PyTorch's ScheduleDualPipeV), N >= 2S\n"
    "  dualpipe            DeepSeek's bidirectional DualPipe: S even, N even >= 2S, N/2 micro-batches\n"
    "                      each way; the schedule holds N/2 micro-batch PAIRS (one per direction)\n"
    "  --stages S is the number of pipeline ranks (devices). --chunks is refused where the scheme\n"
    "  fixes it (1, or 2 for the v-shaped ones and dualpipe).\n"
    "Spans (steps) and memory (change at the block's start):\n"
    "  dualpipe, dualpipev: keys F, I (input backward), W, B (full backward, default I+W), FB (an\n"
    "    overlapped forward+backward unit, default F+B); memory F, I, W (default 1, 0, -1).\n"
    "  all others: keys F, B, W; default F=1,B=2. Giving W splits the backward into B (input\n"
    "    gradient) and W (weight gradient); the zero-bubble and v ones always split, default\n"
    "    F=1,B=1,W=1. Memory default F=1,B=-1; split: F=1,B=0,W=-1.\n"
    "  A key the scheme does not use is an error.\n"
    "The schedule's memory limit is the peak it needs per device, or --memory-limit (below\n"
    "that peak: exit 1, nothing written).\n"
    "Its steady state (the longest run of identical periods, if any) is written as its\n"
    "repetend, which `tessel verify` checks.\n"
    "The schedule goes to -o FILE, else to stdout; --report runs the verifier and\n"
    "prints makespan, bubble ratio and peak memory per device on stderr";

bool pytorch_words(const std::string& scheme) { return scheme == "dualpipe" || scheme == "dualpipev"; }

classic::StageCosts costs_for(const po::variables_map& values, const std::string& scheme, bool& split) {
  std::optional<std::string> span = optional_text(values, "span"), memory = optional_text(values, "memory");
  if (pytorch_words(scheme)) {
    given_keys(span, {"F", "B", "I", "W", "FB"}, "--span");
    given_keys(memory, {"F", "I", "W"}, "--memory");
    split = true;
    return pytorch_costs(span, memory);
  }
  std::vector<std::string> keys = given_keys(span, {"F", "B", "W"}, "--span");
  split = classic::always_split(scheme) || std::find(keys.begin(), keys.end(), "W") != keys.end();
  return scheme_costs(span, memory, split);
}

void check_scheme_options(const po::variables_map& values, const classic::SchemeRequest& request) {
  const std::string& scheme = request.scheme;
  if (values.count("chunks") && !classic::chunks_adjustable(scheme) &&
      request.chunks != classic::default_chunks(scheme))
    throw InputError("", "--chunks", scheme + " has " + std::to_string(classic::default_chunks(scheme)) +
                                         " stage(s) per rank; only interleaved-1f1b, looped-bfs and "
                                         "interleaved-zb take another count");
  if (values.count("flavour") && scheme != "interleaved-1f1b")
    throw InputError("", "--flavour", "applies to interleaved-1f1b only");
  if (values.count("group") && (scheme != "interleaved-1f1b" || request.flavour != classic::Flavour::megatron))
    throw InputError("", "--group", "applies to interleaved-1f1b --flavour megatron only (PyTorch derives it)");
  if (values.count("max-pending") && scheme != "zb-auto")
    throw InputError("", "--max-pending", "applies to zb-auto only");
}

}  // namespace

int run_generate(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("scheme", po::value<std::string>()->required(), "the scheme (positional)")
      ("stages", po::value<int>()->required(), "pipeline ranks (devices)")
      ("nmicros", po::value<int>()->required(), "micro-batches")
      ("chunks", po::value<int>(), "interleaved-1f1b, looped-bfs, interleaved-zb: model chunks per rank (default 2)")
      ("flavour", po::value<std::string>(), "interleaved-1f1b: megatron (default) | pytorch")
      ("group", po::value<int>(), "interleaved-1f1b (megatron): micro-batch group size (default: --stages)")
      ("max-pending", po::value<long long>(), "zb-auto: activations a rank may hold (default: --stages)")
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
    if (std::find(names.begin(), names.end(), request.scheme) == names.end()) {
      std::string known;
      for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
      throw InputError("", "SCHEME", "unknown scheme '" + request.scheme + "' (" + known + ")");
    }
    request.ranks = values["stages"].as<int>();
    request.nmicros = values["nmicros"].as<int>();
    request.chunks = values.count("chunks") ? values["chunks"].as<int>() : 0;
    if (values.count("flavour")) {
      std::string flavour = values["flavour"].as<std::string>();
      if (flavour != "megatron" && flavour != "pytorch")
        throw InputError("", "--flavour", "expected megatron or pytorch, got '" + flavour + "'");
      request.flavour = flavour == "pytorch" ? classic::Flavour::pytorch : classic::Flavour::megatron;
    }
    if (values.count("group")) request.group = values["group"].as<int>();
    if (values.count("max-pending")) request.max_pending = values["max-pending"].as<long long>();
    classic::check_scheme_sizes(request, {values.count("chunks") > 0, values.count("group") > 0,
                                          values.count("max-pending") > 0}, "--");
    check_scheme_options(values, request);
    request.costs = costs_for(values, request.scheme, request.split);

    Schedule schedule;
    try {
      schedule = classic::generate_scheme(request);
    } catch (const std::invalid_argument& error) {
      throw InputError("", request.scheme, error.what());
    }
    return write_classic_output(values, schedule);
  });
}

}  // namespace tessel::cli
