#!/bin/sh
# House rules that a grep can check, run as a test:
#  - every semantic fact about a join type lives in ir/join_type.*: no file
#    outside ir/ switches on a JoinType or compares one with == or != (use
#    joinInfo() and its columns); every fact about a comparison operator in
#    ir/comparison.*: no operator name compared as a string outside the parsers,
#    the evaluator and the examples (which see plan JSON only);
#  - ANTLR stays inside grammar/;
#  - includes point downward only (docs/design.md section 9): tools -> api, verifier
#    -> rules, evaluation -> execution -> ir; grammar -> ir; engines -> ir (engines'
#    plans imported; pipeline reads them); testgen (generated and differential
#    testing) over pipeline, and nothing below it includes testgen. A layer may
#    include itself and the layers listed for it below;
#  - duckdb.h (DuckDB's C API) only in engines/duckdb/capi/;
#  - comments, docs and corpus cite the design in the repository
#    (docs/design.md), never a document a user of the project does not have;
#  - a type a header declares at namespace scope has a name of its own in its
#    namespace: two `struct rfguard::TableSpec` linked into one program break
#    the one-definition rule, and the linker may run one's inline constructor
#    on the other (ASan caught exactly that).
set -eu
cd "${1:-.}"
status=0
dirs="api grammar rules execution evaluation verifier pipeline engines testgen tools tests fuzz examples include"
hits=$(grep -rnE 'case JoinType::|switch \([^)]*[jJ]oinType' --include='*.cpp' --include='*.h' $dirs || true)
if [ -n "$hits" ]; then
  echo "a switch on the join type outside ir/ (use joinInfo()):"
  echo "$hits"
  status=1
fi
# ... nor compares one with == or != (tests name the types they expect).
hits=$(grep -rnE '[=!]= *JoinType::|JoinType::[A-Za-z]+ *[=!]=' --include='*.cpp' --include='*.h' \
  $(echo $dirs | sed 's/ tests / /') || true)
if [ -n "$hits" ]; then
  echo "a join type compared outside ir/ (use joinInfo() and its columns):"
  echo "$hits"
  status=1
fi
# ... and every fact about a comparison operator lives in ir/comparison.* (its
# flip, negation, symmetry, equality): no operator name compared as a string
# outside the parsers (grammar/) and the evaluator, the oracle that checks the
# facts (tests/unit/comparison_test.cpp).
hits=$(grep -rnE '[=!]= *"(=|<>|<|<=|>|>=|<=>|is_distinct_from)"|"(=|<>|<|<=|>|>=|<=>|is_distinct_from)" *[=!]=' \
  --include='*.cpp' --include='*.h' $(echo $dirs | sed 's/ grammar / /; s/ evaluation / /; s/ tests / /; s/ examples / /') || true)
if [ -n "$hits" ]; then
  echo "a comparison operator compared by name (use ir/comparison.h):"
  echo "$hits"
  status=1
fi
hits=$(grep -rln 'antlr4' --include='*.cpp' --include='*.h' $dirs | grep -v '^grammar/' || true)
if [ -n "$hits" ]; then
  echo "ANTLR used outside grammar/:"
  echo "$hits"
  status=1
fi
hits=$(grep -rnE 'DESIGN section|DESIGN\.md|seeds/00[0-9]' $dirs ir corpus docs README.md tools \
  --include='*.cpp' --include='*.h' --include='*.def' --include='*.md' --include='*.test' \
  --include='*.sql' --include='*.py' --include='*.sh' | grep -v '^tests/layering_check.sh' || true)
if [ -n "$hits" ]; then
  echo "a citation of a document outside the repository (cite docs/design.md):"
  echo "$hits"
  status=1
fi
hits=$(grep -rln '#include <duckdb.h>\|#include "duckdb.h"' --include='*.cpp' --include='*.h' $dirs | grep -v '^engines/duckdb/capi/' || true)
if [ -n "$hits" ]; then
  echo "DuckDB's C API used outside engines/duckdb/capi/:"
  echo "$hits"
  status=1
fi
hits=$(find $dirs ir -name '*.h' | sort | xargs awk '
  FNR == 1 { ns = "" }
  /^namespace [A-Za-z_:]+ \{/ { ns = $2 }
  /^(struct|class|enum class|enum) [A-Za-z_][A-Za-z0-9_]*( final)? *(\{|:)/ {
    name = ($1 == "enum" && $2 == "class") ? $3 : $2
    sub(/[{:].*/, "", name)
    key = ns "::" name
    if (key in seen) print key ": " seen[key] " and " FILENAME ":" FNR
    else seen[key] = FILENAME ":" FNR
  }' || true)
if [ -n "$hits" ]; then
  echo "the same type declared twice in one namespace (one-definition rule):"
  echo "$hits"
  status=1
fi
allowed() {
  case "$1" in
    ir) echo "ir" ;;
    grammar) echo "grammar ir" ;;
    rules) echo "rules ir" ;;
    execution) echo "execution ir" ;;
    evaluation) echo "evaluation execution ir" ;;
    verifier) echo "verifier rules evaluation execution ir" ;;
    engines) echo "engines ir" ;;
    pipeline) echo "pipeline verifier rules evaluation execution grammar engines ir" ;;
    testgen) echo "testgen pipeline verifier rules evaluation execution grammar engines ir" ;;
    api) echo "api pipeline verifier rules evaluation execution grammar engines ir" ;;
  esac
}
for layer in ir grammar rules execution evaluation verifier engines pipeline testgen api; do
  ok=$(allowed $layer)
  for dep in $(grep -rhoE '#include "(ir|grammar|rules|execution|evaluation|verifier|engines|pipeline|testgen|api|tools)/' $layer |
    sed 's/#include "//; s/\///' | sort -u); do
    case " $ok " in
      *" $dep "*) ;;
      *)
        echo "$layer/ includes $dep/, which is not below it:"
        grep -rn "#include \"$dep/" $layer
        status=1
        ;;
    esac
  done
done
[ $status -eq 0 ] && echo "layering: ok"
exit $status
