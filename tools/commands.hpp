// Entry points of the subcommands, one file each (tools/cmd_*.cpp).
#pragma once

namespace tessel::cli {

int run_cases(int argc, char** argv);
int run_placement(int argc, char** argv);
int run_search(int argc, char** argv);
int run_verify(int argc, char** argv);
int run_show(int argc, char** argv);
int run_unroll(int argc, char** argv);
int run_generate(int argc, char** argv);
int run_import(int argc, char** argv);
int run_export(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_partition(int argc, char** argv);
int run_plan(int argc, char** argv);
int run_run(int argc, char** argv);
int run_verify_trace(int argc, char** argv);  // `verify --trace`
int run_check_certificate(int argc, char** argv);

}  // namespace tessel::cli
