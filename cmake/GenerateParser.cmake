# Runs the ANTLR tool on the grammar, then makes the generated lexer and parser
# deserialise their ATNs on first use instead of at program start.
#
# ANTLR's C++ target deserialises (and verifies) each recogniser's ATN in a
# static initialiser: about 8 M instructions, half of what `rfguard --version`
# executed, paid by every process, including those that parse no SQL (lint of
# plan JSON, replay) and, for the lexer, those whose SQL the direct lexer
# (grammar/fast_lexer.cpp) reads without it. The initialiser becomes a
# function-local static in the constructor: run once, thread-safe, before the
# first recogniser uses the ATN. The edit is checked: a generated file of another
# shape stops the build instead of being left as it is.
#
# Deserialising then checks the ATN's own consistency (verifyATN): half of the
# 3.6 M instructions the parser's first use costs, paid by every `rfguard plan`.
# The ATN is the ANTLR tool's output for this grammar, fixed at build time, so
# the check runs where asserts do (Debug and the sanitizer builds, which parse
# every test's SQL) and not in release builds.
#
# Arguments (-D): ANTLR4_TOOL, GRAMMAR, OUT_DIR.
execute_process(
  COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -no-listener -no-visitor -package rfsql -o ${OUT_DIR}
          -Xexact-output-dir ${GRAMMAR}
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "antlr4 failed on ${GRAMMAR} (${status})")
endif()

function(patch_once file from to)
  file(READ ${file} text)
  string(FIND "${text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${file}: expected `${from}` in ANTLR's generated code (another ANTLR "
                        "version?); cmake/GenerateParser.cmake needs updating")
  endif()
  string(REPLACE "${from}" "${to}" patched "${text}")
  file(WRITE ${file} "${patched}")
endfunction()

foreach(pair "RfSqlLexer;Lexer;CharStream" "RfSqlParser;Parser;TokenStream")
  list(GET pair 0 cls)
  list(GET pair 1 base)
  list(GET pair 2 input)
  set(src ${OUT_DIR}/${cls}.cpp)
  patch_once(${src} "${cls}::Initializer ${cls}::_init;"
             "// rfguard: no static ${cls}::_init; the constructor runs the Initializer once.")
  patch_once(${src} "${cls}::${cls}(${input} *input) : ${base}(input) {\n"
             "${cls}::${cls}(${input} *input) : ${base}(input) {\n  static Initializer once;  // rfguard: the ATN on first use\n")
  patch_once(${src} "  atn::ATNDeserializer deserializer;\n"
             "  atn::ATNDeserializationOptions options;  // rfguard: verified where asserts are on\n\
#ifdef NDEBUG\n  options.setVerifyATN(false);\n#endif\n  atn::ATNDeserializer deserializer(options);\n")
endforeach()

# A rule with labelled alternatives makes its context the alternative's class
# and then writes every label through `dynamic_cast<Alt *>(_localctx)`: a
# runtime type search per label, though the context's type is the one just
# made (ANTLR 4.10 writes antlrcpp::downCast, a static_cast, there). The parser
# gets static_casts; the sanitizer builds check each downcast (UBSan's vptr).
set(parser ${OUT_DIR}/RfSqlParser.cpp)
file(READ ${parser} text)
string(REGEX MATCHALL "dynamic_cast<[A-Za-z_:]+ \\*>\\(_localctx\\)" casts "${text}")
list(LENGTH casts count)
if(count EQUAL 0)
  message(FATAL_ERROR "${parser}: expected labels written through dynamic_cast<...>(_localctx) "
                      "(another ANTLR version?); cmake/GenerateParser.cmake needs updating")
endif()
string(REGEX REPLACE "dynamic_cast<([A-Za-z_:]+ \\*)>\\(_localctx\\)" "static_cast<\\1>(_localctx)"
       text "${text}")
file(WRITE ${parser} "${text}")
