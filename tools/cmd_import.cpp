// `tessel import --from FORMAT FILE`: schedules of other tools as
// tessel.schedule/1 — the Python Tessel's saved plans (with a placement),
// PyTorch pipelining action tables and Megatron-LM orders (timed by running
// each rank's order as soon as possible; a table that can never run is a
// deadlock, exit 1).
#include <iostream>

#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/tessel_json.hpp"
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
    "tessel import --from FORMAT FILE [-o OUT] [--report] [options]\n\n"
    "FORMAT:\n"
    "  pytorch-csv     torch.distributed.pipelining's action table (_dump_csv): one row per\n"
    "                  rank, cells like 0F1, 1I0, 2W3, 1B0. --dialect current (default): B is\n"
    "                  the full backward (I + W); legacy (PyTorch ~2.4/2.5): B is the input\n"
    "                  backward of a stage that also has W cells. Stage -> rank is where each\n"
    "                  stage appears. --span keys F,B,I,W in the current meaning (default\n"
    "                  F=1,I=1,W=1,B=I+W); --memory keys F,B,I,W (default F=1,B=-1,I=0,W=-1).\n"
    "                  Non-compute cells (SEND_F, RECV_B, UNSHARD, ...) are ignored.\n"
    "  megatron-order  a JSON list of per-rank lists of Megatron's order (+k forward of chunk\n"
    "                  k-1, -k backward); --chunks V (default: largest k), --nmicros M (default:\n"
    "                  forwards of chunk 1 on rank 0); --span/--memory as for generate (keys\n"
    "                  F,B,W; W splits the backward).\n"
    "  tessel-json     the Python Tessel's SchedPlan.save() file; the dependencies come from\n"
    "                  the placement (--case NAME --ndevs D [--infer] or --placement FILE);\n"
    "                  the file has no memory limit: give --memory-limit, else unlimited.\n"
    "Orders are run as soon as possible. An order that can never run is a deadlock: the\n"
    "message names every stuck rank, its next action and what it waits for (exit 1).\n"
    "The memory limit written is the peak the schedule needs per device, or --memory-limit;\n"
    "its steady state, if any, is written as its repetend.\n"
    "The schedule goes to -o OUT, else to stdout; --report runs the verifier and prints\n"
    "makespan, bubble ratio and peak memory per device on stderr (exit 1 if invalid)";

Schedule import_pytorch(const po::variables_map& values, const std::string& file) {
  std::string dialect_name = values["dialect"].as<std::string>();
  if (dialect_name != "current" && dialect_name != "legacy")
    throw InputError("", "--dialect", "expected current or legacy, got '" + dialect_name + "'");
  PytorchDialect dialect = dialect_name == "current" ? PytorchDialect::current : PytorchDialect::legacy;
  PytorchTable table = read_pytorch_csv_file(file, dialect);
  classic::StageCosts costs = pytorch_costs(optional_text(values, "span"), optional_text(values, "memory"));
  return classic::schedule_from_pytorch_table(table, dialect, costs, file);
}

Schedule import_megatron(const po::variables_map& values, const std::string& file) {
  std::vector<std::vector<int>> orders = megatron_order_from_json(read_json_file(file), file);
  int chunks = values.count("chunks") ? values["chunks"].as<int>() : megatron_chunks(orders);
  int nmicros = values.count("nmicros") ? values["nmicros"].as<int>() : megatron_micro_count(orders);
  if (chunks < 1 || chunks > 1000) throw InputError("", "--chunks", "must be in [1, 1000]");
  if (nmicros < 1 || nmicros > 100000)
    throw InputError(values.count("nmicros") ? "" : file, "--nmicros",
                     "must be in [1, 100000] (rank 0 has " + std::to_string(megatron_micro_count(orders)) +
                         " forwards of chunk 1)");
  bool split = false;
  if (auto span = optional_text(values, "span")) split = parse_key_values(*span, {"F", "B", "W"}, "--span").count("W") > 0;
  classic::StageCosts costs = scheme_costs(optional_text(values, "span"), optional_text(values, "memory"), split);
  return classic::schedule_from_megatron_order(orders, chunks, nmicros, split, costs, file);
}

}  // namespace

int run_import(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("from", po::value<std::string>()->required(), "pytorch-csv | megatron-order | tessel-json")
      ("file", po::value<std::string>()->required(), "the file to import (positional)")
      ("dialect", po::value<std::string>()->default_value("current"), "pytorch-csv: current | legacy")
      ("span", po::value<std::string>(), "spans of the actions (see above)")
      ("memory", po::value<std::string>(), "memory deltas of the actions (see above)")
      ("chunks", po::value<int>(), "megatron-order: model chunks per rank")
      ("nmicros", po::value<int>(), "megatron-order: micro-batches")
      ("memory-limit", po::value<std::string>(), "limit written into the schedule: M or M0,M1,.. (default: its peak)")
      ("output,o", po::value<std::string>(), "write the schedule here (default: stdout)")
      ("placement-out", po::value<std::string>(), "also write its placement (tessel.placement/1), e.g. for 'tessel search'")
      ("report", po::bool_switch(), "verify and print makespan, bubble ratio, peak memory (stderr)");
  add_placement_options(options);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map values;
  if (auto done = parse(argc, argv, kUsage, options, positional, values)) return *done;

  return guarded("import", [&]() {
    std::string format = values["from"].as<std::string>();
    std::string file = values["file"].as<std::string>();
    Schedule schedule;
    try {
      if (format == "pytorch-csv") {
        schedule = import_pytorch(values, file);
      } else if (format == "megatron-order") {
        schedule = import_megatron(values, file);
      } else if (format == "tessel-json") {
        Placement placement = placement_from_options(values);
        std::vector<long long> limit;
        if (values.count("memory-limit"))
          limit = memory_limits_for(placement, values["memory-limit"].as<std::string>(), "--memory-limit");
        schedule = import_tessel_json(read_json_file(file), placement, file, limit);
      } else {
        throw InputError("", "--from", "unknown format '" + format + "' (pytorch-csv, megatron-order, tessel-json)");
      }
    } catch (const classic::DeadlockError& deadlock) {
      std::cerr << "tessel import: " << file << ": " << deadlock.what() << "\n";
      return int(kNegative);
    }
    return write_classic_output(values, schedule);
  });
}

}  // namespace tessel::cli
