/* parser.y — the Bison grammar of numjit's Python subset, building the AST.
 *
 * A pure LALR(1) parser (no conflicts: %expect 0) over the tokens of layout.c, which already
 * turned indentation into NEWLINE/INDENT/DEDENT.  The grammar follows Python's own: one
 * nonterminal per precedence level, from `test` (conditional expression) down through or/and/not,
 * comparisons (kept as one chain: a < b < c), | ^ & << >> + - * / // % @, the unary operators,
 * `**` (right-associative and binding tighter than a unary minus on its left: -2**2 == -4) and
 * the trailers (calls, subscripts with slices and tuples, attributes).  Tuples without
 * parentheses come from comma lists at the statement level.  Every node gets a Loc: the
 * location type carries start and end, and fe_loc turns it into line, column and the number
 * of characters on the first line.
 *
 * Annotations (of parameters, results and variables) are parsed and ignored, as Numba ignores
 * them.  Python that is valid but outside the subset is parsed where that costs nothing
 * (star arguments, for/while-else, ...) and reported in the action with a located "not
 * supported" error.  Errors recover at the end of a logical line (stmt: error NEWLINE, which
 * also swallows an indented block after a broken header) or at a DEDENT, so one file reports
 * several errors; syntax errors name what was expected in plain words (syntax_error below).
 * After the parse, a walk checks 'return' outside a function and 'break'/'continue' outside
 * a loop.  Every node stored in a statement passes fe_limit, which bounds node depth so later
 * recursive walks cannot overflow the C stack.  The node builders the actions call (fe_mk,
 * fe_binop, fe_call, ...) are in parse_build.c.
 */
%code top {
/* Bison counts errors in a variable that nothing reads. */
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
}

%code requires {
#include "frontend/fe_internal.h"
}

