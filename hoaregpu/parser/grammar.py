"""The statement, annotation and file grammar (expressions live in `expressions.py`).

Statements are chosen by their first token; after a committing token (`if`, `while`,
`(`, a clause keyword, an assignment operator, ...) the grammar uses pyparsing's `-` so
an error is reported where it is, not at the start of the kernel. Unsupported C is
recognised by its first token and raises an UnsupportedError naming it. Where clauses
may stand is checked in `placement.py` from the items the grammar returns.
"""

from __future__ import annotations

from typing import Any

import pyparsing as pp

from ..errors import SpecError, UnsupportedError
from ..syntax import (
    AssignOp,
    AssignStmt,
    BaseType,
    Clause,
    ClauseKind,
    Decl,
    Declarator,
    EmptyStmt,
    ForStmt,
    IfStmt,
    IncDec,
    KernelDef,
    Param,
    Stmt,
    SyncStmt,
    WhileStmt,
)
from ..terms import Term, ThreadCount, ThreadId, Var
from . import placement
from .context import IDENT_NOT_KW_RE, IDENT_RE, ctx, error, fail, kw, punct, token, tracker
from .expressions import build
from .preprocess import ANN_CLOSE, ANN_OPEN

Toks = pp.ParseResults
B = r"(?![A-Za-z_0-9])"  # end of a word
WS = r"[ \t\r\n\f\v]"

# C whitespace; restored at the end of this module so other pyparsing users are unaffected
_SAVED_WHITESPACE = pp.ParserElement.DEFAULT_WHITE_CHARS
pp.ParserElement.set_default_whitespace_chars(" \t\r\n\f\v")

EXPR = build(formula=False)
FORMULA = build(formula=True)

TYPES_HINT = "supported types: int, unsigned, unsigned int, bool, size_t (all mathematical integers)"

# ---------------------------------------------------------------- names and types


def _name(s: str, loc: int, toks: Toks) -> tuple[str, int]:
    return (str(toks[0]), loc)


NAME = pp.Regex(IDENT_NOT_KW_RE).set_name("a name").set_parse_action(_name)


def _check_new_name(name: str, loc: int, what: str) -> None:
    if ctx().define_at(name, loc) is not None:
        raise error(f"'{name}' is a #define'd constant and cannot name a {what}", loc)
    if name in ("tid", "ntid"):
        builtin = "threadIdx.x" if name == "tid" else "blockDim.x"
        raise error(f"'{name}' is a built-in name for {builtin} and cannot name a {what}", loc)


def _base_type(s: str, loc: int, toks: Toks) -> BaseType:
    word = str(toks[0]).split()[0]
    return BaseType(word)


CONST = pp.Regex(rf"(?:const|__restrict__|restrict){B}").suppress()
BASE_TYPE = (
    pp.Regex(rf"(?:unsigned(?:{WS}+int{B})?|int|bool|size_t){B}")
    .set_name("a type")
    .set_parse_action(_base_type)
)
BAD_TYPE = pp.Regex(
    rf"(?:(?:(?:unsigned|signed){WS}+)?(?:long|short|char)|float|double|void|signed|half|__half|auto"
    rf"|dim3|u?int(?:8|16|32|64)_t|float[1-4]|int[1-4]){B}"
).set_parse_action(fail(lambda t, loc: UnsupportedError(f"type '{t}'", ctx().span(loc), TYPES_HINT)))
TYPE = pp.ZeroOrMore(CONST) + (BAD_TYPE | BASE_TYPE) + pp.ZeroOrMore(CONST)

# ---------------------------------------------------------------- declarations


def _declarator(s: str, loc: int, toks: Toks) -> Declarator:
    name, name_loc = toks[0]
    if name not in ("tid", "ntid"):  # checked with the initialiser in _decl
        _check_new_name(name, name_loc, "variable")
    sizes = tuple(toks[1])
    init: Term | None = toks[2][0] if len(toks[2]) else None
    return Declarator(name, sizes, init, ctx().span(name_loc))


_BUILTIN_INIT: dict[str, Term] = {"tid": ThreadId(), "ntid": ThreadCount()}


