// Reading PyTorch pipelining's CSV action table.
//
// The dialect trap (docs/formats.md, "pytorch-csv"): releases before `I` existed wrote `B` for
// the input backward of zero-bubble schedules; the reader takes the dialect
// as a flag instead of guessing, and the writer writes the current one.
#include "model/formats/pytorch_csv.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "model/input_error.hpp"

namespace tessel {

namespace {

// Cells are matched by hand, not with std::regex: its matcher recurses once
// per character and a long cell overflowed the stack.
const std::vector<std::string>& action_names(PytorchDialect dialect) {
  static const std::vector<std::string> current = {"F", "I", "B", "W", "UNSHARD", "RESHARD", "REDUCE_GRAD",
                                                   "SEND_F", "RECV_F", "SEND_B", "RECV_B"};
  static const std::vector<std::string> legacy = {"F", "BW", "B", "W", "UNSHARD", "RESHARD", "REDUCE_GRAD",
                                                  "SEND_F", "RECV_F", "SEND_B", "RECV_B"};
  return dialect == PytorchDialect::current ? current : legacy;
}

bool all_digits(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct CellParts {
  std::string stage, action, micro;
};

// `<digits><action>[<digits>]`, or nothing when the cell has another shape.
std::optional<CellParts> split_cell(const std::string& text, PytorchDialect dialect) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  for (const std::string& name : action_names(dialect)) {
    if (text.compare(digits, name.size(), name) != 0) continue;
    std::string rest = text.substr(digits + name.size());
    if (all_digits(rest)) return CellParts{text.substr(0, digits), name, rest};
  }
  return std::nullopt;
}

std::string trim(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r\"");
  if (first == std::string::npos) return "";
  size_t last = text.find_last_not_of(" \t\r\"");
  return text.substr(first, last - first + 1);
}

int small_number(const std::string& digits, const std::string& file, const std::string& where) {
  if (digits.size() > 7) throw InputError(file, where, "number '" + shown_token(digits) + "' is too large");
  return std::stoi(digits);
}

// `text` is one action of the cell `cell` (the cell as written, for the
// message when the action is one of an OVERLAP_F_B pair).
PytorchAction parse_action(const std::string& text, const std::string& cell, int rank, int column,
                           const std::string& file, PytorchDialect dialect) {
  std::string where = pytorch_cell_place(rank, column);
  if (cell != text) where += " \"" + shown_token(cell) + "\"";
  std::optional<CellParts> match = split_cell(text, dialect);
  if (!match) {
    std::string hint;
    if (dialect == PytorchDialect::legacy && text.find('I') != std::string::npos)
      hint = " (the legacy dialect has no I; try --dialect current)";
    if (dialect == PytorchDialect::current && text.find("BW") != std::string::npos)
      hint = " (BW is the full backward of PyTorch ~2.4/2.5 tables; try --dialect legacy)";
    throw InputError(file, where, "unknown action '" + shown_token(text) + "'" + hint);
  }
  PytorchAction action;
  action.rank = rank;
  action.column = column;
  action.stage = small_number(match->stage, file, where);
  action.action = match->action;
  if (!match->micro.empty()) action.micro = small_number(match->micro, file, where);
  if (action.stage > 100000 || action.micro > 100000)
    throw InputError(file, where, "stage or micro-batch number above 100000 in '" + shown_token(text) + "'");
  if (action.compute() && action.micro < 0)
    throw InputError(file, where, "compute action '" + shown_token(text) + "' has no micro-batch");
  return action;
}

}  // namespace

std::string pytorch_cell_place(int rank, int column) {
  return "row " + std::to_string(rank + 1) + ", column " + std::to_string(column + 1) + " (rank " +
         std::to_string(rank) + ", step " + std::to_string(column) + ")";
}

PytorchTable read_pytorch_csv(const std::string& text, const std::string& file, PytorchDialect dialect) {
  PytorchTable table;
  std::istringstream lines(text);
  std::string line;
  int rank = 0;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream fields(line);
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    for (int column = 0; column < static_cast<int>(cells.size()); ++column) {
      std::string value = trim(cells[column]);
      if (value.empty()) continue;
      // The newest releases write an overlapped pair as (0F7;7B3)OVERLAP_F_B.
      static const std::string overlap = ")OVERLAP_F_B";
      if (value.size() > overlap.size() && value.front() == '(' &&
          value.compare(value.size() - overlap.size(), overlap.size(), overlap) == 0) {
        std::istringstream parts(value.substr(1, value.size() - overlap.size() - 1));
        std::string part;
        size_t first = table.actions.size();
        while (std::getline(parts, part, ';')) {
          table.actions.push_back(parse_action(trim(part), cells[column], rank, column, file, dialect));
          table.actions.back().overlaps_next = true;
        }
        if (table.actions.size() == first)
          throw InputError(file, pytorch_cell_place(rank, column), "empty OVERLAP_F_B cell '" + shown_token(cells[column]) + "'");
        table.actions.back().overlaps_next = false;
        continue;
      }
      table.actions.push_back(parse_action(value, cells[column], rank, column, file, dialect));
    }
    ++rank;
  }
  // Trailing empty lines are not ranks.
  int last_used = -1;
  for (const PytorchAction& action : table.actions) last_used = std::max(last_used, action.rank);
  table.ranks = last_used + 1;
  if (table.ranks == 0) throw InputError(file, "", "the table holds no action");
  return table;
}

PytorchTable read_pytorch_csv_file(const std::string& path, PytorchDialect dialect) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  return read_pytorch_csv(text.str(), path, dialect);
}

}  // namespace tessel