%define api.pure full
%define api.prefix {fe_yy}
%define api.token.prefix {TK_}
%define api.location.type {FeLoc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {FeParser *p}

%union {
    Node *node;
    NodeList list;
    OpKind op;
    const char *str;
    int64_t ival;
    double fval;
}

%code {
#include <stdio.h>
#include <string.h>

static int fe_yylex(FE_YYSTYPE *lval, FeLoc *lloc, FeParser *p);
static void fe_yyerror(FeLoc *l, FeParser *p, const char *msg);

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                          \
    do {                                                                                     \
        if (N) {                                                                             \
            (Cur).line = YYRHSLOC(Rhs, 1).line;                                              \
            (Cur).col = YYRHSLOC(Rhs, 1).col;                                                \
            (Cur).off = YYRHSLOC(Rhs, 1).off;                                                \
            (Cur).end_line = YYRHSLOC(Rhs, N).end_line;                                      \
            (Cur).end_col = YYRHSLOC(Rhs, N).end_col;                                        \
            (Cur).end_off = YYRHSLOC(Rhs, N).end_off;                                        \
        } else {                                                                             \
            (Cur).line = (Cur).end_line = YYRHSLOC(Rhs, 0).end_line;                         \
            (Cur).col = (Cur).end_col = YYRHSLOC(Rhs, 0).end_col;                            \
            (Cur).off = (Cur).end_off = YYRHSLOC(Rhs, 0).end_off;                            \
        }                                                                                    \
    } while (0)

}

%token <str> NAME "name" STRING "string" KW_UNSUP "keyword"
%token <ival> INT "number" UINT "large number"
%token <fval> FLOAT "floating-point number" IMAG "imaginary number"
%token <op> AUGASSIGN "augmented assignment"
%token NEWLINE "end of line" INDENT "indented block" DEDENT "end of block"
%token UNSUP_STMT "unsupported statement" PLACEHOLDER "unsupported expression"
%token DEF "'def'" IF "'if'" ELIF "'elif'" ELSE "'else'" FOR "'for'" WHILE "'while'"
%token BREAK "'break'" CONTINUE "'continue'" RETURN "'return'" PASS "'pass'"
%token YIELD "'yield'" LAMBDA "'lambda'"
%token RAISE "'raise'" ASSERT "'assert'" DEL "'del'" TRY "'try'" EXCEPT "'except'" FINALLY "'finally'"
%token IMPORT "'import'" FROM "'from'" AS "'as'" IN "'in'" IS "'is'" NOT "'not'"
%token AND "'and'" OR "'or'" TRUE "'True'" FALSE "'False'" NONE "'None'"
%token LPAR "'('" RPAR "')'" LBRACK "'['" RBRACK "']'" LBRACE "'{'" RBRACE "'}'"
%token COMMA "','" COLON "':'" SEMI "';'" DOT "'.'" ELLIPSIS "'...'" ARROW "'->'"
%token WALRUS "':='" ASSIGN "'='" PLUS "'+'" MINUS "'-'" STAR "'*'" POW "'**'"
%token SLASH "'/'" DSLASH "'//'" PERCENT "'%'" AT "'@'" LSHIFT "'<<'" RSHIFT "'>>'"
%token AMP "'&'" PIPE "'|'" CARET "'^'" TILDE "'~'" LT "'<'" GT "'>'" LE "'<='" GE "'>='"
%token EQ "'=='" NE "'!='"

%type <node> test or_test and_test not_test comparison comp_chain expr xor_expr and_expr
%type <node> shift_expr arith term factor power primary atom testlist test_or_star subscripts
%type <node> subscript opt_test argument param for_target decorator funcdef compound_stmt dict_items
%type <node> if_stmt while_stmt for_stmt expr_stmt dotted_as_name import_as_name
%type <node> try_stmt handler opt_else_block opt_finally_block
%type <list> handlers
%type <list> stmt stmts block suite simple_stmt small_list small_stmt exprlist else_part
%type <list> assign_rhs sub_list args_opt arglist params_opt params decorators for_items
%type <list> lparams_opt lparams
%type <node> lparam
%type <list> dotted_as_names import_as_names import_list strings comp_for
%type <op> comp_op
%type <str> dotted_name

%%

file
    : %empty
    | file stmt                 { fe_append(p, &p->module->list, $2); }
    ;

stmt
    : simple_stmt
    | compound_stmt             { $$ = fe_one(p, $1); }
    | error NEWLINE             { yyerrok; $$ = (NodeList){0}; }
    | error NEWLINE block       { yyerrok; $$ = (NodeList){0}; }
    | UNSUP_STMT NEWLINE        { $$ = (NodeList){0}; }
    | UNSUP_STMT NEWLINE block  { $$ = (NodeList){0}; }
    ;

stmts
    : %empty                    { $$ = (NodeList){0}; }
    | stmts stmt                { $$ = $1; fe_append(p, &$$, $2); }
    ;

block
    : INDENT stmts DEDENT       { $$ = $2; }
    | INDENT stmts error DEDENT { yyerrok; $$ = $2; }
    ;

suite
    : simple_stmt
    | NEWLINE block             { $$ = $2; }
    ;

simple_stmt
    : small_list NEWLINE
    | small_list SEMI NEWLINE
    ;

small_list
    : small_stmt
    | small_list SEMI small_stmt { $$ = $1; fe_append(p, &$$, $3); }
    ;

small_stmt
    : expr_stmt                 { $$ = fe_one(p, $1); }
    | PASS                      { $$ = fe_one(p, fe_mk(p, ND_PASS, @$)); }
    | BREAK                     { $$ = fe_one(p, fe_mk(p, ND_BREAK, @$)); }
    | CONTINUE                  { $$ = fe_one(p, fe_mk(p, ND_CONTINUE, @$)); }
    | RETURN                    { $$ = fe_one(p, fe_mk(p, ND_RETURN, @$)); }
    | RETURN testlist           { Node *n = fe_mk(p, ND_RETURN, @$); n->a = fe_limit(p, $2); $$ = fe_one(p, n); }
    | YIELD                     { $$ = fe_one(p, fe_mk(p, ND_YIELD, @$)); }
    | YIELD testlist            { Node *n = fe_mk(p, ND_YIELD, @$); n->a = fe_limit(p, $2); $$ = fe_one(p, n); }
    | YIELD FROM test {
            fe_error(p, @$, "'yield from' is not supported (Numba 0.56 does not compile it either): "
                     "loop over the generator and yield each value");
            $$ = fe_one(p, fe_mk(p, ND_PASS, @$));
        }
    | RAISE                     { $$ = fe_one(p, fe_mk(p, ND_RAISE, @$)); }
    | RAISE test                { Node *n = fe_mk(p, ND_RAISE, @$); n->a = $2; $$ = fe_one(p, n); }
    | RAISE test FROM test {
            fe_error(p, @3, "'raise ... from ...' is not supported by numjit");
            $$ = fe_one(p, fe_mk(p, ND_PASS, @$));
        }
    | ASSERT test               { Node *n = fe_mk(p, ND_ASSERT, @$); n->a = $2; $$ = fe_one(p, n); }
    | DEL exprlist              { $$ = fe_one(p, fe_seq(p, ND_DEL, $2, @$)); }
    | ASSERT test COMMA test {
            Node *n = fe_mk(p, ND_ASSERT, @$);
            n->a = $2;
            n->b = $4;
            $$ = fe_one(p, n);
        }
    | IMPORT dotted_as_names    { $$ = $2; }
    | FROM dotted_name IMPORT import_list {
            Node *n = fe_mk(p, ND_FROMIMPORT, @$);
            n->name = $2;
            n->list = $4;
            $$ = fe_one(p, n);
        }
    ;

expr_stmt
    : testlist                  { $$ = fe_mk(p, ND_EXPR, @$); $$->a = fe_limit(p, $1); }
    | testlist assign_rhs {
            $$ = fe_mk(p, ND_ASSIGN, @$);
            fe_check_target(p, $1, false);
            fe_push(p, &$$->list, fe_limit(p, $1));
            for (int i = 0; i < $2.n - 1; i++) {
                fe_check_target(p, $2.items[i], false);
                fe_push(p, &$$->list, fe_limit(p, $2.items[i]));
            }
            $$->a = fe_limit(p, $2.items[$2.n - 1]);
            $$ = fe_assign_lambda(p, $$);
        }
    | testlist AUGASSIGN testlist {
            $$ = fe_mk(p, ND_AUGASSIGN, @$);
            fe_check_target(p, $1, true);
            $$->op = $2;
            $$->a = fe_limit(p, $1);
            $$->b = fe_limit(p, $3);
        }
    | testlist COLON test {     /* `x: T`: an annotation alone does nothing, as in Python */
            fe_check_target(p, $1, false);
            $$ = fe_mk(p, ND_PASS, @$);
        }
    | testlist COLON test ASSIGN testlist {   /* `x: T = v` is `x = v` (Numba ignores T) */
            $$ = fe_mk(p, ND_ASSIGN, @$);
            fe_check_target(p, $1, false);
            fe_push(p, &$$->list, fe_limit(p, $1));
            $$->a = fe_limit(p, $5);
        }
    ;

assign_rhs
    : ASSIGN testlist           { $$ = fe_one(p, $2); }
    | assign_rhs ASSIGN testlist { $$ = $1; fe_push(p, &$$, $3); }
    ;

dotted_as_names
    : dotted_as_name            { $$ = fe_one(p, $1); }
    | dotted_as_names COMMA dotted_as_name { $$ = $1; fe_push(p, &$$, $3); }
    ;

dotted_as_name
    : dotted_name               { $$ = fe_mk(p, ND_IMPORT, @$); $$->name = $1; }
    | dotted_name AS NAME       { $$ = fe_mk(p, ND_IMPORT, @$); $$->name = $1; $$->str = $3; }
    ;

dotted_name
    : NAME
    | dotted_name DOT NAME      { $$ = arena_printf(p->arena, "%s.%s", $1, $3); fe_check_arena(p); }
    ;

import_list
    : import_as_names
    | LPAR import_as_names RPAR { $$ = $2; }
    | LPAR import_as_names COMMA RPAR { $$ = $2; }
    | STAR {
            fe_error(p, @1, "'import *' is not supported by numjit");
            $$ = (NodeList){0};
        }
    ;

import_as_names
    : import_as_name            { $$ = fe_one(p, $1); }
    | import_as_names COMMA import_as_name { $$ = $1; fe_push(p, &$$, $3); }
    ;

import_as_name
    : NAME                      { $$ = fe_mk(p, ND_NAME, @$); $$->name = $1; }
    | NAME AS NAME              { $$ = fe_mk(p, ND_NAME, @$); $$->name = $1; $$->str = $3; }
    ;

compound_stmt
    : if_stmt
    | while_stmt
    | for_stmt
    | try_stmt
    | funcdef
    | decorators funcdef {
            $$ = $2;
            $$->list2 = $1;
        }
    ;

try_stmt
    : TRY COLON suite handlers opt_else_block opt_finally_block {
            $$ = fe_mk(p, ND_TRY, @$);
            $$->list = $3;
            $$->list2 = $4;
            $$->a = $5;
            $$->b = $6;
        }
    | TRY COLON suite FINALLY COLON suite {
            $$ = fe_mk(p, ND_TRY, @$);
            $$->list = $3;
            $$->b = fe_mk(p, ND_BLOCK, @4);
            $$->b->list = $6;
        }
    ;

handlers
    : handler                   { $$ = fe_one(p, $1); }
    | handlers handler          { $$ = $1; fe_push(p, &$$, $2); }
    ;

handler
    : EXCEPT COLON suite        { $$ = fe_mk(p, ND_EXCEPT, @1); $$->list = $3; }
    | EXCEPT test COLON suite   { $$ = fe_mk(p, ND_EXCEPT, @1); $$->a = fe_limit(p, $2); $$->list = $4; }
    | EXCEPT test AS NAME COLON suite {
            $$ = fe_mk(p, ND_EXCEPT, @1);
            $$->a = fe_limit(p, $2);
            $$->name = $4;
            $$->list = $6;
        }
    ;

opt_else_block
    : %empty                    { $$ = NULL; }
    | ELSE COLON suite          { $$ = fe_mk(p, ND_BLOCK, @1); $$->list = $3; }
    ;

opt_finally_block
    : %empty                    { $$ = NULL; }
    | FINALLY COLON suite       { $$ = fe_mk(p, ND_BLOCK, @1); $$->list = $3; }
    ;

if_stmt
    : IF test COLON suite else_part {
            $$ = fe_mk(p, ND_IF, @$);
            $$->a = fe_limit(p, $2);
            $$->list = $4;
            $$->list2 = $5;
        }
    ;

else_part
    : %empty                    { $$ = (NodeList){0}; }
    | ELSE COLON suite          { $$ = $3; }
    | ELIF test COLON suite else_part {
            Node *n = fe_mk(p, ND_IF, @$);
            n->a = fe_limit(p, $2);
            n->list = $4;
            n->list2 = $5;
            $$ = fe_one(p, n);
        }
    ;

while_stmt
    : WHILE test COLON suite {
            $$ = fe_mk(p, ND_WHILE, @$);
            $$->a = fe_limit(p, $2);
            $$->list = $4;
        }
    | WHILE test COLON suite ELSE COLON suite {
            $$ = fe_mk(p, ND_WHILE, @$);
            $$->a = fe_limit(p, $2);
            $$->list = $4;
            $$->list2 = $7;
        }
    ;

for_stmt
    : FOR for_target IN testlist COLON suite {
            $$ = fe_mk(p, ND_FOR, @$);
            fe_check_target(p, $2, false);
            $$->a = fe_limit(p, $2);
            $$->b = fe_limit(p, $4);
            $$->list = $6;
        }
    | FOR for_target IN testlist COLON suite ELSE COLON suite {
            $$ = fe_mk(p, ND_FOR, @$);
            fe_check_target(p, $2, false);
            $$->a = fe_limit(p, $2);
            $$->b = fe_limit(p, $4);
            $$->list = $6;
            $$->list2 = $9;
        }
    ;

for_target
    : for_items                 { $$ = $1.n == 1 ? $1.items[0] : fe_seq(p, ND_TUPLE, $1, @$); }
    | for_items COMMA           { $$ = fe_seq(p, ND_TUPLE, $1, @$); }
    ;

for_items
    : expr                      { $$ = fe_one(p, $1); }
    | for_items COMMA expr      { $$ = $1; fe_push(p, &$$, $3); }
    ;

funcdef
    : DEF NAME LPAR params_opt RPAR COLON suite { $$ = fe_funcdef(p, $2, $4, $7, @$); }
    | DEF NAME LPAR params_opt RPAR ARROW test COLON suite {  /* annotations are ignored */
            $$ = fe_funcdef(p, $2, $4, $9, @$);
        }
    ;

params_opt
    : %empty                    { $$ = (NodeList){0}; }
    | params
    | params COMMA
    ;

params
    : param                     { $$ = fe_one(p, $1); }
    | params COMMA param        { $$ = $1; fe_push(p, &$$, $3); }
    ;

param
    : NAME                      { $$ = fe_param(p, $1, NULL, @$); }
    | NAME ASSIGN test          { $$ = fe_param(p, $1, fe_limit(p, $3), @$); }
    | NAME COLON test           { $$ = fe_param(p, $1, NULL, @$); }  /* annotation ignored */
    | NAME COLON test ASSIGN test { $$ = fe_param(p, $1, fe_limit(p, $5), @$); }
    | STAR NAME {               /* *args: the extra positional arguments as a tuple */
            $$ = fe_param(p, $2, NULL, @$);
            $$->ival = 1;
        }
    | STAR {
            fe_error(p, @$, "keyword-only parameters are not supported by numjit");
            $$ = NULL;
        }
    | POW NAME {
            fe_error(p, @$, "'**%s' parameters are not supported by numjit", $2);
            $$ = fe_param(p, $2, NULL, @$);
        }
    | SLASH {
            fe_error(p, @$, "positional-only parameters are not supported by numjit");
            $$ = NULL;
        }
    ;

/* a lambda's parameters: no annotations (its ':' ends them) */
lparams_opt
    : %empty                    { $$ = (NodeList){0}; }
    | lparams
    | lparams COMMA
    ;

lparams
    : lparam                    { $$ = fe_one(p, $1); }
    | lparams COMMA lparam      { $$ = $1; fe_push(p, &$$, $3); }
    ;

lparam
    : NAME                      { $$ = fe_param(p, $1, NULL, @$); }
    | NAME ASSIGN test          { $$ = fe_param(p, $1, fe_limit(p, $3), @$); }
    | STAR NAME {
            $$ = fe_param(p, $2, NULL, @$);
            $$->ival = 1;
        }
    | POW NAME {
            fe_error(p, @$, "'**%s' parameters are not supported by numjit", $2);
            $$ = fe_param(p, $2, NULL, @$);
        }
    ;

decorators
    : decorator                 { $$ = fe_one(p, $1); }
    | decorators decorator      { $$ = $1; fe_push(p, &$$, $2); }
    ;

decorator
    : AT test NEWLINE           { $$ = fe_decorator(p, fe_limit(p, $2), @2); }
    ;

/* ---- expressions, lowest precedence first ------------------------------------------------ */

testlist
    : exprlist                  { $$ = $1.n == 1 ? $1.items[0] : fe_seq(p, ND_TUPLE, $1, @$); }
    | exprlist COMMA            { $$ = fe_seq(p, ND_TUPLE, $1, @$); }
    ;

exprlist
    : test_or_star              { $$ = fe_one(p, $1); }
    | exprlist COMMA test_or_star { $$ = $1; fe_push(p, &$$, $3); }
    ;

test_or_star
    : test
    | STAR expr {
            fe_error(p, @$, "starred expressions are not supported by numjit");
            $$ = $2;
        }
    ;

test
    : or_test
    | LAMBDA lparams_opt COLON test { $$ = fe_lambda(p, $2, fe_limit(p, $4), @$); }
    | or_test IF or_test ELSE test {
            $$ = fe_mk(p, ND_IFEXP, @$);
            $$->a = $3;
            $$->b = $1;
            $$->c = $5;
        }
    ;

or_test
    : and_test
    | or_test OR and_test       { $$ = fe_binop(p, OP_OR, $1, $3, @$); $$->kind = ND_BOOLOP; }
    ;

and_test
    : not_test
    | and_test AND not_test     { $$ = fe_binop(p, OP_AND, $1, $3, @$); $$->kind = ND_BOOLOP; }
    ;

not_test
    : NOT not_test              { $$ = fe_unary(p, OP_NOT, $2, @$); }
    | comparison
    ;

comparison
    : expr
    | comp_chain
    ;

comp_chain
    : expr comp_op expr {
            $$ = fe_mk(p, ND_COMPARE, @$);
            fe_push(p, &$$->list, $1);
            $$ = fe_compare_push(p, $$, $2, $3);
        }
    | comp_chain comp_op expr   { $$ = fe_compare_push(p, $1, $2, $3); $$->loc = fe_loc(p, @$); }
    ;

comp_op
    : LT                        { $$ = OP_LT; }
    | GT                        { $$ = OP_GT; }
    | EQ                        { $$ = OP_EQ; }
    | NE                        { $$ = OP_NE; }
    | LE                        { $$ = OP_LE; }
    | GE                        { $$ = OP_GE; }
    | IN                        { $$ = OP_IN; }
    | NOT IN                    { $$ = OP_NOTIN; }
    | IS                        { $$ = OP_IS; }
    | IS NOT                    { $$ = OP_ISNOT; }
    ;

expr
    : xor_expr
    | expr PIPE xor_expr        { $$ = fe_binop(p, OP_BITOR, $1, $3, @$); }
    ;

xor_expr
    : and_expr
    | xor_expr CARET and_expr   { $$ = fe_binop(p, OP_BITXOR, $1, $3, @$); }
    ;

and_expr
    : shift_expr
    | and_expr AMP shift_expr   { $$ = fe_binop(p, OP_BITAND, $1, $3, @$); }
    ;

shift_expr
    : arith
    | shift_expr LSHIFT arith   { $$ = fe_binop(p, OP_LSHIFT, $1, $3, @$); }
    | shift_expr RSHIFT arith   { $$ = fe_binop(p, OP_RSHIFT, $1, $3, @$); }
    ;

arith
    : term
    | arith PLUS term           { $$ = fe_binop(p, OP_ADD, $1, $3, @$); }
    | arith MINUS term          { $$ = fe_binop(p, OP_SUB, $1, $3, @$); }
    ;

term
    : factor
    | term STAR factor          { $$ = fe_binop(p, OP_MUL, $1, $3, @$); }
    | term SLASH factor         { $$ = fe_binop(p, OP_DIV, $1, $3, @$); }
    | term DSLASH factor        { $$ = fe_binop(p, OP_FLOORDIV, $1, $3, @$); }
    | term PERCENT factor       { $$ = fe_binop(p, OP_MOD, $1, $3, @$); }
    | term AT factor            { $$ = fe_binop(p, OP_MATMUL, $1, $3, @$); }
    ;

factor
    : PLUS factor               { $$ = fe_unary(p, OP_POS, $2, @$); }
    | MINUS factor              { $$ = fe_unary(p, OP_NEG, $2, @$); }
    | TILDE factor              { $$ = fe_unary(p, OP_INVERT, $2, @$); }
    | power
    ;

power
    : primary
    | primary POW factor        { $$ = fe_binop(p, OP_POW, $1, $3, @$); }
    ;

primary
    : atom
    | primary DOT NAME          { $$ = fe_mk(p, ND_ATTR, @$); $$->a = $1; $$->name = $3; }
    | primary LPAR args_opt RPAR { $$ = fe_call(p, $1, $3, @$); }
    | primary LBRACK subscripts RBRACK {
            $$ = fe_mk(p, ND_SUBSCRIPT, @$);
            $$->a = $1;
            $$->b = $3;
        }
    ;

atom
    : NAME                      { $$ = fe_mk(p, ND_NAME, @$); $$->name = $1; }
    | INT                       { $$ = fe_mk(p, ND_INT, @$); $$->ival = $1; }
    | UINT                      { $$ = fe_mk(p, ND_INT, @$); $$->ival = $1; $$->str = "uint64"; }
    | FLOAT                     { $$ = fe_mk(p, ND_FLOAT, @$); $$->fval = $1; }
    | IMAG                      { $$ = fe_mk(p, ND_IMAG, @$); $$->fval = $1; }
    | strings                   { $$ = fe_join_strings(p, $1, @$); }
    | TRUE                      { $$ = fe_mk(p, ND_BOOL, @$); $$->ival = 1; }
    | FALSE                     { $$ = fe_mk(p, ND_BOOL, @$); $$->ival = 0; }
    | NONE                      { $$ = fe_mk(p, ND_NONE, @$); }
    | ELLIPSIS                  { $$ = fe_mk(p, ND_ELLIPSIS, @$); }
    | PLACEHOLDER               { $$ = fe_mk(p, ND_NONE, @$); }
    | LPAR RPAR                 { $$ = fe_seq(p, ND_TUPLE, (NodeList){0}, @$); }
    | LPAR testlist RPAR {
            $$ = $2;
            if ($$->kind == ND_TUPLE)
                $$->loc = fe_loc(p, @$);
        }
    | LBRACK RBRACK             { $$ = fe_seq(p, ND_LIST, (NodeList){0}, @$); }
    | LBRACK exprlist RBRACK    { $$ = fe_seq(p, ND_LIST, $2, @$); }
    | LBRACK exprlist COMMA RBRACK { $$ = fe_seq(p, ND_LIST, $2, @$); }
    | LBRACK test comp_for RBRACK {  /* a list comprehension */
            $$ = fe_seq(p, ND_LISTCOMP, $3, @$);
            $$->a = $2;
        }
    /* dict and set displays (typer_dict.c), and decorator option values */
    | LBRACE RBRACE             { $$ = fe_seq(p, ND_DICT, (NodeList){0}, @$); }
    | LBRACE exprlist RBRACE    { $$ = fe_seq(p, ND_SET, $2, @$); }
    | LBRACE exprlist COMMA RBRACE { $$ = fe_seq(p, ND_SET, $2, @$); }
    | LBRACE dict_items RBRACE  { $$ = $2; $$->loc = fe_loc(p, @$); }
    | LBRACE dict_items COMMA RBRACE { $$ = $2; $$->loc = fe_loc(p, @$); }
    ;

dict_items
    : test COLON test           { $$ = fe_seq(p, ND_DICT, fe_one(p, $1), @$); fe_push(p, &$$->list2, $3); }
    | dict_items COMMA test COLON test {
            $$ = $1;
            fe_push(p, &$$->list, $3);
            fe_push(p, &$$->list2, $5);
        }
    ;

strings
    : STRING                    { Node *s = fe_mk(p, ND_STR, @1); s->str = $1; s->ival = fe_is_fstring(p, $1); $$ = fe_one(p, s); }
    | strings STRING            { Node *s = fe_mk(p, ND_STR, @2); s->str = $2; s->ival = fe_is_fstring(p, $2); $$ = $1; fe_push(p, &$$, s); }
    ;

subscripts
    : sub_list                  { $$ = $1.n == 1 ? $1.items[0] : fe_seq(p, ND_TUPLE, $1, @$); }
    | sub_list COMMA            { $$ = fe_seq(p, ND_TUPLE, $1, @$); }
    ;

sub_list
    : subscript                 { $$ = fe_one(p, $1); }
    | sub_list COMMA subscript  { $$ = $1; fe_push(p, &$$, $3); }
    ;

subscript
    : test
    | opt_test COLON opt_test {
            $$ = fe_mk(p, ND_SLICE, @$);
            $$->a = $1;
            $$->b = $3;
        }
    | opt_test COLON opt_test COLON opt_test {
            $$ = fe_mk(p, ND_SLICE, @$);
            $$->a = $1;
            $$->b = $3;
            $$->c = $5;
        }
    ;

opt_test
    : %empty                    { $$ = NULL; }
    | test
    ;

/* comp_for: 'for' target 'in' or_test comp_iter*, comp_iter: comp_for | 'if' or_test;
 * the clauses in source order (ND_FOR: a = target, b = iterable; ND_IF: a = condition) */
comp_for
    : FOR for_target IN or_test {
            Node *c = fe_mk(p, ND_FOR, @$);
            fe_check_target(p, $2, false);
            c->a = fe_limit(p, $2);
            c->b = fe_limit(p, $4);
            $$ = fe_one(p, c);
        }
    | comp_for FOR for_target IN or_test {
            Node *c = fe_mk(p, ND_FOR, @2);
            fe_check_target(p, $3, false);
            c->a = fe_limit(p, $3);
            c->b = fe_limit(p, $5);
            $$ = $1;
            fe_push(p, &$$, c);
        }
    | comp_for IF or_test {
            Node *c = fe_mk(p, ND_IF, @2);
            c->a = $3;
            $$ = $1;
            fe_push(p, &$$, c);
        }
    ;

args_opt
    : %empty                    { $$ = (NodeList){0}; }
    | arglist
    | arglist COMMA
    ;

arglist
    : argument                  { $$ = fe_one(p, $1); }
    | arglist COMMA argument    { $$ = $1; fe_push(p, &$$, $3); }
    ;

argument
    : test
    | test ASSIGN test          { $$ = fe_keyword(p, $1, $3, @$); }
    | STAR test {               /* f(*t): t's elements as positional arguments */
            $$ = fe_mk(p, ND_STARRED, @$);
            $$->a = $2;
        }
    | POW test {
            fe_error(p, @$, "'**' arguments are not supported by numjit");
            $$ = $2;
        }
    ;

%%

Loc fe_loc(const FeParser *p, FeLoc l)
{
    Loc r;
    r.src = p->src;
    r.line = l.line;
    r.col = l.col;
    if (l.end_line == l.line) {
        r.len = l.end_col - l.col;
    } else {
        /* characters from the start to the end of the first line */
        const char *s = p->src->text;
        int n = 0;
        for (size_t i = (size_t)l.off; s && i < p->src->len && s[i] != '\n' && s[i] != '\r'; i++)
            if (((unsigned char)s[i] & 0xC0) != 0x80)
                n++;
        r.len = n;
    }
    if (r.len < 0)
        r.len = 0;
    return r;
}

void fe_error(FeParser *p, FeLoc l, const char *fmt, ...)
{
    va_list ap;
    if (p->diags->nerrors >= FE_MAX_ERRORS)
        return;
    va_start(ap, fmt);
    diag_vadd(p->diags, DG_ERROR, fe_loc(p, l), fmt, ap);
    va_end(ap);
    if (p->diags->nerrors >= FE_MAX_ERRORS) {
        diag_add(p->diags, DG_NOTE, fe_loc(p, l), "too many errors; stopping here");
        p->fatal_error = true;
        p->depth = 0;
    }
}


static int fe_yylex(FE_YYSTYPE *lval, FeLoc *lloc, FeParser *p)
{
    FeTok t;
    fe_layout_next(p, &t);
    fe_check_arena(p);
    *lloc = t.loc;
    p->last_tok = t;
    if (t.kind == TK_STRING && t.fstring)
        fe_note_fstring(p, t.str);
    switch (t.kind) {
    case TK_NAME: case TK_STRING: case TK_KW_UNSUP: lval->str = t.str; break;
    case TK_INT: case TK_UINT: lval->ival = t.ival; break;
    case TK_FLOAT: case TK_IMAG: lval->fval = t.fval; break;
    case TK_AUGASSIGN: lval->op = (OpKind)t.ival; break;
    default: break;
    }
    return t.kind;
}

static void fe_yyerror(FeLoc *l, FeParser *p, const char *msg)
{
    if (strcmp(msg, "memory exhausted") == 0)
        fe_error(p, *l, "the program is nested too deeply");
    else if (!p->suppress_line && !p->fatal_error)
        fe_error(p, *l, "%s", msg);
}

/* Tokens that can only continue an expression already complete: left out of "expected". */
static bool continues_expression(yysymbol_kind_t k, bool comparisons)
{
    switch (k) {
    case YYSYMBOL_PLUS: case YYSYMBOL_MINUS: case YYSYMBOL_STAR: case YYSYMBOL_SLASH:
    case YYSYMBOL_DSLASH: case YYSYMBOL_PERCENT: case YYSYMBOL_POW: case YYSYMBOL_AT:
    case YYSYMBOL_LSHIFT: case YYSYMBOL_RSHIFT: case YYSYMBOL_AMP: case YYSYMBOL_PIPE:
    case YYSYMBOL_CARET: case YYSYMBOL_LT: case YYSYMBOL_GT: case YYSYMBOL_LE: case YYSYMBOL_GE:
    case YYSYMBOL_EQ: case YYSYMBOL_NE: case YYSYMBOL_DOT: case YYSYMBOL_LPAR:
    case YYSYMBOL_LBRACK: case YYSYMBOL_IF: case YYSYMBOL_AND: case YYSYMBOL_OR:
    case YYSYMBOL_AUGASSIGN: case YYSYMBOL_SEMI: case YYSYMBOL_STRING:
        return true;
    case YYSYMBOL_IN: case YYSYMBOL_NOT: case YYSYMBOL_IS:
        return comparisons;
    default:
        return false;
    }
}

static bool starts_expression(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_INT: case YYSYMBOL_UINT: case YYSYMBOL_FLOAT: case YYSYMBOL_IMAG: case YYSYMBOL_TRUE:
    case YYSYMBOL_FALSE: case YYSYMBOL_NONE: case YYSYMBOL_TILDE: case YYSYMBOL_PLACEHOLDER:
    case YYSYMBOL_ELLIPSIS: case YYSYMBOL_LAMBDA:
        return true;
    default:
        return false;
    }
}