def _decl(s: str, loc: int, toks: Toks) -> Stmt:
    items = list(toks)
    shared = items[0] == "__shared__"
    if shared:
        items = items[1:]
    btype: BaseType = items[0]
    decls: list[Declarator] = []
    for d in items[1:]:
        if shared and d.init is not None:
            raise SpecError("a '__shared__' variable cannot have an initialiser", d.span)
        if d.name in _BUILTIN_INIT:
            # `int tid = threadIdx.x;` is a common idiom and already what `tid` means: drop it
            if shared or d.sizes or d.init != _BUILTIN_INIT[d.name]:
                builtin = "threadIdx.x" if d.name == "tid" else "blockDim.x"
                raise SpecError(
                    f"'{d.name}' is a built-in name for {builtin} and cannot name another variable",
                    d.span,
                    f"'{d.name}' may only be declared as 'int {d.name} = {builtin};'",
                )
            continue
        decls.append(d)
    if not decls:
        return EmptyStmt(ctx().span(loc))
    return Decl(shared, btype, tuple(decls), ctx().span(loc))


POINTER_VAR = pp.Regex(r"\*").set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            "pointer variables", ctx().span(loc), "declare an array ('int buf[4];') or use a parameter"
        )
    )
)
BRACE_INIT = pp.Literal("{").set_parse_action(
    fail(lambda t, loc: UnsupportedError("array initialisers '{...}'", ctx().span(loc)))
)
DECLARATOR = (
    pp.Optional(POINTER_VAR)
    + NAME.copy().set_name("a variable name")
    + pp.Group(pp.ZeroOrMore(punct("[") - EXPR - punct("]", "']'")))
    + pp.Group(pp.Optional(pp.Suppress(pp.Regex(r"=(?!=)")) - (BRACE_INIT | EXPR)))
).set_parse_action(_declarator)
DECL_CORE = (
    pp.Optional(pp.Regex(rf"__shared__{B}")) + TYPE - pp.DelimitedList(DECLARATOR, ",", min=1)
).set_parse_action(_decl)

# ---------------------------------------------------------------- assignments


def _lvalue(s: str, loc: int, toks: Toks) -> Var:
    name, name_loc = toks[0]
    if ctx().define_at(name, name_loc) is not None:
        raise error(f"cannot assign to '{name}': it is a #define'd constant", name_loc)
    if name in ("tid", "ntid"):
        raise error(f"cannot assign to '{name}': it is the built-in thread {name[:-2] or 'id'}", name_loc)
    return Var(name, tuple(toks[1:]), ctx().span(name_loc))


def _assign(s: str, loc: int, toks: Toks) -> Stmt:
    target: Var = toks[0]
    op, _ = toks[1]
    if op in ("++", "--"):
        return IncDec(target, 1 if op == "++" else -1, target.span or ctx().span(loc))
    return AssignStmt(target, AssignOp(op), toks[2], target.span or ctx().span(loc))


def _pre_incdec(s: str, loc: int, toks: Toks) -> Stmt:
    (op, _), target = toks[0], toks[1]
    return IncDec(target, 1 if op == "++" else -1, ctx().span(loc))


LVALUE = (NAME + pp.ZeroOrMore(punct("[") - EXPR - punct("]", "']'"))).set_parse_action(_lvalue)
BAD_ASSIGN = pp.Regex(r"(?:&|\||\^)=").set_parse_action(
    fail(lambda t, loc: UnsupportedError(f"bitwise assignment '{t}'", ctx().span(loc)))
)
ASSIGN_TAIL = (
    (token(r"(?:<<|>>|[-+*/%])?=(?!=)", "'='") - EXPR) | token(r"\+\+|--", "'++'") | BAD_ASSIGN
).set_name("an assignment ('=', '+=', ..., '++' or '--')")
SIMPLE = (
    (token(r"\+\+|--", "'++'") - LVALUE).set_parse_action(_pre_incdec)
    | (LVALUE - ASSIGN_TAIL).set_parse_action(_assign)
).set_name("an assignment")
COMMA = pp.Literal(",").set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            "comma operator", ctx().span(loc), "write separate statements (or 'int x, y;' to declare)"
        )
    )
)
SEMI = punct(";", "';' after the statement")

# ---------------------------------------------------------------- statements

STMT = pp.Forward()
STMT.set_name("a statement")
ANNOT = pp.Forward()
SUB = (pp.ZeroOrMore(ANNOT) + STMT).set_parse_action(
    lambda s, loc, t: placement.single(list(t), ctx().span(loc))
)
BLOCK = (punct("{") - pp.ZeroOrMore(ANNOT | STMT) - punct("}", "a statement or '}'")).set_parse_action(
    lambda s, loc, t: placement.block(list(t), ctx().span(loc))
)
LPAREN = punct("(")
RPAREN = punct(")", "')'")


