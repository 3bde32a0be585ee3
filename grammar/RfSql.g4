// The SQL subset rfguard reads: DDL for tables and views, and queries with
// joins of every type, subqueries, grouping sets, windows and set operations.
// Keywords are case-insensitive (spelled with letter fragments, since the
// Debian ANTLR tool predates the caseInsensitive option).
grammar RfSql;

// Contexts and the direct lexer's tokens come from the parse's arena
// (grammar/parse_arena.h). The parser builds no parse tree (no children lists,
// no terminal nodes): the binder reads a context's labelled fields and its
// start and stop tokens, so whatever it reads of a rule carries a label.
options { contextSuperClass = ArenaContext; }

@parser::header {
#include "grammar/parse_arena.h"
#include "grammar/prediction.h"
namespace rfsql {
using ArenaContext = rfguard::ArenaContext;
}
}

// The runtime's rule entry and exit, without its dynamic_casts, and with the
// depth of the tree the binder will build measured on exit. Parser finds
// the parent of a rule's context with dynamic_cast<ParserRuleContext*> on
// every rule entry, alternative and exit (a sixth of parsing TPC-H, with the
// type-name comparisons it costs); in a parser every context's parent is a
// ParserRuleContext, so a static_cast does the same. Same steps otherwise.
@parser::members {
  void enterRule(antlr4::ParserRuleContext* localctx, size_t state, size_t ruleIndex) override;
  void enterOuterAlt(antlr4::ParserRuleContext* localctx, size_t altNum) override;
  void exitRule();  // not virtual in Parser: the rules' calls reach this one
  // Parser::match when the token matches (most calls): the same steps with
  // fewer virtual calls (Parser::consume asks for the current token and its
  // type again, and for the stream). Final, so the rules' calls are direct.
  antlr4::Token* match(size_t ttype) final;
  // Predicts with rfguard::PredictionFastPath (grammar/prediction.h) from now on.
  void usePredictionFastPath();

  // Every rule ends with `auto onExit = finally([=] { exitRule(); });`; the
  // runtime's finally() wraps the lambda in a std::function, called through a
  // pointer. Found first by the rules (class scope before namespace scope),
  // this one calls it directly, on return and on an exception alike.
  template <typename F>
  struct OnExit {
    F f;
    ~OnExit() { f(); }
  };
  template <typename F>
  static OnExit<F> finally(F f) { return OnExit<F>{f}; }
}