/* "expected ':', found end of line": the expected tokens in plain words. */
static int yyreport_syntax_error(const yypcontext_t *ctx, FeParser *p)
{
    yysymbol_kind_t exp[YYNTOKENS], tok = yypcontext_token(ctx);
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    bool expression = false, name = false, comparisons = false, rpar = false;
    const char *words[8];
    int nwords = 0;
    char found[96];
    StrBuf msg;

    if (p->suppress_line || p->fatal_error)
        return 0;
    p->suppress_line = true;

    if (tok == YYSYMBOL_NAME)
        snprintf(found, sizeof found, "'%.60s'", p->last_tok.str);
    else if (tok == YYSYMBOL_KW_UNSUP)
        snprintf(found, sizeof found, "'%s'", p->last_tok.str);
    else if (tok == YYSYMBOL_DEDENT)
        snprintf(found, sizeof found, "a line with less indentation");
    else
        snprintf(found, sizeof found, "%s", yysymbol_name(tok));

    for (int i = 0; i < n; i++) {
        if (exp[i] == YYSYMBOL_INDENT) {
            fe_error(p, *yypcontext_location(ctx), "expected an indented block, found %s", found);
            return 0;
        }
        if (exp[i] == YYSYMBOL_LT)
            comparisons = true;
        if (exp[i] == YYSYMBOL_NAME)
            name = true;
        if (exp[i] == YYSYMBOL_RPAR)
            rpar = true;
        if (starts_expression(exp[i]))
            expression = true;
    }
    if (expression)
        words[nwords++] = "an expression";
    else if (name)
        words[nwords++] = "a name";
    for (int i = 0; i < n && nwords < 8; i++) {
        yysymbol_kind_t k = exp[i];
        if (k == YYSYMBOL_NAME || continues_expression(k, comparisons) ||
            (expression && (starts_expression(k) || k == YYSYMBOL_MINUS || k == YYSYMBOL_NOT ||
                            k == YYSYMBOL_LBRACE || k == YYSYMBOL_STAR || k == YYSYMBOL_POW)) ||
            k == YYSYMBOL_YYerror || k == YYSYMBOL_YYUNDEF || k == YYSYMBOL_KW_UNSUP ||
            (rpar && k == YYSYMBOL_ASSIGN) /* a keyword argument: not what was forgotten */)
            continue;
        words[nwords++] = yysymbol_name(k);
    }
    sb_init(&msg);
    if (nwords == 0 || nwords > 4) {
        sb_printf(&msg, "invalid syntax: unexpected %s", found);
    } else {
        sb_puts(&msg, "expected ");
        for (int i = 0; i < nwords; i++) {
            if (i > 0)
                sb_puts(&msg, i == nwords - 1 ? " or " : ", ");
            sb_puts(&msg, words[i]);
        }
        sb_printf(&msg, ", found %s", found);
    }
    fe_error(p, *yypcontext_location(ctx), "%s", msg.data);
    sb_free(&msg);
    return 0;
}

