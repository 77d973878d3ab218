// `tessel export --to FORMAT SCHEDULE`: a tessel.schedule/1 for other tools —
// PyTorch pipelining's action table, a Perfetto/Chrome trace, or an SVG
// timeline picture.
#include <iostream>

#include "model/formats/chrome_trace.hpp"
#include "model/formats/pytorch_sidecar.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/output_file.hpp"
#include "model/schedule_json.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/time_window.hpp"

namespace tessel::cli {

namespace {

const char* kUsage =
    "tessel export --to FORMAT SCHEDULE [-o FILE] [--with-comms] [--width PIXELS] [--start T]\n"
    "              [--end T]\n\n"
    "FORMAT:\n"
    "  pytorch-csv   torch.distributed.pipelining's compute-only action table, current dialect\n"
    "                (F, B = full backward, I = input backward, W = weight backward): one row per\n"
    "                device, each action in the column of its start step. Needs a pipeline\n"
    "                placement: every block on one device, forward/backward pairs per stage,\n"
    "                or blocks that carry their stage (any mapping: chain, interleaved, v; a\n"
    "                stage must live on one rank). --with-comms adds SEND_F/RECV_F/SEND_B/RECV_B\n"
    "                as PyTorch lowers them (each row a sequence; no deadlock). With -o, the\n"
    "                schedule goes beside it as FILE.tessel.json, which 'import' reads back so\n"
    "                that spans and memory survive the round trip.\n"
    "  chrome-trace  Trace Event Format JSON for https://ui.perfetto.dev or chrome://tracing:\n"
    "                a process per device with its instances named BLOCK:MICRO (block id,\n"
    "                micro-batch; kind and memory in args) and its memory and limit as\n"
    "                counters; a 'schedule' process with the phases: warmup, steady with a\n"
    "                slice per repetend copy, cooldown. One step = one microsecond.\n"
    "  svg           a timeline picture: rows = devices, a colour per block (a hue per stage,\n"
    "                the shade by kind), BLOCK:MICRO inside where it fits, under each row the\n"
    "                memory over time with the limit dashed, the phases shaded, a legend, a\n"
    "                time axis. --width sets the pixels of the timeline; --start/--end draw a\n"
    "                part of it, so a long schedule can be drawn readable.\n"
    "Writes to -o FILE, else to stdout";

void write_text(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return;
  }
  write_output_file(path, text);
}

}  // namespace

int run_export(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("to", po::value<std::string>()->required(), "pytorch-csv | chrome-trace | svg")
      ("schedule", po::value<std::string>()->required(), "the tessel.schedule/1 file (positional)")
      ("output,o", po::value<std::string>(), "write here (default: stdout)")
      ("with-comms", po::bool_switch(), "pytorch-csv: with the send/recv actions PyTorch's runtime runs")
      ("width", po::value<int>()->default_value(1200), "svg: width of the timeline in pixels");
  add_time_window_options(options);
  po::positional_options_description positional;
  positional.add("schedule", 1);
  po::variables_map values;
  if (auto done = parse(argc, argv, kUsage, options, positional, values)) return *done;

  return guarded("export", [&]() {
    std::string format = values["to"].as<std::string>();
    if (format != "pytorch-csv" && format != "chrome-trace" && format != "svg")
      throw InputError("", "--to", "unknown format '" + format + "' (pytorch-csv, chrome-trace, svg)");
    std::string file = values["schedule"].as<std::string>();
    Schedule schedule = read_schedule_file(file);
    std::string output = values.count("output") ? values["output"].as<std::string>() : "";
    bool with_comms = values["with-comms"].as<bool>();
    if (with_comms && format != "pytorch-csv") throw InputError("", "--with-comms", "applies to --to pytorch-csv only");
    for (const char* option : {"start", "end"})
      if (values.count(option) && format != "svg")
        throw InputError("", std::string("--") + option, "applies to --to svg only (Perfetto zooms by itself)");
    if (format == "pytorch-csv") {
      std::string table;
      try {
        if (with_comms && !carries_stages(schedule.placement))
          throw InputError("", "placement", "--with-comms needs blocks that carry their stage ('stage' in the placement)");
        table = with_comms ? write_pytorch_csv_staged(schedule, true) : write_pytorch_csv(schedule);
      } catch (const InputError& error) {
        if (!error.file.empty()) throw;
        throw InputError(file, error.field, error.reason);
      }
      write_text(output, table);
      // A device or pipe gets no sidecar beside it (no /dev/null.tessel.json).
      if (!output.empty() && output_is_replaceable(output)) write_json_file(sidecar_path(output), sidecar_json(schedule));
      else std::cerr << "tessel export: note: writing to " << (output.empty() ? "stdout" : output)
                     << ", no sidecar: spans and memory are lost on import\n";
    } else if (format == "chrome-trace") {
      write_text(output, chrome_trace(schedule).dump() + "\n");
    } else {
      int width = values["width"].as<int>();
      if (width < 100 || width > 100000) throw InputError("", "--width", "must be in [100, 100000]");
      const TimeWindow window = time_window(values, schedule);
      write_text(output, svg_timeline(schedule, {width, "", window.from, window.to}));
    }
    return int(kSuccess);
  });
}

}  // namespace tessel::cli
