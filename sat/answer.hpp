// A solver's answer to one question, apart from the backend facade
// (sat/backend.hpp) so that a report can name answers without seeing the
// solvers: solver/search.hpp lists the questions a search asked.
#pragma once

namespace tessel {

enum class Answer { Sat, Unsat, Unknown };  // Unknown: time limit or solver gave up

inline const char* answer_name(Answer answer) {
  return answer == Answer::Sat ? "sat" : answer == Answer::Unsat ? "unsat" : "unknown";
}

}  // namespace tessel
