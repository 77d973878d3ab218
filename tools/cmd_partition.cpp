// `tessel partition`: cut a tessel.graph/1 into pipeline stages (issue 7),
// prove the cut optimal (or say how far from proven it is), compare it with
// the DP baseline, and optionally write the placement the schedule search
// takes. `--check` runs the independent partition check instead.
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/placement_json.hpp"
#include "partition/partition_json.hpp"
#include "partition/partition_search.hpp"
#include "partition/pipeline_placement.hpp"
#include "partition/stage_placement.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/interrupt.hpp"
#include "verify/partition_check.hpp"

namespace tessel::cli {

namespace {

const char* kUsage =
    "tessel partition GRAPH (--stages S | --devices D [--mapping chain|interleaved|v] [--chunks V]\n"
    "       [--split-backward] [--param-bytes B] [--optimizer-bytes-per-param X] [--recompute none|auto])\n"
    "       [--objective bottleneck|pippy]\n"
    "       [--tolerance X]\n"
    "       [--max-param-bytes B] [--method exact|dp] [--backend z3|cadical] [--time-limit SECONDS]\n"
    "       [-o PARTITION] [--placement-out FILE [--resolution R] [--backward-ratio X] [--memory-unit BYTES]]\n"
    "       [--json]\n"
    "   or: tessel partition GRAPH --check PARTITION [--json]\n\n"
    "Cuts a tessel.graph/1 into S pipeline stages. 'bottleneck' minimises the slowest stage's\n"
    "compute, then the bytes sent between stages; 'pippy' (PiPPy's graph split) minimises the\n"
    "bytes sent with every stage's parameter bytes within 1 +- X of the mean. The exact method\n"
    "proves its answer optimal; on --time-limit it writes the best partition found, says it is\n"
    "unproven and exits 3. Every run also reports the DP baseline (best contiguous cut of one\n"
    "topological order) and how much the exact answer improves on it.\n"
    "Exit: 0 done (optimal, or dp), 1 proven infeasible (or --check: invalid), 2 bad input,\n"
    "3 time limit (or dp: no contiguous cut fits the request).\n\n"
    "--devices D cuts S = D x chunks stages and maps them on D ranks (docs/plan.md): chain (stage\n"
    "s on rank s), interleaved (stage c*D+r on rank r, --chunks V), v (0..D-1 down, then back up;\n"
    "2 chunks). Its placement (--placement-out) has physical costs: activation memory per stage\n"
    "in bytes, static memory per rank = parameters and their gradients (--param-bytes B each,\n"
    "default 4 = fp32; the graph counts parameters in fp32) + optimizer state (X bytes per\n"
    "parameter, default 8 = Adam), every block with its stage; --split-backward writes an\n"
    "input-gradient (I) and a weight-gradient (W) block per stage instead of one backward (B);\n"
    "--recompute auto makes every forward offer recomputation before its stage's backward (span:\n"
    "the forward's; kept: the stage's input activations), which `search` then chooses per micro-batch.\n"
    "Without --devices, --placement-out writes the 1F1B chain with memory in --memory-unit units.";

std::string percent(long long better, long long worse) {
  if (worse <= 0) return "0%";
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << 100.0 * static_cast<double>(worse - better) / static_cast<double>(worse) << "%";
  return text.str();
}

double improvement(long long better, long long worse) {
  return worse <= 0 ? 0.0 : static_cast<double>(worse - better) / static_cast<double>(worse);
}

std::string list_text(const std::vector<long long>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ' ';
    text += std::to_string(values[i]);
  }
  return text;
}

// The placement as the file would hold it, refused (exit 2) when the
// placement readers would refuse the file: a graph whose parameter bytes
// put a rank's static memory past what a placement holds (2^50) gives a file
// that `search` cannot read, so none is written.
nlohmann::json readable_placement(const Placement& placement, const std::string& path, const std::string& advice) {
  nlohmann::json document = placement_to_json(placement);
  try {
    placement_from_json(document, JsonPlace{path, ""});
  } catch (const InputError& error) {
    throw InputError("", "--placement-out", "the placement for " + path + " would not be readable: " +
                                                std::string(error.what()) + " (" + advice + ")");
  }
  return document;
}

int run_check(const std::string& graph_path, const std::string& partition_path, bool json) {
  read_graph_file(graph_path);  // the model's reader gives the precise message for a bad graph
  const nlohmann::json graph_doc = read_verifier_document(graph_path);
  const nlohmann::json partition_doc = read_verifier_document(partition_path);
  verify::PartitionReport report;
  try {
    report = verify::check_partition(graph_doc, partition_doc);
  } catch (const verify::FormatError& error) {
    throw InputError(partition_path, error.field, error.reason);
  }
  if (json) {
    std::cout << verify::partition_report_to_json(report).dump(2) << "\n";
  } else if (report.valid) {
    std::cout << "valid: " << report.stages << " stages, compute [" << list_text(report.stage_compute)
              << "], parameter bytes [" << list_text(report.stage_param_bytes) << "], communication "
              << report.communication_bytes << " bytes\n";
  } else {
    // A partition of another graph breaks on every node: the first few
    // problems say what is wrong, the count how much (--json has them all).
    constexpr size_t kShown = 20;
    std::cout << "invalid (" << report.problems.size() << " problems):\n";
    for (size_t i = 0; i < report.problems.size() && i < kShown; ++i) std::cout << "  " << report.problems[i] << "\n";
    if (report.problems.size() > kShown)
      std::cout << "  ... and " << report.problems.size() - kShown << " more (--json lists every one)\n";
  }
  return report.valid ? kSuccess : kNegative;
}

// --recompute: a placement only offers; recomputing every micro-batch is
// what a plan chooses (tessel plan --recompute all).
RecomputeMode recompute_offer(const std::string& text) {
  std::optional<RecomputeMode> mode = parse_recompute_mode(text);
  if (mode == RecomputeMode::All)
    throw InputError("", "--recompute", "a placement only offers recomputation (auto); to recompute every "
                                        "micro-batch, plan it: tessel plan --recompute all");
  if (!mode) {
    std::string near = nearest_name(text, {"none", "auto"});
    throw InputError("", "--recompute", "choose none or auto, not '" + text + "'" +
                                            (near.empty() ? "" : " (did you mean " + near + "?)"));
  }
  return *mode;
}

// The --devices options, or nullopt without --devices (the --stages path).
std::optional<PipelineOptions> pipeline_from(const po::variables_map& values) {
  for (const char* name : {"mapping", "chunks", "split-backward", "optimizer-bytes-per-param", "param-bytes", "recompute"}) {
    bool given = values.count(name) && !values[name].defaulted() &&
                 !(std::string(name) == "split-backward" && !values[name].as<bool>());
    if (given && !values.count("devices")) throw InputError("", std::string("--") + name, "needs --devices D");
  }
  if (!values.count("devices")) return std::nullopt;
  PipelineOptions options;
  options.devices = values["devices"].as<int>();
  std::string mapping = values.count("mapping") ? values["mapping"].as<std::string>() : "chain";
  std::optional<StageMapping> parsed = parse_mapping(mapping);
  if (!parsed) throw InputError("", "--mapping", "choose chain, interleaved or v, not '" + mapping + "'");
  options.mapping = *parsed;
  options.chunks = values.count("chunks") ? values["chunks"].as<int>() : options.mapping == StageMapping::Chain ? 1 : 2;
  options.split_backward = values["split-backward"].as<bool>();
  if (values.count("optimizer-bytes-per-param"))
    options.optimizer_bytes_per_param = values["optimizer-bytes-per-param"].as<double>();
  if (values.count("param-bytes")) options.bytes_per_param = values["param-bytes"].as<int>();
  options.resolution = values["resolution"].as<long long>();
  if (values.count("recompute")) options.recompute = recompute_offer(values["recompute"].as<std::string>());
  options.backward_ratio = values["backward-ratio"].as<double>();
  std::string problem = pipeline_options_problem(options);
  if (!problem.empty())
    throw InputError("", problem.find("bytes per parameter") != std::string::npos ? "--param-bytes" : "--devices",
                     problem);
  if (values.count("stages") && values["stages"].as<int>() != pipeline_stages(options))
    throw InputError("", "--stages", "--devices " + std::to_string(options.devices) + " x " +
                                         std::to_string(options.chunks) + " chunks makes " +
                                         std::to_string(pipeline_stages(options)) + " stages, not " +
                                         std::to_string(values["stages"].as<int>()));
  return options;
}

// The flags, apart so that run_partition reads as parse, solve, write, print.
po::options_description partition_options() {
  po::options_description options("partition options");
  options.add_options()
      ("graph", po::value<std::string>(), "the tessel.graph/1 file")
      ("stages", po::value<int>(), "number of pipeline stages S (>= 1)")
      ("devices", po::value<int>(), "ranks D: cut D x chunks stages and map them (see --mapping)")
      ("mapping", po::value<std::string>(), "with --devices: chain (default) | interleaved | v")
      ("chunks", po::value<int>(), "with --devices: stages per rank (interleaved; default 2 for interleaved and v, 1 for chain)")
      ("split-backward", po::bool_switch(), "with --devices: I and W blocks instead of one backward")
      ("optimizer-bytes-per-param", po::value<double>(), "with --devices: optimizer state bytes per parameter (default 8, Adam fp32)")
      ("param-bytes", po::value<int>(), "with --devices: bytes of each parameter and of its gradient (default 4 fp32, 2 bf16)")
      ("recompute", po::value<std::string>(), "with --devices: none (default) | auto (every forward offers recomputation)")
      ("objective", po::value<std::string>()->default_value("bottleneck"), "bottleneck | pippy")
      ("tolerance", po::value<double>()->default_value(0.1, "0.1"),
       "pippy: every stage's parameter bytes within (1 +- X) * mean")
      ("max-param-bytes", po::value<long long>(), "at most B parameter bytes per stage (both objectives)")
      ("method", po::value<std::string>()->default_value("exact"),
       "exact (bound search with a proof) | dp (the contiguous-cut baseline alone)")
      ("backend", po::value<std::string>()->default_value("cadical"), "solver backend of the exact method: z3 | cadical")
      ("time-limit", po::value<double>()->default_value(0), "seconds for the exact method (0 = no limit)")
      ("output,o", po::value<std::string>(), "write the tessel.partition/1 here")
      ("placement-out", po::value<std::string>(), "write the stages as a tessel.placement/1 here")
      ("resolution", po::value<long long>()->default_value(0),
       "placement: compute units per step (0 = slowest stage / 4, so its forward is 4 steps)")
      ("backward-ratio", po::value<double>()->default_value(2.0), "placement: backward span / forward span")
      ("memory-unit", po::value<long long>()->default_value(0),
       "placement: activation bytes per memory unit (0 = the largest stage's activations)")
      ("check", po::value<std::string>(), "check this tessel.partition/1 against GRAPH instead (independent check)")
      ("json", po::bool_switch(), "print one JSON object instead of text");
  return options;
}

// What the flags ask, checked (bad input: an InputError naming the flag).
struct PartitionAsk {
  std::string graph_path;
  bool json = false;
  std::optional<PipelineOptions> pipeline;
  PartitionRequest request;
  std::string objective;
  std::string method;
  std::string backend;
  double time_limit = 0;
  StagePlacementOptions placement_options;
};

void read_objective(const po::variables_map& values, PartitionAsk& ask) {
  ask.objective = values["objective"].as<std::string>();
  if (ask.objective == "pippy") ask.request.objective = PartitionObjective::Pippy;
  else if (ask.objective != "bottleneck")
    throw InputError("", "--objective", "choose bottleneck or pippy, not '" + ask.objective + "'");
  ask.request.tolerance = values["tolerance"].as<double>();
  if (!(ask.request.tolerance >= 0 && ask.request.tolerance <= 1e6)) throw InputError("", "--tolerance", "must be >= 0");
  if (values.count("max-param-bytes")) {
    ask.request.max_param_bytes = values["max-param-bytes"].as<long long>();
    if (*ask.request.max_param_bytes < 0) throw InputError("", "--max-param-bytes", "must be >= 0");
  }
}

void read_method(const po::variables_map& values, PartitionAsk& ask) {
  ask.method = values["method"].as<std::string>();
  if (ask.method != "exact" && ask.method != "dp")
    throw InputError("", "--method", "choose exact or dp, not '" + ask.method + "'");
  ask.backend = values["backend"].as<std::string>();
  if (ask.backend != "z3" && ask.backend != "cadical")
    throw InputError("", "--backend", "choose z3 or cadical, not '" + ask.backend + "'");
  ask.time_limit = values["time-limit"].as<double>();
  if (!(ask.time_limit >= 0)) throw InputError("", "--time-limit", "must be >= 0");
}

void read_placement_options(const po::variables_map& values, PartitionAsk& ask) {
  StagePlacementOptions& placement_options = ask.placement_options;
  placement_options.resolution = values["resolution"].as<long long>();
  placement_options.backward_ratio = values["backward-ratio"].as<double>();
  placement_options.memory_unit = values["memory-unit"].as<long long>();
  if (placement_options.resolution < 0) throw InputError("", "--resolution", "must be >= 0");
  if (!(placement_options.backward_ratio > 0 && placement_options.backward_ratio < 1e6))
    throw InputError("", "--backward-ratio", "must be > 0");
  if (placement_options.memory_unit < 0) throw InputError("", "--memory-unit", "must be >= 0");
}

PartitionAsk partition_ask(const po::variables_map& values) {
  PartitionAsk ask;
  ask.graph_path = values["graph"].as<std::string>();
  ask.json = values["json"].as<bool>();
  require_writable_output(values, "output");
  require_writable_output(values, "placement-out");
  ask.pipeline = pipeline_from(values);
  if (!values.count("stages") && !ask.pipeline)
    throw InputError("", "--stages", "give the number of stages (or --devices)");
  ask.request.stages = ask.pipeline ? pipeline_stages(*ask.pipeline) : values["stages"].as<int>();
  if (ask.request.stages < 1 || ask.request.stages > 4096)
    throw InputError("", "--stages", "must be in [1, 4096], got " + std::to_string(ask.request.stages));
  read_objective(values, ask);
  read_method(values, ask);
  read_placement_options(values, ask);
  return ask;
}

// The partition's costs, its bound and the contiguous-cut baseline, as the
// JSON the command prints (the text is written from it too).
nlohmann::json result_json(const Graph& graph, const PartitionAsk& ask, const PartitionAnswer& answer,
                           const std::optional<PartitionCosts>& costs,
                           const std::optional<PartitionCosts>& baseline) {
  const PartitionRequest& request = ask.request;
  nlohmann::json result = {{"status", status_name(answer.status)},
                           {"stages", request.stages},
                           {"objective", ask.objective},
                           {"method", ask.method},
                           {"solve_seconds", seconds_to_json(answer.solve_seconds)},
                           {"proven_bound", answer.proven_bound}};
  if (ask.method == "exact") result["backend"] = ask.backend;
  if (!answer.reason.empty()) result["reason"] = answer.reason;
  if (costs) {
    result["stage_compute"] = costs->stage_compute;
    result["stage_param_bytes"] = costs->stage_param_bytes;
    result["communication_bytes"] = costs->communication_bytes;
    result["bottleneck"] = costs->bottleneck;
    result["ideal_bottleneck"] = static_cast<double>(total_compute(graph)) / request.stages;
    if (request.objective == PartitionObjective::Bottleneck)
      result["proven_communication_bound"] = answer.proven_communication_bound;
    long long value = primary_value(*costs, request.objective);
    result["gap"] = value <= 0 ? 0.0 : static_cast<double>(value - answer.proven_bound) / static_cast<double>(value);
  }
  if (baseline) {
    result["dp_bottleneck"] = baseline->bottleneck;
    result["dp_communication_bytes"] = baseline->communication_bytes;
    if (costs) {
      result["improvement_over_dp"] = {
          {"bottleneck", improvement(costs->bottleneck, baseline->bottleneck)},
          {"communication", improvement(costs->communication_bytes, baseline->communication_bytes)}};
    }
  }
  return result;
}

// --placement-out: the stages as a placement document (checked readable
// before anything is written); what it holds goes into the result.
nlohmann::json placement_document(const Graph& graph, const PartitionAsk& ask, const Partition& partition,
                                  const std::string& path, nlohmann::json& result) {
  if (ask.pipeline) {
    const PipelinePlacement staged = pipeline_placement(graph, partition, *ask.pipeline);
    nlohmann::json document = readable_placement(staged.placement, path, "more --devices hold fewer bytes each");
    result["placement"] = {{"resolution", staged.resolution}, {"memory_unit", 1},
                           {"memory_granule", staged.memory_granule}, {"mapping", mapping_name(ask.pipeline->mapping)},
                           {"static_bytes", staged.static_bytes}, {"blocks", staged.placement.blocks.size()}};
    if (!staged.weight_cost.empty()) result["placement"]["weight_cost"] = staged.weight_cost;
    return document;
  }
  const StagePlacement staged = stage_placement(graph, partition, ask.placement_options);
  nlohmann::json document = readable_placement(staged.placement, path, "a larger --memory-unit");
  result["placement"] = {{"resolution", staged.resolution}, {"memory_unit", staged.memory_unit},
                         {"blocks", staged.placement.blocks.size()}};
  return document;
}

// The partition checked by the independent checker, then written (-o,
// --placement-out).
void write_partition(const Graph& graph, const PartitionAsk& ask, const PartitionAnswer& answer,
                     const PartitionCosts& costs, const po::variables_map& values, nlohmann::json& result) {
  PartitionClaim claim;
  claim.objective = ask.method == "dp" ? "dp-" + ask.objective : ask.objective;
  claim.status = status_name(answer.status);
  claim.objective_value = primary_value(costs, ask.request.objective);
  claim.proven_bound = answer.proven_bound;
  claim.solve_seconds = answer.solve_seconds;
  nlohmann::json document = partition_to_json(graph, *answer.partition, claim);
  // The independent check judges what we are about to hand out.
  verify::PartitionReport check = verify::check_partition(graph_to_json(graph), document);
  if (!check.valid) throw std::logic_error("the partition failed the independent check: " + check.problems.front());
  result["checked"] = true;
  nlohmann::json placement;
  if (values.count("placement-out"))
    placement = placement_document(graph, ask, *answer.partition, values["placement-out"].as<std::string>(), result);
  if (values.count("output")) write_json_file(values["output"].as<std::string>(), document);
  if (values.count("placement-out")) write_json_file(values["placement-out"].as<std::string>(), placement);
}

void print_costs(const Graph& graph, const PartitionAsk& ask, const PartitionAnswer& answer,
                 const PartitionCosts& costs, const nlohmann::json& result) {
  const PartitionRequest& request = ask.request;
  std::cout << "stage compute:     " << list_text(costs.stage_compute) << "\n";
  std::cout << "stage param bytes: " << list_text(costs.stage_param_bytes) << "\n";
  std::cout << "bottleneck " << costs.bottleneck << " (ideal total/S " << std::setprecision(1)
            << static_cast<double>(total_compute(graph)) / request.stages << "), communication "
            << costs.communication_bytes << " bytes\n";
  std::cout << "proven bound of the " << (request.objective == PartitionObjective::Pippy ? "communication" : "bottleneck")
            << ": " << answer.proven_bound;
  if (answer.status != PartitionStatus::Optimal && answer.proven_bound == primary_value(costs, request.objective))
    std::cout << " (proven; the communication under it is not: >= " << answer.proven_communication_bound << ")";
  else if (answer.status != PartitionStatus::Optimal)
    std::cout << " (unproven: the partition is within " << std::setprecision(3) << 100.0 * result["gap"].get<double>()
              << "% of it)";
  std::cout << "\n";
}

void print_placement(const PartitionAsk& ask, const nlohmann::json& result) {
  if (!result.contains("placement")) return;
  const nlohmann::json& placement = result["placement"];
  std::cout << "placement: " << placement["blocks"] << " blocks, resolution " << placement["resolution"]
            << " compute/step, memory unit " << placement["memory_unit"] << " bytes\n";
  if (!ask.pipeline) return;
  std::cout << "placement: " << mapping_name(ask.pipeline->mapping) << " mapping on " << ask.pipeline->devices
            << " ranks, activations rounded up to " << placement["memory_granule"] << " bytes, static bytes per rank ["
            << list_text(placement["static_bytes"].get<std::vector<long long>>()) << "]"
            << (placement.contains("weight_cost") ? "; " + placement["weight_cost"].get<std::string>() : std::string())
            << "\n";
}

void print_text(const Graph& graph, const PartitionAsk& ask, const PartitionAnswer& answer,
                const std::optional<PartitionCosts>& costs, const std::optional<PartitionCosts>& baseline,
                const nlohmann::json& result) {
  std::cout << "graph " << graph.name << ": " << graph.nodes.size() << " nodes, " << graph.edges.size()
            << " edges, total compute " << total_compute(graph) << ", parameter bytes " << total_param_bytes(graph)
            << "\n";
  std::cout << "status: " << status_name(answer.status) << " (" << ask.objective << ", " << ask.method
            << (ask.method == "exact" ? ", " + ask.backend : "") << ", " << std::fixed << std::setprecision(3)
            << answer.solve_seconds << " s)\n";
  if (!answer.reason.empty()) std::cout << "reason: " << answer.reason << "\n";
  if (costs) print_costs(graph, ask, answer, *costs, result);
  if (baseline && costs && ask.method == "exact")
    std::cout << "dp baseline: bottleneck " << baseline->bottleneck << ", communication "
              << baseline->communication_bytes << " bytes; exact improves bottleneck by "
              << percent(costs->bottleneck, baseline->bottleneck) << ", communication by "
              << percent(costs->communication_bytes, baseline->communication_bytes) << "\n";
  if (!baseline && ask.method == "exact") std::cout << "dp baseline: no contiguous cut satisfies the request\n";
  print_placement(ask, result);
}

int exit_code(PartitionStatus status) {
  switch (status) {
    case PartitionStatus::Optimal:
    case PartitionStatus::Feasible: return kSuccess;
    case PartitionStatus::Infeasible: return kNegative;
    case PartitionStatus::Timeout: return kGaveUp;  // also dp finding no contiguous cut: not a proof
  }
  return kInternal;
}

int partition(const po::variables_map& values) {
  if (!values.count("graph")) throw InputError("", "GRAPH", "give the tessel.graph/1 file");
  if (values.count("check"))
    return run_check(values["graph"].as<std::string>(), values["check"].as<std::string>(), values["json"].as<bool>());
  const PartitionAsk ask = partition_ask(values);
  Graph graph = read_graph_file(ask.graph_path);
  PartitionProgress progress = [](const std::string& text) { std::cerr << "partition: " << text << "\n"; };
  // SIGINT/SIGTERM raise the stop flag: the search hands back its best
  // partition as at the time limit (exit 3), which is then written.
  const StopFlag* stop = install_interrupt_handlers();
  PartitionAnswer answer = solve_partition(
      graph, ask.request, ask.method, ask.backend,
      ask.time_limit > 0 ? Deadline::after_seconds(ask.time_limit, stop) : Deadline::none(stop), progress);
  if (stop->load() && answer.status == PartitionStatus::Timeout) {
    answer.reason = "interrupted; the partition is the best found, not proven optimal";
    std::cerr << "tessel partition: interrupted: writing the best partition found\n";
  }
  std::optional<PartitionCosts> costs, baseline;
  if (answer.partition) costs = partition_costs(graph, *answer.partition);
  if (answer.baseline) baseline = partition_costs(graph, *answer.baseline);
  nlohmann::json result = result_json(graph, ask, answer, costs, baseline);
  if (answer.partition) write_partition(graph, ask, answer, *costs, values, result);
  if (ask.json) std::cout << result.dump(2) << "\n";
  else print_text(graph, ask, answer, costs, baseline, result);
  return exit_code(answer.status);
}

}  // namespace

int run_partition(int argc, char** argv) {
  po::options_description options = partition_options();
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map values;
  if (auto code = parse(argc, argv, kUsage, options, positional, values)) return *code;
  return guarded("partition", [&]() -> int { return partition(values); });
}

}  // namespace tessel::cli
