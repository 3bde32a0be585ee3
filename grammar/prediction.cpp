#include "grammar/prediction.h"

namespace rfguard {

size_t PredictionFastPath::adaptivePredict(antlr4::TokenStream* input, size_t decision,
                                           antlr4::ParserRuleContext* outerContext) {
  antlr4::dfa::DFA& dfa = decisionToDFA[decision];
  antlr4::dfa::DFAState* s0 =
      dfa.isPrecedenceDfa() ? dfa.getPrecedenceStartState(parser->getPrecedence()) : dfa.s0;
  if (!s0) return ParserATNSimulator::adaptivePredict(input, decision, outerContext);
  _input = input;
  _startIndex = input->index();
  _outerContext = outerContext;
  _dfa = &dfa;
  // What the runtime's finally() does on return and on an exception alike.
  struct Restore {
    PredictionFastPath& self;
    antlr4::TokenStream* input;
    size_t index;
    ssize_t mark;
    ~Restore() {
      self.mergeCache.clear();  // the runtime drops its merge cache after each prediction
      self._dfa = nullptr;
      input->seek(index);
      input->release(mark);
    }
  } restore{*this, input, _startIndex, input->mark()};
  return execATN(dfa, s0, input, _startIndex,
                 outerContext ? outerContext : &antlr4::ParserRuleContext::EMPTY);
}

}  // namespace rfguard