@parser::definitions {
namespace {
antlr4::ParserRuleContext* parentOf(antlr4::ParserRuleContext* ctx) {
  return static_cast<antlr4::ParserRuleContext*>(ctx->parent);
}

// How much deeper than its own context a list rule binds: the binder folds
// `a + b + ...` (and chains of set operations and joins) into a tree as deep as
// the list is long.
size_t foldedDepth(antlr4::ParserRuleContext* ctx) {
  switch (ctx->getRuleIndex()) {
    case RfSqlParser::RuleValueExpr:
      return static_cast<RfSqlParser::ValueExprContext*>(ctx)->ops.size();
    case RfSqlParser::RuleBooleanTerm:  // predicated: a value expression inline
      return &typeid(*ctx) == &typeid(RfSqlParser::PredicatedContext)
                 ? static_cast<RfSqlParser::PredicatedContext*>(ctx)->ops.size()
                 : 0;
    case RfSqlParser::RuleQueryExpr:
      return static_cast<RfSqlParser::QueryExprContext*>(ctx)->ops.size();
    case RfSqlParser::RuleRelation:
      return static_cast<RfSqlParser::RelationContext*>(ctx)->joins.size();
    default:
      return 0;
  }
}
}  // namespace

void RfSqlParser::enterRule(antlr4::ParserRuleContext* localctx, size_t state, size_t) {
  setState(state);
  _ctx = localctx;
  _ctx->start = _input->LT(1);
  if (_buildParseTrees && _ctx->parent) parentOf(_ctx)->addChild(_ctx);
  if (!_parseListeners.empty()) triggerEnterRuleEvent();
}

void RfSqlParser::enterOuterAlt(antlr4::ParserRuleContext* localctx, size_t altNum) {
  localctx->setAltNumber(altNum);
  if (_buildParseTrees && _ctx != localctx && _ctx->parent) {
    antlr4::ParserRuleContext* parent = parentOf(_ctx);
    parent->removeLastChild();
    parent->addChild(localctx);
  }
  _ctx = localctx;
}

antlr4::Token* RfSqlParser::match(size_t ttype) {
  // Mismatches (error recovery), EOF (which sets _matchedEOF), trees and
  // listeners: the runtime's own path.
  if (ttype == antlr4::Token::EOF || _input->LA(1) != ttype || _buildParseTrees ||
      !_parseListeners.empty())
    return Parser::match(ttype);
  antlr4::Token* t = _input->LT(1);
  _errHandler->reportMatch(this);
  _input->consume();
  return t;
}

void RfSqlParser::usePredictionFastPath() {
  delete _interpreter;
  _interpreter = new rfguard::PredictionFastPath(this, _atn, _decisionToDFA, _sharedContextCache);
}

void RfSqlParser::exitRule() {
  _ctx->stop = _input->LT(_matchedEOF ? 1 : -1);
  // A rule's height: itself, its folded operands, and its highest sub-rule or
  // token (a token counts one).
  auto* ctx = static_cast<ArenaContext*>(_ctx);
  ctx->height = 1 + foldedDepth(ctx) + std::max<size_t>(ctx->height, 1);
  if (!ctx->deepest) ctx->deepest = ctx->start;
  if (auto* parent = static_cast<ArenaContext*>(ctx->parent); parent && ctx->height > parent->height) {
    parent->height = ctx->height;
    parent->deepest = ctx->deepest;
  }
  if (!_parseListeners.empty()) triggerExitRuleEvent();
  setState(_ctx->invokingState);
  _ctx = parentOf(_ctx);
}
}

script : stmts+=statement? (SEMICOLON stmts+=statement?)* EOF ;

// Entry point for the stored text of a view.
singleQuery : body=query SEMICOLON? EOF ;

// Entry point for one statement of a script that had syntax errors.
singleStatement : stmt=statement? EOF ;

statement
  : table=createTable
  | view=createView
  | select=query
  ;

createTable
  : CREATE TABLE name=identifier LPAREN elements+=tableElement (COMMA elements+=tableElement)* RPAREN
    (WITH LPAREN opts+=tableOption (COMMA opts+=tableOption)* RPAREN)?
  ;

// A constraint may be named (CONSTRAINT name); the name is not kept.
// FOREIGN, REFERENCES, CHECK and CONSTRAINT are reserved, as in PostgreSQL.
tableElement
  : column=columnDef
  | (CONSTRAINT cname=identifier)?
    ( PRIMARY KEY LPAREN keys+=identifier (COMMA keys+=identifier)* RPAREN
    | UNIQUE LPAREN unique+=identifier (COMMA unique+=identifier)* RPAREN
    | FOREIGN KEY LPAREN fk+=identifier (COMMA fk+=identifier)* RPAREN ref=references
    | CHECK LPAREN check=expr RPAREN
    )
  ;

columnDef : name=identifier type=typeName constraints+=columnConstraint* ;

columnConstraint
  : NOT NULL_                                                     # notNullConstraint
  | NULL_                                                         # nullConstraint
  | (CONSTRAINT cname=identifier)? PRIMARY KEY                    # primaryKeyConstraint
  | (CONSTRAINT cname=identifier)? UNIQUE                         # uniqueConstraint
  | (CONSTRAINT cname=identifier)? ref=references                 # referencesConstraint
  | (CONSTRAINT cname=identifier)? CHECK LPAREN check=expr RPAREN # checkConstraint
  ;

// The referenced table and columns (its primary key when none are named).
references
  : REFERENCES table=identifier (LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN)?
  ;

tableOption : key=identifier EQ value=literal ;

createView
  : CREATE VIEW name=identifier (LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN)?
    AS body=query
  ;

typeName
  : name=identifier varying=VARYING? (LPAREN sizes+=INTEGER_VALUE (COMMA sizes+=INTEGER_VALUE)? RPAREN)?
  | DOUBLE PRECISION?
  | DATE
  | TIMESTAMP
  ;