def _if(s: str, loc: int, toks: Toks) -> Stmt:
    return IfStmt(toks[0], toks[1], toks[2] if len(toks) > 2 else None, ctx().span(loc))


def _for(s: str, loc: int, toks: Toks) -> Stmt:
    def opt(group: Any) -> Any:
        return group[0] if len(group) else None

    return ForStmt(opt(toks[0]), opt(toks[1]), opt(toks[2]), toks[3], (), ctx().span(loc))


IF = (kw("if") - LPAREN - EXPR - RPAREN - SUB + pp.Optional(kw("else") - SUB)).set_parse_action(_if)
WHILE = (kw("while") - LPAREN - EXPR - RPAREN - SUB).set_parse_action(
    lambda s, loc, t: WhileStmt(t[0], t[1], (), ctx().span(loc))
)
FOR = (
    kw("for")
    - LPAREN
    - pp.Group(pp.Optional(DECL_CORE | SIMPLE))
    - punct(";", "';' after the loop's initialisation")
    - pp.Group(pp.Optional(EXPR))
    - punct(";", "';' after the loop's condition")
    - pp.Group(pp.Optional(SIMPLE) + pp.Optional(COMMA))
    - RPAREN
    - SUB
).set_parse_action(_for)
SYNC = (kw("__syncthreads") - LPAREN - RPAREN - SEMI).set_parse_action(
    lambda s, loc, t: SyncStmt(ctx().span(loc))
)
EMPTY = pp.Literal(";").set_parse_action(lambda s, loc, t: EmptyStmt(ctx().span(loc)))

_STMT_HINTS = {
    "return": "kernels run to the end of their body; restructure with 'if'",
    "break": "use the loop condition instead",
    "continue": "use 'if' inside the loop body instead",
    "goto": None,
    "switch": "use 'if' / 'else'",
    "case": "use 'if' / 'else'",
    "default": "use 'if' / 'else'",
    "do": "use 'while'",
}


def _bad_stmt(word: str, loc: int) -> Exception:
    if word == "else":
        return error("'else' without a matching 'if'", loc)
    if word in _STMT_HINTS:
        return UnsupportedError(f"'{word}' statement", ctx().span(loc), _STMT_HINTS[word])
    if word in ("struct", "union", "enum", "typedef", "class", "template"):
        return UnsupportedError(f"'{word}'", ctx().span(loc), "only integer scalars and arrays are supported")
    return UnsupportedError(f"'{word}' inside a kernel body", ctx().span(loc), TYPES_HINT)


BAD_STMT = pp.Regex(
    rf"(?:return|break|continue|goto|switch|case|default|do|else|struct|union|enum|typedef|class|template"
    rf"|static|extern|volatile|register|inline|__device__|__global__|__host__|__constant__){B}"
).set_parse_action(fail(_bad_stmt))
CALL_STMT = pp.Regex(rf"{IDENT_NOT_KW_RE}{WS}*\(").set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            f"call to '{t.rstrip('( ').strip()}'",
            ctx().span(loc),
            "the only call supported is the statement '__syncthreads();'",
        )
    )
)
UNKNOWN_TYPE = pp.Regex(rf"({IDENT_NOT_KW_RE})(?={WS}+(?:\*{WS}*)*{IDENT_RE})").set_parse_action(
    fail(lambda t, loc: UnsupportedError(f"type '{t}'", ctx().span(loc), TYPES_HINT))
)
DEREF_STMT = pp.Regex(r"\*").set_parse_action(
    fail(lambda t, loc: UnsupportedError("pointer dereference '*p'", ctx().span(loc), "use 'a[i]'"))
)

STMT <<= tracker() + (
    BLOCK
    | IF
    | WHILE
    | FOR
    | SYNC
    | EMPTY
    | BAD_TYPE
    | (DECL_CORE - SEMI)
    | BAD_STMT
    | CALL_STMT
    | UNKNOWN_TYPE
    | (SIMPLE - pp.Optional(COMMA) - SEMI)
    | DEREF_STMT
).set_name("a statement")

# ---------------------------------------------------------------- annotations

_CLAUSE_KINDS = {
    "requires": ClauseKind.REQUIRES,
    "ensures": ClauseKind.ENSURES,
    "assert": ClauseKind.ASSERT,
    "assume": ClauseKind.ASSUME,
}


def _clause(s: str, loc: int, toks: Toks) -> Clause:
    word = " ".join(str(toks[0]).split())
    kind = _CLAUSE_KINDS.get(word, ClauseKind.LOOP_INVARIANT)
    return Clause(kind, toks[1], ctx().span(loc))


