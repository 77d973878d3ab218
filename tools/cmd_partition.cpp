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
    "       [--split-backward] [--param-bytes B] [--optimizer-bytes-per-param X]) [--objective bottleneck|pippy]\n"
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
    "input-gradient (I) and a weight-gradient (W) block per stage instead of one backward (B).\n"
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

// The --devices options, or nullopt without --devices (the --stages path).
std::optional<PipelineOptions> pipeline_from(const po::variables_map& values) {
  for (const char* name : {"mapping", "chunks", "split-backward", "optimizer-bytes-per-param", "param-bytes"}) {
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

}  // namespace

int run_partition(int argc, char** argv) {
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
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map values;
  if (auto code = parse(argc, argv, kUsage, options, positional, values)) return *code;

  return guarded("partition", [&]() -> int {
    if (!values.count("graph")) throw InputError("", "GRAPH", "give the tessel.graph/1 file");
    const std::string graph_path = values["graph"].as<std::string>();
    const bool json = values["json"].as<bool>();
    if (values.count("check")) return run_check(graph_path, values["check"].as<std::string>(), json);

    require_writable_output(values, "output");
    require_writable_output(values, "placement-out");
    std::optional<PipelineOptions> pipeline = pipeline_from(values);
    if (!values.count("stages") && !pipeline) throw InputError("", "--stages", "give the number of stages (or --devices)");
    PartitionRequest request;
    request.stages = pipeline ? pipeline_stages(*pipeline) : values["stages"].as<int>();
    if (request.stages < 1 || request.stages > 4096)
      throw InputError("", "--stages", "must be in [1, 4096], got " + std::to_string(request.stages));
    std::string objective = values["objective"].as<std::string>();
    if (objective == "pippy") request.objective = PartitionObjective::Pippy;
    else if (objective != "bottleneck") throw InputError("", "--objective", "choose bottleneck or pippy, not '" + objective + "'");
    request.tolerance = values["tolerance"].as<double>();
    if (!(request.tolerance >= 0 && request.tolerance <= 1e6)) throw InputError("", "--tolerance", "must be >= 0");
    if (values.count("max-param-bytes")) {
      request.max_param_bytes = values["max-param-bytes"].as<long long>();
      if (*request.max_param_bytes < 0) throw InputError("", "--max-param-bytes", "must be >= 0");
    }
    std::string method = values["method"].as<std::string>();
    if (method != "exact" && method != "dp") throw InputError("", "--method", "choose exact or dp, not '" + method + "'");
    std::string backend = values["backend"].as<std::string>();
    if (backend != "z3" && backend != "cadical") throw InputError("", "--backend", "choose z3 or cadical, not '" + backend + "'");
    double time_limit = values["time-limit"].as<double>();
    if (!(time_limit >= 0)) throw InputError("", "--time-limit", "must be >= 0");
    StagePlacementOptions placement_options;
    placement_options.resolution = values["resolution"].as<long long>();
    placement_options.backward_ratio = values["backward-ratio"].as<double>();
    placement_options.memory_unit = values["memory-unit"].as<long long>();
    if (placement_options.resolution < 0) throw InputError("", "--resolution", "must be >= 0");
    if (!(placement_options.backward_ratio > 0 && placement_options.backward_ratio < 1e6))
      throw InputError("", "--backward-ratio", "must be > 0");
    if (placement_options.memory_unit < 0) throw InputError("", "--memory-unit", "must be >= 0");

    Graph graph = read_graph_file(graph_path);
    PartitionProgress progress = [](const std::string& text) { std::cerr << "partition: " << text << "\n"; };
    // SIGINT/SIGTERM raise the stop flag: the search hands back its best
    // partition as at the time limit (exit 3), which is then written.
    const StopFlag* stop = install_interrupt_handlers();
    PartitionAnswer answer = solve_partition(
        graph, request, method, backend,
        time_limit > 0 ? Deadline::after_seconds(time_limit, stop) : Deadline::none(stop), progress);
    if (stop->load() && answer.status == PartitionStatus::Timeout) {
      answer.reason = "interrupted; the partition is the best found, not proven optimal";
      std::cerr << "tessel partition: interrupted: writing the best partition found\n";
    }

    nlohmann::json result = {{"status", status_name(answer.status)},
                             {"stages", request.stages},
                             {"objective", objective},
                             {"method", method},
                             {"solve_seconds", answer.solve_seconds},
                             {"proven_bound", answer.proven_bound}};
    if (method == "exact") result["backend"] = backend;
    if (!answer.reason.empty()) result["reason"] = answer.reason;
    std::optional<PartitionCosts> costs, baseline;
    if (answer.partition) costs = partition_costs(graph, *answer.partition);
    if (answer.baseline) baseline = partition_costs(graph, *answer.baseline);
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

    if (answer.partition) {
      PartitionClaim claim;
      claim.objective = method == "dp" ? "dp-" + objective : objective;
      claim.status = status_name(answer.status);
      claim.objective_value = primary_value(*costs, request.objective);
      claim.proven_bound = answer.proven_bound;
      claim.solve_seconds = answer.solve_seconds;
      nlohmann::json document = partition_to_json(graph, *answer.partition, claim);
      // The independent check judges what we are about to hand out.
      verify::PartitionReport check = verify::check_partition(graph_to_json(graph), document);
      if (!check.valid) throw std::logic_error("the partition failed the independent check: " + check.problems.front());
      result["checked"] = true;
      std::optional<PipelinePlacement> piped;
      std::optional<StagePlacement> staged_chain;
      nlohmann::json placement_document;
      if (values.count("placement-out")) {
        const std::string path = values["placement-out"].as<std::string>();
        if (pipeline) piped = pipeline_placement(graph, *answer.partition, *pipeline);
        else staged_chain = stage_placement(graph, *answer.partition, placement_options);
        placement_document = piped ? readable_placement(piped->placement, path, "more --devices hold fewer bytes each")
                                   : readable_placement(staged_chain->placement, path, "a larger --memory-unit");
      }
      if (values.count("output")) write_json_file(values["output"].as<std::string>(), document);
      if (values.count("placement-out")) {
        if (pipeline) {
          const PipelinePlacement& staged = *piped;
          write_json_file(values["placement-out"].as<std::string>(), placement_document);
          result["placement"] = {{"resolution", staged.resolution}, {"memory_unit", 1},
                                 {"memory_granule", staged.memory_granule}, {"mapping", mapping_name(pipeline->mapping)},
                                 {"static_bytes", staged.static_bytes}, {"blocks", staged.placement.blocks.size()}};
          if (!staged.weight_cost.empty()) result["placement"]["weight_cost"] = staged.weight_cost;
        } else {
          const StagePlacement& staged = *staged_chain;
          write_json_file(values["placement-out"].as<std::string>(), placement_document);
          result["placement"] = {{"resolution", staged.resolution}, {"memory_unit", staged.memory_unit},
                                 {"blocks", staged.placement.blocks.size()}};
        }
      }
    }

    if (json) {
      std::cout << result.dump(2) << "\n";
    } else {
      std::cout << "graph " << graph.name << ": " << graph.nodes.size() << " nodes, " << graph.edges.size()
                << " edges, total compute " << total_compute(graph) << ", parameter bytes " << total_param_bytes(graph)
                << "\n";
      std::cout << "status: " << status_name(answer.status) << " (" << objective << ", " << method
                << (method == "exact" ? ", " + backend : "") << ", " << std::fixed << std::setprecision(3)
                << answer.solve_seconds << " s)\n";
      if (!answer.reason.empty()) std::cout << "reason: " << answer.reason << "\n";
      if (costs) {
        std::cout << "stage compute:     " << list_text(costs->stage_compute) << "\n";
        std::cout << "stage param bytes: " << list_text(costs->stage_param_bytes) << "\n";
        std::cout << "bottleneck " << costs->bottleneck << " (ideal total/S "
                  << std::setprecision(1) << static_cast<double>(total_compute(graph)) / request.stages
                  << "), communication " << costs->communication_bytes << " bytes\n";
        std::cout << "proven bound of the " << (request.objective == PartitionObjective::Pippy ? "communication" : "bottleneck")
                  << ": " << answer.proven_bound;
        if (answer.status != PartitionStatus::Optimal && answer.proven_bound == primary_value(*costs, request.objective))
          std::cout << " (proven; the communication under it is not: >= " << answer.proven_communication_bound << ")";
        else if (answer.status != PartitionStatus::Optimal)
          std::cout << " (unproven: the partition is within " << std::setprecision(3)
                    << 100.0 * result["gap"].get<double>() << "% of it)";
        std::cout << "\n";
      }
      if (baseline && costs && method == "exact")
        std::cout << "dp baseline: bottleneck " << baseline->bottleneck << ", communication "
                  << baseline->communication_bytes << " bytes; exact improves bottleneck by "
                  << percent(costs->bottleneck, baseline->bottleneck) << ", communication by "
                  << percent(costs->communication_bytes, baseline->communication_bytes) << "\n";
      if (!baseline && method == "exact") std::cout << "dp baseline: no contiguous cut satisfies the request\n";
      if (result.contains("placement"))
        std::cout << "placement: " << result["placement"]["blocks"] << " blocks, resolution " << result["placement"]["resolution"]
                  << " compute/step, memory unit " << result["placement"]["memory_unit"] << " bytes\n";
      if (result.contains("placement") && pipeline)
        std::cout << "placement: " << mapping_name(pipeline->mapping) << " mapping on " << pipeline->devices
                  << " ranks, activations rounded up to " << result["placement"]["memory_granule"]
                  << " bytes, static bytes per rank [" << list_text(result["placement"]["static_bytes"].get<std::vector<long long>>()) << "]"
                  << (result["placement"].contains("weight_cost")
                          ? "; " + result["placement"]["weight_cost"].get<std::string>() : std::string())
                  << "\n";
    }
    switch (answer.status) {
      case PartitionStatus::Optimal:
      case PartitionStatus::Feasible: return kSuccess;
      case PartitionStatus::Infeasible: return kNegative;
      case PartitionStatus::Timeout: return kGaveUp;  // also dp finding no contiguous cut: not a proof
    }
    return kInternal;
  });
}

}  // namespace tessel::cli