// ---------------------------------------------------------------- queries

query : ctes=with? body=queryExpr order=orderBy? limit=limitClause? ;

with : WITH recursive=RECURSIVE? ctes+=cte (COMMA ctes+=cte)* ;

cte
  : name=identifier (LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN)?
    AS LPAREN body=query RPAREN
  ;

// Set operations as a list folded in the binder, INTERSECT over UNION and
// EXCEPT (a left-recursive rule's precedence predicates would make every
// decision that can reach the end of a query or a join unpredictable from the
// next token alone).
queryExpr : first=queryPrimary (ops+=setOperator rest+=queryPrimary)* ;

setOperator : op=(INTERSECT | UNION | EXCEPT) quant=setQuantifier? ;

queryPrimary
  : spec=querySpec
  | LPAREN inner=query RPAREN
  // VALUES as a query (Calcite prints it so): columns column1, column2, ...
  | VALUES rows+=valuesRow (COMMA rows+=valuesRow)*
  ;

setQuantifier : ALL | DISTINCT ;

// Labels name what the binder reads: a label is a field of the context; with
// no parse tree built, an unlabelled accessor finds nothing.
querySpec
  : SELECT quant=setQuantifier? items+=selectItem (COMMA items+=selectItem)*
    (FROM relations+=relation (COMMA relations+=relation)*)?
    (WHERE where=expr)?
    (group=GROUP BY groups+=groupingElement (COMMA groups+=groupingElement)*)?
    (HAVING having=expr)?
    (QUALIFY qualify=expr)?
  ;

// `t.*` is a primaryExpr (nameExpr's allColumns) that the binder accepts only
// as a whole select item: as an alternative here, next to `value=expr`, it made
// choosing between them a prediction for every select item.
selectItem
  : value=expr (AS? alias=identifier)?  # selectExpr
  | ASTERISK                     # selectStar
  ;

relation : first=relationPrimary (joins+=joinClause)* ;

joinClause
  : CROSS JOIN right=relationPrimary                                 # crossJoin
  | type=joinType join=JOIN right=relationPrimary criteria=joinCriteria # joinRelation
  // USING the columns both sides name alike (NATURAL is reserved, as in
  // PostgreSQL: `FROM t natural JOIN u` would otherwise alias t).
  | NATURAL type=joinType join=JOIN right=relationPrimary              # naturalJoin
  ;

joinType
  : INNER?
  | side=LEFT OUTER?
  | side=RIGHT OUTER?
  | side=FULL OUTER?
  | side=LEFT kind=SEMI
  | side=RIGHT kind=SEMI
  | side=LEFT kind=ANTI
  | side=RIGHT kind=ANTI
  ;

joinCriteria
  : on=ON cond=expr
  | USING LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN
  ;

// Parenthesised relations have their own rule so that relationPrimary's choice
// takes one token; only a parenthesis pays for a prediction (query, relation
// or VALUES).
relationPrimary
  : name=identifier (AS? alias=identifier)?  # tableRef
  | inner=parenRelationPrimary          # parenPrimary
  // A derived table that reads the columns of the relations left of it
  // (LATERAL is reserved, as in PostgreSQL).
  | LATERAL inner=parenRelationPrimary  # lateralPrimary
  ;

parenRelationPrimary
  // VALUES first: a query may be VALUES too, and the first alternative wins.
  : LPAREN VALUES rows+=valuesRow (COMMA rows+=valuesRow)* RPAREN (AS? alias=identifier
    (LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN)?)?  # valuesTable
  | LPAREN body=query RPAREN AS? alias=identifier
    (LPAREN columns+=identifier (COMMA columns+=identifier)* RPAREN)?  # derivedTable
  | LPAREN inner=relation RPAREN                                      # parenRelation
  ;

valuesRow
  : LPAREN items+=expr (COMMA items+=expr)* RPAREN
  ;

groupingElement
  : ROLLUP LPAREN (items+=expr (COMMA items+=expr)*)? RPAREN                # rollup
  | CUBE LPAREN (items+=expr (COMMA items+=expr)*)? RPAREN                  # cube
  | GROUPING SETS LPAREN sets+=groupingSet (COMMA sets+=groupingSet)* RPAREN # groupingSets
  | item=expr                                                               # singleGroup
  ;