/* 'return' or 'yield' outside a def, 'break'/'continue' outside a loop: Python rejects the file. */
static void check_placement(FeParser *p, const NodeList *body, bool in_def, bool in_loop)
{
    for (int i = 0; i < body->n; i++) {
        Node *s = body->items[i];
        switch (s->kind) {
        case ND_RETURN:
            if (!in_def)
                fe_errl(p, s->loc, "'return' outside function");
            break;
        case ND_YIELD:
            if (!in_def)
                fe_errl(p, s->loc, "'yield' outside function");
            break;
        case ND_BREAK:
            if (!in_loop)
                fe_errl(p, s->loc, "'break' outside loop");
            break;
        case ND_CONTINUE:
            if (!in_loop)
                fe_errl(p, s->loc, "'continue' not properly in loop");
            break;
        case ND_IF:
            check_placement(p, &s->list, in_def, in_loop);
            check_placement(p, &s->list2, in_def, in_loop);
            break;
        case ND_WHILE: case ND_FOR:
            check_placement(p, &s->list, in_def, true);
            break;
        case ND_FUNCDEF:
            check_placement(p, &s->list, true, false);
            break;
        default:
            break;
        }
    }
}

Node *fe_parse(Arena *arena, const Source *src, DiagList *diags)
{
    FeParser *p = nj_calloc(1, sizeof *p);
    Node *volatile module;

    if (!p)
        return NULL;
    p->arena = arena;
    p->src = src;
    p->diags = diags;
    module = ast_new(arena, ND_MODULE, (Loc){src, 1, 1, 0});
    p->module = module;
    if (arena_failed(arena) || fe_scan_init(p) != 0) {
        nj_free(p);
        return NULL;
    }
    fe_layout_init(p);
    if (setjmp(p->fatal) == 0)
        fe_yyparse(p);
    fe_scan_done(p);
    if (!arena_failed(arena))
        check_placement(p, &module->list, false, false);
    nj_free(p);
    if (arena_failed(arena))
        return NULL;
    return module;
}
