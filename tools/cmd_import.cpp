// `tessel import --from FORMAT FILE`: schedules of other tools as
// tessel.schedule/1 — the Python Tessel's saved plans (with a placement),
// PyTorch pipelining action tables and Megatron-LM orders (timed by running
// each rank's order as soon as possible; a table that can never run is a
// deadlock, exit 1).
#include <iostream>
#include <map>
#include <sstream>

#include "classic/order_execution.hpp"
#include "classic/order_import.hpp"
#include "classic/table_with_placement.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/pytorch_sidecar.hpp"
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
    "                  rank, cells like 0F1, 1I0, 2W3, 1B0, (0F7;7B3)OVERLAP_F_B. --dialect current\n"
    "                  (default): B is the full backward (I + W); legacy (PyTorch ~2.4/2.5): B is\n"
    "                  the input backward of a stage that also has W cells, BW the full backward.\n"
    "                  Stage -> rank is where each stage appears; a table whose every stage s is\n"
    "                  on ranks s and R-1-s is a bidirectional pipeline (DualPipe): the schedule\n"
    "                  holds micro-batch PAIRS, one per direction. --span keys F,B,I,W,FB in the\n"
    "                  current meaning (default F=1,I=1,W=1,B=I+W,FB=F+B); --memory keys F,B,I,W\n"
    "                  (default F=1,B=-1,I=0,W=-1). A B of a stage that has I/W cells runs as its I\n"
    "                  and W fused into one unit of span B. An OVERLAP_F_B cell is one fused unit of\n"
    "                  span FB (--overlap fused, default) or its actions one after the other\n"
    "                  (--overlap sequential, PyTorch's runtime without a custom overlap function).\n"
    "                  A span or memory key the table never uses is warned about.\n"
    "                  Non-compute cells (SEND_F, RECV_B, UNSHARD, ...) are ignored. A sidecar\n"
    "                  FILE.tessel.json (written by export) gives the placement: its spans and\n"
    "                  memory are used unless --span, --memory or --overlap is given.\n"
    "  megatron-order  a JSON list of per-rank lists of Megatron's order (+k forward of chunk\n"
    "                  k-1, -k backward); --chunks V (default: largest k), --nmicros M (default:\n"
    "                  forwards of chunk 1 on rank 0); --span/--memory as for generate (keys\n"
    "                  F,B,W; W splits the backward). The layer-wise order of Megatron's MoE\n"
    "                  overlap (one code per layer, -(k + 0.5) a layer's weight gradient) needs\n"
    "                  --layers-per-chunk N (or N0,N1,.. per chunk): every layer is a stage.\n"
    "  tessel-json     the Python Tessel's SchedPlan.save() file; the dependencies come from\n"
    "                  the placement (--case NAME --ndevs D [--infer] or --placement FILE);\n"
    "                  the file has no memory limit: give --memory-limit, else unlimited.\n"
    "Orders are run as soon as possible. An order that can never run is a deadlock: the\n"
    "message names every stuck rank, its next action and what it waits for (exit 1).\n"
    "The memory limit written is the peak the schedule needs per device, or --memory-limit;\n"
    "its steady state, if any, is written as its repetend.\n"
    "The schedule goes to -o OUT, else to stdout; --report runs the verifier and prints\n"
    "makespan, bubble ratio and peak memory per device on stderr (exit 1 if invalid)";

// The user's --span / --memory keys that the table never uses: warned about,
// so that no cost is silently ignored.
void warn_unused(const po::variables_map& values, const classic::PytorchCostUse& use, const std::string& file) {
  std::map<std::string, std::pair<bool, const char*>> span_use = {
      {"F", {use.forward, "no F cell"}},
      {"B", {use.full_backward, "no B (or BW) cell"}},
      {"I", {use.input, "no I cell and no B of a split stage"}},
      {"W", {use.weight, "no W cell and no B of a split stage"}},
      {"FB", {use.overlap, "no OVERLAP_F_B cell (or --overlap sequential)"}}};
  std::map<std::string, std::pair<bool, const char*>> memory_use = {
      {"F", {use.forward, "no F cell"}},
      {"B", {use.full_backward_memory, "no B cell of an unsplit stage (a B of a split stage changes memory as its I and W do)"}},
      {"I", {use.input, "no I cell and no B of a split stage"}},
      {"W", {use.weight, "no W cell and no B of a split stage"}}};
  for (const std::string& key : given_keys(optional_text(values, "span"), {"F", "B", "I", "W", "FB"}, "--span"))
    if (!span_use[key].first)
      std::cerr << "tessel import: warning: " << file << ": --span " << key << " is not used: the table has "
                << span_use[key].second << "\n";
  for (const std::string& key : given_keys(optional_text(values, "memory"), {"F", "B", "I", "W"}, "--memory"))
    if (!memory_use[key].first)
      std::cerr << "tessel import: warning: " << file << ": --memory " << key << " is not used: the table has "
                << memory_use[key].second << "\n";
}