groupingSet
  : LPAREN (items+=expr (COMMA items+=expr)*)? RPAREN
  | items+=expr
  ;

orderBy : ORDER BY items+=sortItem (COMMA items+=sortItem)* ;

sortItem : value=expr ordering=(ASC | DESC)? (NULLS nullOrder=(FIRST | LAST))? ;

limitClause
  : LIMIT limit=INTEGER_VALUE (OFFSET offset=INTEGER_VALUE)?
  | OFFSET offset=INTEGER_VALUE (ROW | ROWS)? (FETCH (FIRST | NEXT) fetch=INTEGER_VALUE (ROW | ROWS) ONLY)?
  | FETCH (FIRST | NEXT) fetch=INTEGER_VALUE (ROW | ROWS) ONLY
  ;

// ------------------------------------------------------------ expressions

// Expressions are operand lists with their operators, folded by precedence in
// the binder (AND over OR; * / % over + - over ||), not left-recursive rules:
// ANTLR predicts every turn of a left-recursive rule's loop through its ATN
// simulator, while a list's loop is decided by the next token alone.
expr : first=booleanTerm (ops+=(AND | OR) rest+=booleanTerm)* ;

booleanTerm
  // A value expression's operands inline (a context fewer per term): the same
  // operators as valueExpr's, which the binder folds alike (bindValue).
  : first=primaryExpr
    (ops+=(ASTERISK | SLASH | PERCENT | PLUS | MINUS | CONCAT) rest+=primaryExpr)*
    pred=predicate?                                                    # predicated
  | NOT inner=booleanTerm                                              # logicalNot
  ;

// Alternatives that share their first tokens (IS, NOT, IN) are one alternative
// each, so that the choice takes one token: as alternatives of their own they
// made every comparison a prediction. The comparison operator is a token set,
// not a rule of its own: a context fewer per comparison.
predicate
  // `= ANY (subquery)`, `= SOME (...)` and `<> ALL (...)`: ANY and SOME are
  // not keywords (a column may be called so), the binder reads the word.
  : op=(EQ | NEQ | LT | LTE | GT | GTE | NSEQ)
    ( right=valueExpr
    | quant=ALL LPAREN sub=query RPAREN
    | quantName=identifier LPAREN sub=query RPAREN
    )                                                                # comparison
  // IS [NOT] TRUE | FALSE | UNKNOWN: UNKNOWN is a word the binder reads.
  | IS negated=NOT?
    (DISTINCT FROM right=valueExpr | NULL_ | truth=(TRUE | FALSE) | word=identifier) # isPredicate
  | negated=NOT?
    ( BETWEEN lower=valueExpr AND upper=valueExpr
    | in=IN LPAREN (sub=query | items+=expr (COMMA items+=expr)*) RPAREN
    | op=(LIKE | ILIKE) pattern=valueExpr (ESCAPE escape=valueExpr)?
    | op=SIMILAR TO pattern=valueExpr (ESCAPE escape=valueExpr)?
    )                                                                # negatable
  ;

valueExpr
  : first=primaryExpr
    (ops+=(ASTERISK | SLASH | PERCENT | PLUS | MINUS | CONCAT) rest+=primaryExpr)*
  ;

