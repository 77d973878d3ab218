// `tessel plan` (docs/plan.md): from an operator graph (tessel_fx.py's
// tessel.graph/1) to the files a PyTorch run needs, in one command. Parses
// the options, calls plan_pipeline (plan/plan.hpp), writes the directory
// and prints the numbers; the pipeline itself lives in the library.
#include <iomanip>
#include <iostream>

#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "model/output_file.hpp"
#include "plan/plan.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/interrupt.hpp"
#include "tools/search_progress.hpp"

namespace tessel::cli {

namespace {

const char* kUsage =
    "tessel plan GRAPH --devices D --memory LIMIT [--mapping chain|interleaved|v] [--chunks V]\n"
    "            [--split-backward] [--param-bytes B] [--optimizer-bytes-per-param X] [--nmicros N]\n"
    "            [--time-limit SECONDS] [--backend cadical|z3] [--threads T] -o DIR [--quiet]\n\n"
    "Partition GRAPH into D x chunks stages, map them on D ranks (chain: stage s on rank s;\n"
    "interleaved: stage c*D+r on rank r; v: 0..D-1 down then back up, 2 chunks), cost every\n"
    "block (spans from the graph's compute, activation memory in bytes, static memory =\n"
    "parameters and gradients at B bytes each, default 4, + X bytes of optimizer state per\n"
    "parameter, default 8, per rank), search the best makespan at N\n"
    "micro-batches (default 16) and verify it. --memory is DEVICE memory per rank in bytes:\n"
    "40GiB, 2e9, or one per rank (8GiB,8GiB,6GiB,6GiB); static memory counts against it.\n"
    "Writes DIR/placement.json, schedule.json, schedule.csv (PyTorch's compute-only action\n"
    "table), schedule_comms.csv (with SEND/RECV), schedule.svg and report.md.\n"
    "Exit: 0 planned, 1 no schedule fits the memory (proven; the reason is printed), 2 bad\n"
    "input, 3 time limit or interrupt (the best schedule so far is written), 4 internal error.";

PlanRequest request_from(const po::variables_map& values) {
  PlanRequest request;
  PipelineOptions& pipeline = request.pipeline;
  if (!values.count("devices")) throw InputError("", "--devices", "give the number of ranks D");
  pipeline.devices = values["devices"].as<int>();
  std::string mapping = values["mapping"].as<std::string>();
  std::optional<StageMapping> parsed = parse_mapping(mapping);
  if (!parsed) throw InputError("", "--mapping", "choose chain, interleaved or v, not '" + mapping + "'");
  pipeline.mapping = *parsed;
  pipeline.chunks = values.count("chunks") ? values["chunks"].as<int>() : pipeline.mapping == StageMapping::Chain ? 1 : 2;
  pipeline.split_backward = values["split-backward"].as<bool>();
  pipeline.optimizer_bytes_per_param = values["optimizer-bytes-per-param"].as<double>();
  pipeline.bytes_per_param = values["param-bytes"].as<int>();
  std::string problem = pipeline_options_problem(pipeline);
  if (!problem.empty())
    throw InputError("", problem.find("chunk") != std::string::npos        ? "--chunks"
                         : problem.find("bytes per parameter") != std::string::npos ? "--param-bytes"
                                                                                     : "--devices",
                     problem);
  if (!values.count("memory"))
    throw InputError("", "--memory", "give the device memory per rank (40GiB, 2e9, or one per rank)");
  request.memory = values["memory"].as<std::string>();
  request.nmicros = values["nmicros"].as<int>();
  if (request.nmicros < 1 || request.nmicros > 4096) throw InputError("", "--nmicros", "must be in [1, 4096]");
  double seconds = values["time-limit"].as<double>();
  if (!(seconds > 0)) throw InputError("", "--time-limit", "must be > 0 seconds");
  request.deadline = Deadline::after_seconds(seconds, install_interrupt_handlers());
  request.backend = values["backend"].as<std::string>();
  if (request.backend != "cadical" && request.backend != "z3")
    throw InputError("", "--backend", "choose cadical or z3, not '" + request.backend + "'");
  request.threads = values["threads"].as<int>();
  if (request.threads < 0) throw InputError("", "--threads", "must be >= 0");
  return request;
}

void print_summary(const PlanRequest& request, const PlanResult& result, const std::string& directory) {
  std::cout << mapping_name(request.pipeline.mapping) << " on " << request.pipeline.devices << " ranks, "
            << pipeline_stages(request.pipeline) << " stages (" << cut_name(result.cut) << " cut), N = "
            << request.nmicros << ": ";
  if (!result.schedule) {
    std::cout << "no schedule: " << result.message << "\n";
    return;
  }
  std::cout << "makespan " << result.makespan << " steps = " << std::setprecision(6) << result.makespan_compute
            << " compute, bubble ratio " << std::fixed << std::setprecision(3) << result.bubble_ratio << " ("
            << outcome_name(result.outcome) << ", verified)\n";
  std::cout << "wrote " << directory << "/{placement.json, schedule.json, schedule.csv, schedule_comms.csv, "
            << "schedule.svg, report.md}\n";
}

}  // namespace

int run_plan(int argc, char** argv) {
  po::options_description options("plan options");
  options.add_options()
      ("graph", po::value<std::string>(), "the tessel.graph/1 file (positional)")
      ("devices", po::value<int>(), "ranks D")
      ("mapping", po::value<std::string>()->default_value("chain"), "chain | interleaved | v")
      ("chunks", po::value<int>(), "stages per rank (default 1 for chain, 2 for interleaved and v)")
      ("split-backward", po::bool_switch(), "input-gradient (I) and weight-gradient (W) blocks per stage")
      ("optimizer-bytes-per-param", po::value<double>()->default_value(8, "8"),
       "optimizer state bytes per parameter (8 = Adam in fp32)")
      ("param-bytes", po::value<int>()->default_value(4), "bytes of each parameter and of its gradient (4 fp32, 2 bf16)")
      ("memory", po::value<std::string>(), "device memory per rank: 40GiB, 2e9, or one per rank")
      ("nmicros", po::value<int>()->default_value(16), "micro-batches N per step")
      ("time-limit", po::value<double>()->default_value(60, "60"), "seconds for the whole plan")
      ("backend", po::value<std::string>()->default_value("cadical"), "cadical | z3")
      ("threads", po::value<int>()->default_value(0), "solver threads (0 = every core)")
      ("output,o", po::value<std::string>(), "the directory to write")
      ("quiet", po::bool_switch(), "no progress lines");
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map values;
  if (auto code = parse(argc, argv, kUsage, options, positional, values)) return *code;

  return guarded("plan", [&]() -> int {
    if (!values.count("graph")) throw InputError("", "GRAPH", "give the tessel.graph/1 file");
    if (!values.count("output")) throw InputError("", "-o", "give the directory to write (-o DIR)");
    PlanRequest request = request_from(values);
    Graph graph = read_graph_file(values["graph"].as<std::string>());
    const std::string directory = values["output"].as<std::string>();
    check_output_directory(directory, "-o");  // before the search, not after
    SearchProgress progress(values["quiet"].as<bool>(), {});
    PlanResult result;
    try {
      result = plan_pipeline(graph, request, progress);
    } catch (const InputError& error) {
      progress.finish();
      throw;
    }
    progress.finish();
    if (result.schedule) write_plan_files(graph, request, result, directory);
    print_summary(request, result, directory);
    if (!result.schedule && result.outcome == Outcome::Infeasible) {
      std::cerr << "tessel plan: no schedule: " << result.message << "\n";
      return kNegative;
    }
    if (result.outcome == Outcome::Timeout || result.outcome == Outcome::Interrupted) {
      std::cerr << "tessel plan: " << (result.outcome == Outcome::Timeout ? "time limit" : "interrupted") << ": "
                << result.message << (result.schedule ? " (the best schedule so far is written)" : "") << "\n";
      return kGaveUp;
    }
    return kSuccess;
  });
}

}  // namespace tessel::cli