CLAUSE_KW = pp.Regex(rf"(?:requires|ensures|loop{WS}+invariant|loop_invariant|assert|assume){B}")
BAD_CLAUSE = pp.Regex(
    rf"(?:loop{WS}+(?:variant|assigns|frees|allocates)|assigns|decreases|terminates|behaviou?r|complete"
    rf"|disjoint|predicate|logic|lemma|axiomatic|ghost|invariant|frees|allocates|context_everywhere"
    rf"|context|given|yields|exits|returns|breaks|continues|pure|inline|resource){B}"
).set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            f"clause '{' '.join(t.split())}'",
            ctx().span(loc),
            "supported clauses: requires, ensures, loop invariant, assert, assume",
        )
    )
)
CLAUSE = (CLAUSE_KW - FORMULA - punct(";", "';' at the end of the clause")).set_parse_action(_clause)
ANNOT <<= (
    pp.Suppress(ANN_OPEN)
    - pp.ZeroOrMore(CLAUSE | BAD_CLAUSE)
    - pp.Suppress(ANN_CLOSE).set_name(
        "a clause ('requires', 'ensures', 'loop invariant', 'assert', 'assume') or the end of the annotation"
    )
).set_parse_action(lambda s, loc, t: placement.Annot(tuple(t), ctx().span(loc)))

# ---------------------------------------------------------------- kernels and files


def _param(s: str, loc: int, toks: Toks) -> Param:
    items = list(toks)
    btype: BaseType = items[0]
    name, name_loc = next(i for i in items if isinstance(i, tuple))
    _check_new_name(name, name_loc, "parameter")
    dims = sum(1 for i in items if i in ("*", "[]"))
    return Param(name, btype, dims, ctx().span(loc))


BAD_PTYPE = BAD_TYPE.copy()
PARAM = (
    pp.ZeroOrMore(CONST)
    + (BAD_PTYPE | BASE_TYPE)
    + pp.ZeroOrMore(CONST)
    - pp.ZeroOrMore(pp.Literal("*") + pp.ZeroOrMore(CONST))
    - NAME.copy().set_name("a parameter name")
    - pp.ZeroOrMore(
        (punct("[") + pp.Optional(EXPR).suppress() - punct("]", "']'")).set_parse_action(lambda: "[]")
    )
).set_parse_action(_param)
PARAMS = (
    LPAREN
    - pp.Optional((kw("void") + pp.FollowedBy(")")) | pp.DelimitedList(PARAM, ",", min=1))
    - punct(")", "')' or another parameter")
)


def _kernel(s: str, loc: int, toks: Toks) -> KernelDef:
    name, _ = toks[0]
    params: tuple[Param, ...] = tuple(toks[1])
    seen: set[str] = set()
    for p in params:
        if p.name in seen:
            raise SpecError(f"two parameters are named '{p.name}'", p.span)
        seen.add(p.name)
    return KernelDef(name, params, (), (), toks[2], ctx().span(loc))


KERNEL = (
    kw("__global__")
    - kw("void").set_name("'void' (a kernel returns nothing)")
    - NAME.copy().set_name("the kernel's name")
    - pp.Group(PARAMS)
    - BLOCK.copy().set_name("'{'")
).set_parse_action(_kernel)
BAD_TOP = pp.Regex(rf"(?:__device__|__host__|__constant__|__shared__|template|namespace|using){B}")
BAD_TOP.set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            f"'{t}' outside a kernel",
            ctx().span(loc),
            "a spec holds '__global__' kernels only; inline helper code into the kernel",
        )
    )
)
HOST = pp.Regex(rf"[A-Za-z_][A-Za-z_0-9]*{B}").set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            "host code or a global declaration",
            ctx().span(loc),
            "a spec holds '__global__' kernels (with their contracts) and #defines only",
        )
    )
)
FILE = (
    pp.ZeroOrMore(tracker() + (ANNOT | KERNEL | BAD_TOP | HOST))
    - pp.StringEnd().set_name("a '__global__' kernel")
).set_parse_action(lambda s, loc, t: placement.top_level(list(t)))
FILE.parse_with_tabs()
EXPR_ONLY = (EXPR - pp.StringEnd().set_name("the end of the expression")).parse_with_tabs()
FORMULA_ONLY = (FORMULA - pp.StringEnd().set_name("the end of the formula")).parse_with_tabs()

pp.ParserElement.set_default_whitespace_chars(_SAVED_WHITESPACE)