primaryExpr
  : NULL_                                                                # nullLiteral
  | INTEGER_VALUE                                                       # integerLiteral
  | DECIMAL_VALUE                                                       # decimalLiteral
  | STRING                                                              # stringLiteral
  | (TRUE | FALSE)                                                      # booleanLiteral
  | DATE value=STRING                                                   # dateLiteral
  | TIMESTAMP value=STRING                                              # timestampLiteral
  | INTERVAL minus=MINUS? value=STRING unit=identifier (LPAREN INTEGER_VALUE RPAREN)? # intervalLiteral
  | CASE operand=expr? whens+=whenClause+ (ELSE elseExpr=expr)? END     # caseExpr
  | CAST LPAREN value=expr AS type=typeName RPAREN                      # castExpr
  | EXTRACT LPAREN field=identifier FROM source=valueExpr RPAREN        # extractExpr
  | SUBSTRING LPAREN
    (value=valueExpr FROM from=valueExpr (FOR forLen=valueExpr)? | args+=expr (COMMA args+=expr)*)
    RPAREN                                                              # substringExpr
  | EXISTS LPAREN sub=query RPAREN                                      # existsExpr
  // A row value `(a, b)` of two or more items: in comparisons and IN only.
  | LPAREN (sub=query | inner=expr (COMMA more+=expr)*) RPAREN          # parenExpr
  // TRIM([BOTH | LEADING | TRAILING] [chars] FROM s); trim(s) is a call.
  | TRIM LPAREN side=(BOTH | LEADING | TRAILING)? chars=valueExpr? FROM source=valueExpr RPAREN # trimExpr
  | name=identifier
    ( call=LPAREN (star=ASTERISK | quant=setQuantifier? args+=expr (COMMA args+=expr)*)? RPAREN
      (FILTER LPAREN WHERE filterCond=expr RPAREN)? window=over?
    | DOT (column=identifier | allColumns=ASTERISK)
    )?                                                                  # nameExpr
  | op=(MINUS | PLUS) operand=primaryExpr                               # unaryMinus
  ;

whenClause : WHEN condition=expr THEN result=expr ;

over
  : OVER LPAREN (PARTITION BY partitions+=expr (COMMA partitions+=expr)*)?
    (ORDER BY orders+=sortItem (COMMA orders+=sortItem)*)? frame=windowFrame? RPAREN
  ;

windowFrame
  : unit=(ROWS | RANGE) (lower=frameBound | BETWEEN lower=frameBound AND upper=frameBound)
  ;

frameBound
  : UNBOUNDED side=(PRECEDING | FOLLOWING)
  | CURRENT ROW
  | INTEGER_VALUE side=(PRECEDING | FOLLOWING)
  ;

identifier
  : IDENTIFIER
  | QUOTED_IDENTIFIER
  | BACKQUOTED_IDENTIFIER
  | nonReserved
  ;

literal
  : INTEGER_VALUE | DECIMAL_VALUE | STRING | TRUE | FALSE | name=identifier | MINUS INTEGER_VALUE
  ;

// Keywords that may also name a table, column or alias. ILIKE, SIMILAR and
// OFFSET may not, as in PostgreSQL and DuckDB: `SELECT x ilike ...` would be a
// pattern or an alias, `FROM t offset ...` an alias or an OFFSET clause, and
// the choice would cost a prediction per expression, select item or table.
nonReserved
  : ROWS | ROW | FIRST | LAST | NEXT | KEY | VIEW | SETS | NULLS | SEMI | ANTI
  | PRECISION | ONLY | PARTITION | OVER | ROLLUP | CUBE | GROUPING | TABLE | VARYING
  | RANGE | UNBOUNDED | PRECEDING | FOLLOWING | CURRENT
  | ESCAPE | TO | FILTER | TRIM | BOTH | LEADING | TRAILING | RECURSIVE
  ;

// ----------------------------------------------------------------- lexer

