// `tessel placement`: writes a built-in placement as tessel.placement/1, to
// a file with -o or to stdout, so that it can be inspected or edited and fed
// back with --placement.
#include <iostream>

#include "model/json_file.hpp"
#include "model/placement_json.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

int run_placement(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("case", po::value<std::string>(), "built-in placement (see 'tessel cases')")
      ("ndevs", po::value<int>(), "device count D")
      ("infer", po::bool_switch(), "inference: forward blocks only, memory 0")
      ("output,o", po::value<std::string>(), "write to this file instead of stdout");
  po::positional_options_description positional;
  po::variables_map values;
  const std::string usage =
      "tessel placement --case NAME --ndevs D [--infer] [-o FILE]\n\n"
      "Writes a built-in placement as tessel.placement/1 (blocks in the Python Tessel's gid order).";
  if (auto code = parse(argc, argv, usage, options, positional, values)) return *code;
  return guarded("placement", [&] {
    if (!values.count("case")) throw InputError("", "--case", "give --case NAME (see 'tessel cases')");
    Placement placement = placement_from_options(values);
    nlohmann::json document = placement_to_json(placement);
    if (values.count("output"))
      write_json_file(values["output"].as<std::string>(), document);
    else
      std::cout << document.dump(1) << "\n";
    return kSuccess;
  });
}

}  // namespace tessel::cli
