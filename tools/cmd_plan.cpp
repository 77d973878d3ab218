// `tessel plan` (docs/plan.md): from an operator graph (tessel_fx.py's
// tessel.graph/1) to the files a PyTorch run needs, in one command. Parses
// the options, calls plan_pipeline (plan/plan.hpp), writes the directory
// and prints the numbers; the pipeline itself lives in the library.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/quantity.hpp"
#include "model/output_file.hpp"
#include "plan/plan.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/interrupt.hpp"
#include "tools/search_note_text.hpp"

namespace tessel::cli {

namespace {

const char* kUsage =
    "tessel plan GRAPH --devices D --memory LIMIT [--mapping chain|interleaved|v|auto] [--chunks V]\n"
    "            [--split-backward] [--param-bytes B] [--optimizer-bytes-per-param X] [--nmicros N]\n"
    "            [--device-flops F] [--link-bandwidth BYTES_PER_S] [--link-latency SECONDS]\n"
    "            [--recompute none|auto|all] [--offload none|auto --host-bandwidth BYTES_PER_S]\n"
    "            [--time-limit SECONDS] [--backend cadical|z3] [--threads T] -o DIR [--json] [--quiet]\n\n"
    "Partition GRAPH into D x chunks stages, map them on D ranks (chain: stage s on rank s;\n"
    "interleaved: stage c*D+r on rank r; v: 0..D-1 down then back up, 2 chunks), cost every\n"
    "block (spans from the graph's compute, activation memory in bytes, static memory =\n"
    "parameters and gradients at B bytes each, default 4, + X bytes of optimizer state per\n"
    "parameter, default 8, per rank), search the best makespan at N\n"
    "micro-batches (default 16) and verify it. --memory is DEVICE memory per rank in bytes:\n"
    "40GiB, 2e9, or one per rank (8GiB,8GiB,6GiB,6GiB); static memory counts against it.\n"
    "--mapping auto plans chain, interleaved (2 chunks, 4 when the graph is large enough) and\n"
    "v, each with and without split backward, and writes the fastest. Every plan first builds\n"
    "the 1F1B chain (and with split backward the ZB-H1 chain) from its textbook order, the\n"
    "yardstick of every ratio, searches the chains briefly, and writes a chain when the asked\n"
    "mapping's search finds nothing faster (it says so): never slower than 1F1B.\n"
    "Times are GFLOP of compute unless --device-flops F (FLOP/s per device) or a graph traced\n"
    "with --profile makes them seconds; --link-bandwidth B adds bytes / B (+ --link-latency)\n"
    "to every activation and gradient between ranks. Reports say milliseconds per step.\n"
    "--recompute auto lets every forward offer to be run again before its stage's backward\n"
    "(span: the stage's forward compute; kept: the stage's input activations) and the search\n"
    "chooses per micro-batch, each mapping also searched recomputing everything as all does\n"
    "(half its share, first); all recomputes every micro-batch of every stage; none (default)\n"
    "keeps every activation. --offload auto --host-bandwidth B (12GB/s, 1.2e10) offers copying\n"
    "each stage's activation to host memory and back (each copy bytes / B; needs seconds);\n"
    "the memory-trading list scheduler may choose it where it pays.\n"
    "The chosen recomputes and copies are in schedule.json, in stages.json (each stage's\n"
    "micro-batches) and in memory_choices.json; PyTorch's CSV has no recompute or copy action\n"
    "(docs/plan.md); tessel run reads memory_choices.json (docs/runtime.md).\n"
    "Writes DIR/stages.json (operators and modules of each stage), placement.json,\n"
    "schedule.json, schedule.csv (PyTorch's compute-only action table), schedule_comms.csv\n"
    "(with SEND/RECV), schedule.svg, report.md and memory_choices.json; --json prints one\n"
    "JSON object.\n"
    "Exit: 0 planned, 1 no schedule fits the memory (proven; the reason is printed), 2 bad\n"
    "input, 3 time limit or interrupt (the best schedule so far is written), 4 internal error.";

// "12GB/s", "1.2e10", "512MiB/s": bytes per second.
double bandwidth_from(const std::string& text) {
  std::string bytes = text;
  if (bytes.size() > 2 && bytes.compare(bytes.size() - 2, 2, "/s") == 0) bytes.resize(bytes.size() - 2);
  std::optional<Decimal> value = parse_quantity(bytes);
  if (!value || value->digits <= 0)
    throw InputError("", "--host-bandwidth", "give bytes per second > 0 (12GB/s, 1.2e10), not '" + text + "'");
  return static_cast<double>(value->digits) / static_cast<double>(power_of_ten(value->decimals));
}

// --recompute and --offload (docs/plan.md, "Recompute and offload").
void trade_options(const po::variables_map& values, PlanRequest& request) {
  const std::string recompute = values["recompute"].as<std::string>();
  std::optional<RecomputeMode> mode = parse_recompute_mode(recompute);
  if (!mode) {
    std::string near = nearest_name(recompute, {"none", "auto", "all"});
    throw InputError("", "--recompute", "choose none, auto or all, not '" + recompute + "'" +
                                            (near.empty() ? "" : " (did you mean " + near + "?)"));
  }
  request.pipeline.recompute = *mode;
  const std::string offload = values["offload"].as<std::string>();
  if (offload != "none" && offload != "auto") {
    std::string near = nearest_name(offload, {"none", "auto"});
    throw InputError("", "--offload", "choose none or auto, not '" + offload + "'" +
                                          (near.empty() ? "" : " (did you mean " + near + "?)"));
  }
  if (offload == "auto" && !values.count("host-bandwidth"))
    throw InputError("", "--offload", "auto needs --host-bandwidth B (bytes/s between a device and host memory, e.g. 12GB/s)");
  if (offload == "none" && values.count("host-bandwidth"))
    throw InputError("", "--host-bandwidth", "is the speed of offload's copies: give --offload auto too");
  if (offload == "auto") request.host_bandwidth = bandwidth_from(values["host-bandwidth"].as<std::string>());
}

PlanRequest request_from(const po::variables_map& values) {
  PlanRequest request;
  request.search_words = search_message_text;
  PipelineOptions& pipeline = request.pipeline;
  if (!values.count("devices")) throw InputError("", "--devices", "give the number of ranks D");
  pipeline.devices = values["devices"].as<int>();
  std::string mapping = values["mapping"].as<std::string>();
  std::optional<StageMapping> parsed = parse_mapping(mapping);
  request.auto_mapping = mapping == "auto";
  if (!parsed && !request.auto_mapping)
    throw InputError("", "--mapping", "choose chain, interleaved, v or auto, not '" + mapping + "'");
  if (request.auto_mapping && (values.count("chunks") || values["split-backward"].as<bool>()))
    throw InputError("", "--mapping", "auto chooses the chunks and the split backward itself; drop --chunks and --split-backward");
  pipeline.mapping = parsed.value_or(StageMapping::Chain);
  pipeline.chunks = values.count("chunks") ? values["chunks"].as<int>() : pipeline.mapping == StageMapping::Chain ? 1 : 2;
  pipeline.split_backward = values["split-backward"].as<bool>();
  pipeline.optimizer_bytes_per_param = values["optimizer-bytes-per-param"].as<double>();
  pipeline.bytes_per_param = values["param-bytes"].as<int>();
  std::string problem = pipeline_options_problem(pipeline);
  if (!problem.empty())
    throw InputError("", problem.find("chunk") != std::string::npos        ? "--chunks"
                         : problem.find("optimizer bytes") != std::string::npos   ? "--optimizer-bytes-per-param"
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
  request.device_flops = values["device-flops"].as<double>();
  request.link_bandwidth = values["link-bandwidth"].as<double>();
  request.link_latency = values["link-latency"].as<double>();
  if (values.count("device-flops") && !values["device-flops"].defaulted() && !(request.device_flops > 0))
    throw InputError("", "--device-flops", "must be > 0 FLOP/s");
  if (values.count("link-bandwidth") && !values["link-bandwidth"].defaulted() && !(request.link_bandwidth > 0))
    throw InputError("", "--link-bandwidth", "must be > 0 bytes/s");
  trade_options(values, request);
  return request;
}

void print_summary(const PlanRequest& request, const PlanAnswer& answer, const std::string& directory) {
  const PlanResult& result = answer.chosen;
  std::cout << plan_label(result.pipeline) << " on " << result.pipeline.devices << " ranks, "
            << pipeline_stages(result.pipeline) << " stages (" << cut_name(result.cut) << " cut), N = "
            << request.nmicros << ": ";
  if (!result.schedule) {
    std::cout << "no schedule: " << (answer.message.empty() ? result.message : answer.message) << "\n";
    return;
  }
  std::cout << "makespan " << format_makespan(result.makespan, answer.clock);
  if (answer.one_f_one_b)
    std::cout << ", " << std::fixed << std::setprecision(2) << result.makespan / *answer.one_f_one_b << "x of 1F1B";
  else
    std::cout << " (the 1F1B chain does not fit: " << answer.one_f_one_b_note << ")";
  std::cout << std::defaultfloat << ", bubble ratio " << std::fixed << std::setprecision(3) << result.bubble_ratio
            << std::defaultfloat << " (" << outcome_name(answer.outcome) << ", verified; " << result.construction << ")\n";
  if (!answer.choice.empty()) std::cout << answer.choice << "\n";
  if (result.pipeline.recompute != RecomputeMode::None || request.host_bandwidth > 0)
    std::cout << "memory traded (--recompute " << recompute_mode_name(result.pipeline.recompute) << "): "
              << plan_choices_text(*result.schedule, result.clock) << "\n";
  for (const PlanRow& row : answer.compared) {
    std::cout << "  " << row.label << ": ";
    if (row.makespan && answer.one_f_one_b)
      std::cout << std::fixed << std::setprecision(2) << *row.makespan / *answer.one_f_one_b << std::defaultfloat
                << "x of 1F1B (" << format_makespan(*row.makespan, answer.clock) << ", " << row.construction << ")";
    else if (row.makespan)
      std::cout << format_makespan(*row.makespan, answer.clock) << " (" << row.construction << ")";
    else
      std::cout << row.status << ": " << row.note;
    std::cout << "\n";
  }
  std::cout << "wrote " << directory << "/{stages.json, placement.json, schedule.json, schedule.csv, "
            << "schedule_comms.csv, schedule.svg, report.md, memory_choices.json}\n";
}

}  // namespace

int run_plan(int argc, char** argv) {
  po::options_description options("plan options");
  options.add_options()
      ("graph", po::value<std::string>(), "the tessel.graph/1 file (positional)")
      ("devices", po::value<int>(), "ranks D")
      ("mapping", po::value<std::string>()->default_value("chain"), "chain | interleaved | v | auto")
      ("chunks", po::value<int>(), "stages per rank (default 1 for chain, 2 for interleaved and v)")
      ("split-backward", po::bool_switch(), "input-gradient (I) and weight-gradient (W) blocks per stage")
      ("optimizer-bytes-per-param", po::value<double>()->default_value(8, "8"),
       "optimizer state bytes per parameter (8 = Adam in fp32)")
      ("param-bytes", po::value<int>()->default_value(4), "bytes of each parameter and of its gradient (4 fp32, 2 bf16)")
      ("memory", po::value<std::string>(), "device memory per rank: 40GiB, 2e9, or one per rank")
      ("nmicros", po::value<int>()->default_value(16), "micro-batches N per step")
      ("time-limit", po::value<double>()->default_value(60, "60"), "seconds for the whole plan")
      ("device-flops", po::value<double>()->default_value(0, "none"), "FLOP/s of one device: times in seconds")
      ("link-bandwidth", po::value<double>()->default_value(0, "none"), "bytes/s between ranks: transfers as delays")
      ("link-latency", po::value<double>()->default_value(0, "0"), "seconds per transfer (with --link-bandwidth)")
      ("recompute", po::value<std::string>()->default_value("none"),
       "none | auto (the search chooses per micro-batch) | all (every micro-batch of every stage)")
      ("offload", po::value<std::string>()->default_value("none"), "none | auto (forwards offer copies to host memory)")
      ("host-bandwidth", po::value<std::string>(), "bytes/s to host memory for --offload auto: 12GB/s, 1.2e10")
      ("json", po::bool_switch(), "print one JSON object (mapping, makespan, bound, status, memory, files, comparison)")
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
    const bool quiet = values["quiet"].as<bool>();
    const auto begin = std::chrono::steady_clock::now();
    PlanAnswer answer = plan_pipeline(graph, request, [&](const std::string& line) {
      if (!quiet) std::cerr << "plan: " << line << std::endl;
    });
    const bool written = answer.chosen.schedule.has_value();
    if (written) write_plan_files(graph, request, answer, directory);
    if (!quiet && written)
      std::cerr << "plan: [" << std::fixed << std::setprecision(1)
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() << " s] files: "
                << directory << " written" << std::defaultfloat << std::endl;
    if (values["json"].as<bool>()) std::cout << plan_json(request, answer, directory).dump(1) << "\n";
    else print_summary(request, answer, directory);
    if (!written && answer.outcome == Outcome::Infeasible) {
      std::cerr << "tessel plan: no schedule: " << answer.message << "\n";
      return kNegative;
    }
    if (answer.outcome == Outcome::Timeout && !request.deadline.expired()) {
      // Given up before the limit: a search that proves nothing (--recompute
      // all under its lowered limits, mixed choices not searched, an answer
      // that could not be written at N).
      std::cerr << "tessel plan: " << (written ? "the plan asked was not decided, none proven impossible: " +
                                                     answer.message + "; the plan is written"
                                               : "no schedule found, and none is proven impossible: " + answer.message)
                << "\n";
      return kGaveUp;
    }
    if (answer.outcome == Outcome::Timeout || answer.outcome == Outcome::Interrupted) {
      std::cerr << "tessel plan: " << (answer.outcome == Outcome::Timeout ? "time limit" : "interrupted") << ": "
                << (written ? answer.message + "; the plan is written"
                            : std::string("no schedule found yet; try a longer --time-limit"))
                << "\n";
      return kGaveUp;
    }
    return kSuccess;
  });
}

}  // namespace tessel::cli
