#pragma once
// The runtime's adaptive prediction without its per-call allocation.
#include <cstddef>

#include "antlr4-runtime.h"

namespace rfguard {

/// ParserATNSimulator with the same adaptivePredict steps (ANTLR 4.9) once a
/// decision's DFA has its start state, which is every prediction after the
/// first of that decision in a process: the input is restored by a local's
/// destructor instead of antlrcpp::finally, whose std::function allocated and
/// made two indirect calls per prediction (a seventh of parsing a TPC-H query
/// went to seven predictions' bookkeeping). A decision without its start state
/// yet takes the runtime's own path, which builds it under the DFA's lock.
class PredictionFastPath : public antlr4::atn::ParserATNSimulator {
 public:
  using ParserATNSimulator::ParserATNSimulator;
  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision,
                         antlr4::ParserRuleContext* outerContext) override;
};

}  // namespace rfguard