Schedule import_pytorch(const po::variables_map& values, const std::string& file) {
  std::string dialect_name = values["dialect"].as<std::string>();
  if (dialect_name != "current" && dialect_name != "legacy")
    throw InputError("", "--dialect", "expected current or legacy, got '" + dialect_name + "'");
  std::string overlap_name = values.count("overlap") ? values["overlap"].as<std::string>() : "fused";
  if (overlap_name != "fused" && overlap_name != "sequential")
    throw InputError("", "--overlap", "expected fused or sequential, got '" + overlap_name + "'");
  PytorchDialect dialect = dialect_name == "current" ? PytorchDialect::current : PytorchDialect::legacy;
  PytorchTable table = read_pytorch_csv_file(file, dialect);
  if (std::optional<Schedule> sidecar = read_sidecar(file)) {
    // Costs given on the command line win over the sidecar's, said aloud.
    for (const char* option : {"span", "memory", "overlap"})
      if (values.count(option)) {
        std::cerr << "tessel import: note: --" << option << " given, so " << sidecar_path(file) << " is not used\n";
        sidecar.reset();
        break;
      }
    if (sidecar) {
      std::cerr << "tessel import: spans and memory from " << sidecar_path(file) << "\n";
      return classic::schedule_from_table_and_placement(table, *sidecar, file);
    }
  }
  classic::StageCosts costs = pytorch_costs(optional_text(values, "span"), optional_text(values, "memory"));
  classic::PytorchCostUse use;
  Schedule schedule = classic::schedule_from_pytorch_table(
      table, dialect, costs, file, &use,
      overlap_name == "fused" ? classic::OverlapMode::fused : classic::OverlapMode::sequential);
  warn_unused(values, use, file);
  return schedule;
}

std::vector<int> layers_per_chunk(const po::variables_map& values, int units) {
  std::vector<int> layers;
  if (!values.count("layers-per-chunk")) return layers;
  std::stringstream text(values["layers-per-chunk"].as<std::string>());
  std::string item;
  while (std::getline(text, item, ',')) {
    try {
      size_t used = 0;
      int count = std::stoi(item, &used);
      if (used != item.size() || count < 1 || count > 1000) throw std::invalid_argument(item);
      layers.push_back(count);
    } catch (const std::exception&) {
      throw InputError("", "--layers-per-chunk", "'" + item + "' is not a layer count in [1, 1000]");
    }
  }
  if (layers.size() == 1) {
    if (units % layers[0] != 0)
      throw InputError("", "--layers-per-chunk", "the order names " + std::to_string(units) +
                                                     " layers per rank, not a multiple of " + std::to_string(layers[0]));
    layers.assign(units / layers[0], layers[0]);
  }
  return layers;
}

Schedule import_megatron(const po::variables_map& values, const std::string& file) {
  MegatronOrders orders = megatron_order_from_json(read_json_file(file), file);
  classic::MegatronShape shape;
  shape.layers_per_chunk = layers_per_chunk(values, megatron_chunks(orders));
  shape.chunks = !shape.layers_per_chunk.empty() ? static_cast<int>(shape.layers_per_chunk.size())
                 : values.count("chunks")        ? values["chunks"].as<int>()
                                                 : megatron_chunks(orders);
  if (values.count("chunks") && values["chunks"].as<int>() != shape.chunks)
    throw InputError("", "--chunks", "--layers-per-chunk gives " + std::to_string(shape.chunks) + " chunks");
  int nmicros = values.count("nmicros") ? values["nmicros"].as<int>() : megatron_micro_count(orders);
  if (shape.chunks < 1 || shape.chunks > 1000) throw InputError("", "--chunks", "must be in [1, 1000]");
  if (nmicros < 1 || nmicros > 100000)
    throw InputError(values.count("nmicros") ? "" : file, "--nmicros",
                     "must be in [1, 100000] (rank 0 has " + std::to_string(megatron_micro_count(orders)) +
                         " forwards of chunk 1)");
  bool split = false;
  if (auto span = optional_text(values, "span")) split = parse_key_values(*span, {"F", "B", "W"}, "--span").count("W") > 0;
  split = split || megatron_has_weights(orders);
  classic::StageCosts costs = scheme_costs(optional_text(values, "span"), optional_text(values, "memory"), split);
  return classic::schedule_from_megatron_order(orders, shape, nmicros, split, costs, file);
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
      ("layers-per-chunk", po::value<std::string>(), "megatron-order: a layer-wise (MoE overlap) order, N or N0,N1,.. layers per chunk")
      ("overlap", po::value<std::string>(), "pytorch-csv: fused (default) | sequential: how OVERLAP_F_B cells run")
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
    if (values.count("overlap") && format != "pytorch-csv")
      throw InputError("", "--overlap", "applies to --from pytorch-csv only");
    if (values.count("layers-per-chunk") && format != "megatron-order")
      throw InputError("", "--layers-per-chunk", "applies to --from megatron-order only");
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
