// The verifier's own reading of a `tessel.schedule/1` document (docs/formats.md,
// "tessel.schedule/1"). verify/ shares no code with model/, so that a bug in the model's reader
// cannot hide a bug in a schedule: this file turns the JSON into the plain
// structs below, and every check reads only these.
//
// What is a format error and what is a violation: a document that cannot be
// understood (unknown format or version, a missing or mistyped field, a bad
// placement, a negative start) throws FormatError naming the field. An
// instance whose block id is a string that the placement does not define, or
// whose micro-batch lies outside [0, nmicros), is readable but does not
// belong to the schedule: it is kept aside as an `unknown` violation.
//
// Times (spans, delays, starts, the repetend) are ticks of
// 10^-time_decimals of the file's unit, memory amounts (memory, static
// memory, limits) ticks of 10^-memory_decimals (verify/numbers.hpp): a file
// with spans 1.5 and 3.712 is read as 1500 and 3712 at 3 decimals, an
// integer file as its steps.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessel::verify {

struct BlockSpec {
  std::string id;
  long long span = 1;    // time ticks
  long long memory = 0;  // memory ticks
  std::vector<int> devices;  // sorted, distinct, in [0, ndevs)
  // What the block offers instead of keeping its activation (docs/formats.md,
  // "Memory traded for time"); a `before` of -1 means not offered.
  long long recompute_span = 0;  // time ticks
  int recompute_before = -1;     // index into blocks
  long long checkpoint_memory = 0;  // memory ticks kept between the forward and its recompute
  long long offload_out = 0;     // time ticks of the copy out and the copy in
  long long offload_in = 0;
  int offload_before = -1;
};

struct EdgeSpec {
  int from = 0;  // index into blocks
  int to = 0;
  long long delay = 0;  // time ticks between a's end and b's start
};

// One instance of the file that belongs to the schedule.
struct PlacedInstance {
  int block = 0;        // index into blocks
  long long micro = 0;  // in [0, nmicros)
  long long start = 0;  // >= 0
  size_t position = 0;  // index in the file's "instances" list
  bool marked_recompute = false;  // "recompute": true
  bool marked_offload = false;    // "offload": true
};

// What a schedule runs to trade memory for time: a recompute, a copy out or
// a copy in of a forward instance (docs/formats.md, "Memory traded for
// time"). A block id the placement does not define gives block -1.
enum class RunKind { Recompute, CopyOut, CopyIn };
struct ChoiceRun {
  RunKind kind = RunKind::Recompute;
  int block = -1;
  std::string block_id;
  long long micro = 0;
  long long start = 0;
  size_t position = 0;  // index in the file's "recomputes" or "transfers" list
};

// One instance of the file that does not belong to the schedule.
struct ForeignInstance {
  std::string block;
  long long micro = 0;
  long long start = 0;
  size_t position = 0;
  std::string reason;
};

// A fused unit as the file declares it (docs/formats.md, "fused"): its
// members by block index and micro-batch, and its span.
struct FusedSpec {
  std::vector<std::pair<int, long long>> members;  // (index into blocks, micro), at least two
  long long span = 1;
  size_t position = 0;  // index in the file's "fused" list
};

struct ClaimedRepetend {
  long long start = 0;
  long long end = 0;
  long long period = 1;
  long long micros_per_period = 1;
};

struct ScheduleDocument {
  int ndevs = 0;
  int time_decimals = 0;
  int memory_decimals = 0;
  std::vector<long long> static_memory;  // per device, held for the whole run
  std::vector<BlockSpec> blocks;
  std::vector<EdgeSpec> edges;
  std::optional<std::vector<long long>> memory_limit;  // per device; none = no limit
  long long nmicros = 0;
  std::vector<PlacedInstance> instances;
  std::vector<ForeignInstance> foreign;
  std::optional<ClaimedRepetend> repetend;
  std::vector<FusedSpec> fused;
  std::vector<ChoiceRun> runs;  // recomputes, then transfers, in file order
};

// Largest start and span accepted, in ticks (2^50, see numbers.hpp), so
// that every sum fits a long long with room to spare.
inline constexpr long long kMaxStart = 1LL << 50;
inline constexpr long long kMaxSpan = 1LL << 50;
// Largest memory delta and limit magnitude (2^50 ticks, as the model).
inline constexpr long long kMaxMemory = 1LL << 50;

// Reads the document; throws FormatError naming the field on unreadable input.
ScheduleDocument read_schedule_document(const nlohmann::json& document);

// Reads a time of the document (a span, a start, ...) at `field`, raising the
// document's time decimals (and every time read so far) when it carries
// more; throws FormatError for anything but a number in range.
long long read_time(ScheduleDocument& schedule, const nlohmann::json& value, const std::string& field);

// The same for a memory amount (a checkpoint, a limit).
long long read_memory_amount(ScheduleDocument& schedule, const nlohmann::json& value, const std::string& field);

// A time or memory amount of the document as the file would write it.
std::string time_text(const ScheduleDocument& schedule, long long ticks);
std::string memory_text(const ScheduleDocument& schedule, long long ticks);

// Reads the optional "fused" list into `schedule` (whose blocks are read);
// fused_document.cpp.
void read_fused(const nlohmann::json& document, ScheduleDocument& schedule);

// Reads the blocks' "recompute" and "offload" offers once every block is
// known, and the schedule's "recomputes" and "transfers" lists
// (choice_document.cpp).
void read_offers(const nlohmann::json& placement, ScheduleDocument& schedule);
void read_choice_runs(const nlohmann::json& document, ScheduleDocument& schedule);

// "f3:5": block f3 of micro-batch 5, the way every message names an instance.
std::string instance_name(const std::string& block, long long micro);

}  // namespace tessel::verify