ALL : A L L ;
AND : A N D ;
ANTI : A N T I ;
AS : A S ;
ASC : A S C ;
BETWEEN : B E T W E E N ;
BOTH : B O T H ;
BY : B Y ;
CASE : C A S E ;
CHECK : C H E C K ;
CONSTRAINT : C O N S T R A I N T ;
CAST : C A S T ;
CREATE : C R E A T E ;
CROSS : C R O S S ;
CUBE : C U B E ;
DATE : D A T E ;
DESC : D E S C ;
DISTINCT : D I S T I N C T ;
DOUBLE : D O U B L E ;
ELSE : E L S E ;
END : E N D ;
EXCEPT : E X C E P T ;
EXISTS : E X I S T S ;
EXTRACT : E X T R A C T ;
FALSE : F A L S E ;
FETCH : F E T C H ;
FILTER : F I L T E R ;
FIRST : F I R S T ;
FOREIGN : F O R E I G N ;
FOR : F O R ;
FROM : F R O M ;
FULL : F U L L ;
GROUP : G R O U P ;
GROUPING : G R O U P I N G ;
HAVING : H A V I N G ;
IN : I N ;
INNER : I N N E R ;
INTERSECT : I N T E R S E C T ;
INTERVAL : I N T E R V A L ;
IS : I S ;
JOIN : J O I N ;
KEY : K E Y ;
LAST : L A S T ;
LATERAL : L A T E R A L ;
LEADING : L E A D I N G ;
LEFT : L E F T ;
LIKE : L I K E ;
VALUES : V A L U E S ;
VARYING : V A R Y I N G ;
RANGE : R A N G E ;
RECURSIVE : R E C U R S I V E ;
REFERENCES : R E F E R E N C E S ;
UNBOUNDED : U N B O U N D E D ;
PRECEDING : P R E C E D I N G ;
FOLLOWING : F O L L O W I N G ;
CURRENT : C U R R E N T ;
ILIKE : I L I K E ;
ESCAPE : E S C A P E ;
SIMILAR : S I M I L A R ;
TO : T O ;
LIMIT : L I M I T ;
NATURAL : N A T U R A L ;
NEXT : N E X T ;
NOT : N O T ;
NULL_ : N U L L ;
NULLS : N U L L S ;
OFFSET : O F F S E T ;
ON : O N ;
ONLY : O N L Y ;
OR : O R ;
ORDER : O R D E R ;
OUTER : O U T E R ;
OVER : O V E R ;
PARTITION : P A R T I T I O N ;
PRECISION : P R E C I S I O N ;
PRIMARY : P R I M A R Y ;
QUALIFY : Q U A L I F Y ;
RIGHT : R I G H T ;
ROLLUP : R O L L U P ;
ROW : R O W ;
ROWS : R O W S ;
SELECT : S E L E C T ;
SEMI : S E M I ;
SETS : S E T S ;
SUBSTRING : S U B S T R I N G ;
TABLE : T A B L E ;
THEN : T H E N ;
TIMESTAMP : T I M E S T A M P ;
TRAILING : T R A I L I N G ;
TRIM : T R I M ;
TRUE : T R U E ;
UNION : U N I O N ;
UNIQUE : U N I Q U E ;
USING : U S I N G ;
VIEW : V I E W ;
WHEN : W H E N ;
WHERE : W H E R E ;
WITH : W I T H ;

EQ : '=' | '==' ;
NSEQ : '<=>' ;
NEQ : '<>' | '!=' ;
LTE : '<=' ;
GTE : '>=' ;
LT : '<' ;
GT : '>' ;
PLUS : '+' ;
MINUS : '-' ;
ASTERISK : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
CONCAT : '||' ;
LPAREN : '(' ;
RPAREN : ')' ;
COMMA : ',' ;
DOT : '.' ;
SEMICOLON : ';' ;

STRING : '\'' ( ~'\'' | '\'\'' )* '\'' ;
INTEGER_VALUE : DIGIT+ ;
DECIMAL_VALUE : DIGIT+ '.' DIGIT* | '.' DIGIT+ ;
// `$` as Calcite prints names: EXPR$0, $f1, $cor0.
IDENTIFIER : (LETTER | '_' | '$') (LETTER | DIGIT | '_' | '$')* ;
QUOTED_IDENTIFIER : '"' ( ~'"' | '""' )* '"' ;
BACKQUOTED_IDENTIFIER : '`' ( ~'`' | '``' )* '`' ;

LINE_COMMENT : '--' ~[\r\n]* -> channel(HIDDEN) ;
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
// Blanks are dropped (comments stay on the hidden channel: `-- name:` reads them).
WS : [ \r\n\t]+ -> skip ;

// Any other character is a token of its own, so that the parser reports it
// with its location instead of the lexer dropping it.
UNRECOGNIZED : . ;

fragment DIGIT : [0-9] ;
fragment LETTER : [a-zA-Z] ;
fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ;
fragment E : [eE] ; fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ;
fragment I : [iI] ; fragment J : [jJ] ; fragment K : [kK] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ;
fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ;
fragment Y : [yY] ; fragment Z : [zZ] ;
