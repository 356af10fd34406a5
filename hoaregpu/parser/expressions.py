"""Expression and formula grammars: explicit precedence levels, each `operand (op - operand)*`.

`build(formula=False)` is the program-expression grammar, `build(formula=True)` the
annotation-formula grammar (adds `==>`, `<==>`, quantifiers, `@`, `\\old`, `\\all`,
`\\none`, chained comparisons). Formula-only syntax in program code, and unsupported C
(calls, casts, `*p`, `&x`, `x++` inside an expression, ...) are
recognised and raise a SpecError/UnsupportedError pointing at the offending token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

import pyparsing as pp

from ..errors import SpecError, UnsupportedError
from ..floats import literal as float_literal
from ..floats import round32
from ..terms import (
    RESULT,
    At,
    Binary,
    BinOp,
    Conditional,
    IntLit,
    Old,
    Quant,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    ThreadPredKind,
    Unary,
    UnOp,
    Var,
)
from ..terms import (
    builtin as builtin_term,
)
from .context import IDENT_NOT_KW_RE, IDENT_RE, ctx, error, fail, punct, token, track

Toks = pp.ParseResults

ANNOT_ONLY = "is only allowed in annotations (/*@ ... */ or //@ comments)"
SUPPORTED_OPS = "supported operators: + - * / % << >> & | ^ ~ < <= > >= == != && || ! ?:"

# ---------------------------------------------------------------- primaries


def _number(s: str, loc: int, toks: Toks) -> Term:
    text = str(toks[0])
    low = text.lower()
    if "." in text or (not low.startswith("0x") and ("e" in low or "f" in low)):
        return _float_number(text, loc)
    digits = low.rstrip("u") if low.count("u") <= 1 else low
    if "l" in low:
        raise UnsupportedError(
            f"long integer literal '{text}'", ctx().span(loc), "write the literal without the 'l'/'L' suffix"
        )
    if len(digits) > 1000:
        raise error("integer literal too long", loc)
    try:
        if digits.startswith("0x"):
            value = int(digits[2:], 16)
        elif digits.startswith("0") and len(digits) > 1:
            value = int(digits[1:], 8)
        else:
            value = int(digits, 10)
    except ValueError:
        raise error(f"invalid integer literal '{text}'", loc) from None
    return IntLit(value, ctx().span(loc))


def _float_number(text: str, loc: int) -> Term:
    """A float literal (`1.5f`, `2.0`, `1e-3`): an opaque constant (`hoaregpu.floats`)."""
    single = text[-1] in "fF"
    try:
        value = float(text[:-1] if single else text)
    except ValueError:
        raise error(f"invalid floating-point literal '{text}'", loc) from None
    return float_literal(round32(value) if single else value, ctx().span(loc))


def _bool(s: str, loc: int, toks: Toks) -> Term:
    return IntLit(1 if str(toks[0]) == "true" else 0, ctx().span(loc))


def _builtin_var(s: str, loc: int, toks: Toks) -> Term:
    base, member = str(toks["base"]), cast(Any, toks).get("member")
    span = ctx().span(loc)
    if base == "warpSize":
        raise UnsupportedError(f"'{base}'", span, "warps are not modelled: threads run in lockstep per block")
    if member is None:
        raise error(f"expected '.x', '.y' or '.z' after '{base}'", loc)
    term = builtin_term(base, str(member), span)
    if term is None:
        raise error(f"'{base}' has no member '{member}' (use '{base}.x', '.y' or '.z')", loc)
    return term


def _ident(s: str, loc: int, toks: Toks) -> Term:
    name = str(toks[0])
    c = ctx()
    c.check_macro(name, loc)
    value = c.use_define(name, loc)
    if value is not None:
        return value
    if name == "tid" and name not in c.shadowed:
        return ThreadId(c.span(loc))
    if name == "ntid" and name not in c.shadowed:
        return ThreadCount(c.span(loc))
    return Var(name, (), c.span(loc))


def _call(text: str, loc: int) -> SpecError:
    name = text.rstrip("( \t\r\n")
    ctx().check_macro(name, loc)  # `F(x)` with a function-like macro F
    if name == "__syncthreads":
        return error("'__syncthreads()' must stand alone as a statement: '__syncthreads();'", loc)
    return UnsupportedError(
        f"call to '{name}'",
        ctx().span(loc),
        "the only call supported is the statement '__syncthreads();'",
    )


def _unsupported(what: str, hint: str | None = None) -> Any:
    return fail(lambda text, loc: UnsupportedError(what.format(text.strip()), ctx().span(loc), hint))


def _backslash_in_code(text: str, loc: int) -> SpecError:
    return error(f"'{text}' {ANNOT_ONLY}", loc)


# ---------------------------------------------------------------- builders


def _fold_left(s: str, loc: int, toks: Toks | list[Any]) -> Term:
    items = list(toks)
    left: Term = items[0]
    for i in range(1, len(items), 2):
        op, _ = items[i]
        left = Binary(BinOp(op), left, items[i + 1], left.span)
    return left


def _chain(formula: bool) -> Any:
    def action(s: str, loc: int, toks: Toks | list[Any]) -> Term:
        items = list(toks)
        if len(items) <= 3:
            return _fold_left(s, loc, toks)
        _, op2_loc = items[3]
        if not formula:
            raise error(
                "chained comparisons are only allowed in annotations",
                op2_loc,
                "in code, 'a < b < c' compares the 0/1 result of 'a < b' with c; write 'a < b && b < c'",
            )
        ops = [items[i][0] for i in range(1, len(items), 2)]
        if "!=" in ops:
            raise error("'!=' cannot be chained; write the comparisons joined with '&&'", op2_loc)
        if any(o in ("<", "<=") for o in ops) and any(o in (">", ">=") for o in ops):
            raise error("a chain of comparisons must go one way (all '<'/'<=' or all '>'/'>=')", op2_loc)
        out: Term | None = None
        for i in range(1, len(items), 2):
            left: Term = items[i - 1]
            cmp = Binary(BinOp(items[i][0]), left, items[i + 1], left.span)
            out = cmp if out is None else Binary(BinOp.AND, out, cmp, out.span)
        assert out is not None
        return out

    return action


def _fold_right(s: str, loc: int, toks: Toks) -> Term:
    items = list(toks)
    right: Term = items[-1]
    for i in range(len(items) - 2, 0, -2):
        op, _ = items[i]
        left: Term = items[i - 1]
        right = Binary(BinOp(op), left, right, left.span)
    return right


def _unary(s: str, loc: int, toks: Toks) -> Term:
    (op, op_loc), operand = toks[0], toks[1]
    if op == "+":
        return operand  # type: ignore[no-any-return]
    if op == "~":  # two's complement, as in code: ~x = x ^ -1
        return Binary(BinOp.BXOR, operand, IntLit(-1, ctx().span(op_loc)), ctx().span(op_loc))
    return Unary(UnOp(op), operand, ctx().span(op_loc))


def _prefix_operator(s: str, loc: int, toks: Toks) -> tuple[str, int]:
    track(s, loc, toks)
    op = str(toks[0])
    if op in ("++", "--", "*", "&"):
        named = {"*": "pointer dereference '*p'", "&": "address-of '&x'"}
        what = named.get(op, f"'{op}' inside an expression")
        raise UnsupportedError(what, ctx().span(loc), "use 'a[i]' for memory" if op in "*&" else None)
    return (op, loc)


def _conditional(s: str, loc: int, toks: Toks) -> Term:
    if len(toks) == 1:
        return toks[0]  # type: ignore[no-any-return]
    cond: Term = toks[0]
    return Conditional(cond, toks[1], toks[2], cond.span)


@dataclass(frozen=True)
class _Field:
    """`.f` or `->f` after a variable: structs are flattened, so `a[i].f` names the variable
    `a.f` at `[i]`, and `p->f` is `p[0].f` (hoaregpu/frontend/aggregates.py)."""

    name: str
    arrow: bool
    loc: int


def _field(s: str, loc: int, toks: Toks) -> _Field:
    text = str(toks[0])
    arrow = text.startswith("->")
    return _Field(text[2 if arrow else 1 :].strip(), arrow, loc)


def _indexed(s: str, loc: int, toks: Toks) -> Term:
    base: Term = toks[0]
    if len(toks) == 1:
        return base
    if not isinstance(base, Var) or base.indices:
        what = "have fields" if isinstance(toks[1], _Field) else "be indexed"
        raise error(f"only a variable can {what} (write 'a[i]', 's.f', '\\old(a[i])', 'a[i] @ t')", loc)
    name, indices = base.name, list(base.indices)
    for item in toks[1:]:
        if isinstance(item, _Field):
            if item.arrow:
                indices.append(IntLit(0, ctx().span(item.loc)))
            name = f"{name}.{item.name}"
        else:
            indices.append(item)
    return Var(name, tuple(indices), base.span)


def _at(s: str, loc: int, toks: Toks) -> Term:
    term: Term = toks[0]
    for thread in toks[1:]:
        term = At(term, thread, term.span)
    return term


_QTYPES = {"int": 0, "integer": 0, "bool": 0, "unsigned": 1, "unsigned int": 1, "size_t": 1}


def _quant(s: str, loc: int, toks: Toks) -> Term:
    c = ctx()
    kind = QuantKind.FORALL if toks[0] == "\\forall" else QuantKind.EXISTS
    qtype = " ".join(str(toks[1]).split())
    names: list[tuple[str, int]] = list(toks[2])
    body: Term = toks[3]
    seen: set[str] = set()
    for name, name_loc in names:
        if name in ("tid", "ntid"):
            raise error(f"'{name}' is a built-in name and cannot be bound by a quantifier", name_loc)
        if c.define_at(name, name_loc) is not None:
            raise error(f"'{name}' is a #define'd constant and cannot be bound by a quantifier", name_loc)
        if name in seen:
            raise error(f"'{name}' is bound twice in the same quantifier", name_loc)
        seen.add(name)
    if _QTYPES[qtype]:  # unsigned / size_t: the bound variables are >= 0
        guard: Term | None = None
        for name, name_loc in names:
            ge = Binary(BinOp.GE, Var(name, (), c.span(name_loc)), IntLit(0, c.span(name_loc)))
            guard = ge if guard is None else Binary(BinOp.AND, guard, ge, guard.span)
        assert guard is not None
        op = BinOp.IMPLIES if kind is QuantKind.FORALL else BinOp.AND
        body = Binary(op, guard, body, guard.span)
    return Quant(kind, tuple(n for n, _ in names), body, c.span(loc))


def _old(s: str, loc: int, toks: Toks) -> Term:
    return Old(toks[1], ctx().span(loc))


def _thread_pred(s: str, loc: int, toks: Toks) -> Term:
    kind = ThreadPredKind.ALL if toks[0] == "\\all" else ThreadPredKind.NONE
    return ThreadPred(kind, toks[1], ctx().span(loc))


def _result(s: str, loc: int, toks: Toks) -> Term:
    return Var(RESULT, (), ctx().span(loc))


def _unknown_backslash(text: str, loc: int) -> SpecError:
    return error(
        f"unknown built-in '{text}'",
        loc,
        "formulas may use \\forall, \\exists, \\old(e), \\all(e), \\none(e), \\result and 'e @ t'",
    )


def _expect_paren(s: str, loc: int, toks: Toks) -> None:
    raise error(f"expected '(' after '{toks[0]}'", loc + len(str(toks[0])))


# ---------------------------------------------------------------- the grammar


# C's binary operators as one regex (longer spellings first where one is a prefix of another)
_BINARY_OPS = "|".join(
    (
        r"\*(?!=)|/(?!=)|%(?!=)",
        r"\+(?![+=])|-(?![-=>])",
        r"<<(?!=)|>>(?!=)",
        r"<=(?!=)|>=|<(?![<=])|>(?![>=])",
        r"==(?![=>])|!=",
        r"&&|&(?![&=])",
        r"\^(?!=)",
        r"\|\||\|(?![|=])",
    )
)
# binding strength of each operator: higher binds tighter
_RANK: dict[str, int] = {
    "*": 9, "/": 9, "%": 9, "+": 8, "-": 8, "<<": 7, ">>": 7,
    "<=": 6, ">=": 6, "<": 6, ">": 6, "==": 5, "!=": 5,
    "&": 4, "^": 3, "|": 2, "&&": 1, "||": 0,
}  # fmt: skip
_CHAINED = frozenset({6, 5})


def _by_precedence(formula: bool) -> Any:
    """Group `t0 op1 t1 op2 t2 ...` by C's precedence, left-associative, comparisons chained."""
    chain = _chain(formula)

    def group(items: list[Any], rank: int) -> Term:
        if len(items) == 1:
            return items[0]  # type: ignore[no-any-return]
        lowest = min(_RANK[items[i][0]] for i in range(1, len(items), 2))
        if lowest > rank:
            return group(items, lowest)
        parts: list[Any] = []
        start = 0
        for i in range(1, len(items), 2):
            if _RANK[items[i][0]] == rank:
                parts += [group(items[start:i], rank + 1), items[i]]
                start = i + 1
        parts.append(group(items[start:], rank + 1))
        return chain("", 0, parts) if rank in _CHAINED else _fold_left("", 0, parts)

    def action(s: str, loc: int, toks: Toks) -> Term:
        return group(list(toks), 0)

    return action


class _Guarded(pp.ParseElementEnhance):
    """`expr`, or nothing when the text ahead cannot start it (`peek` does not match).

    For the optional trailers after every operand (`[i]`, `.f`, `@ t`, an operator): one
    regex test instead of pyparsing trying, and failing, each alternative in turn, which
    was most of an annotation's parse time.
    """

    def __init__(self, peek: str, expr: pp.ParserElement) -> None:
        super().__init__(expr)
        self._peek = re.compile(rf"[ \t\r\n\f\v]*(?:{peek})")  # from before the whitespace
        self.mayReturnEmpty = True

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> Any:
        if not self._peek.match(instring, loc):
            return loc, []
        assert self.expr is not None
        return self.expr._parse(instring, loc, do_actions, callPreParse=False)


def _one_of_tokens(tokens: list[tuple[str, str, Any]]) -> pp.ParserElement:
    """One regex `(?P<kind>...)|...` whose match goes to the action of the kind that matched."""
    actions = {kind: action for kind, _, action in tokens}
    regex = "|".join(f"(?P<{kind}>{pattern})" for kind, pattern, _ in tokens)

    def dispatch(s: str, loc: int, toks: Toks) -> Any:
        track(s, loc, toks)  # for the position of "nested too deeply" (with '(' and prefixes)
        kind = next(k for k in actions if cast(Any, toks).get(k) is not None)
        return actions[kind](s, loc, toks)

    return pp.Regex(regex).set_parse_action(dispatch)


def _op(regex: str) -> pp.ParserElement:
    return token(regex, "an operator")


def build(formula: bool) -> pp.ParserElement:
    """The top level of the expression (or formula) grammar, with its checks of what follows."""
    top = pp.Forward()
    top.set_name("a formula" if formula else "an expression")
    operand = pp.Forward()  # the unary level
    operand.set_name("an expression")

    # The one-token primaries are one regex of named alternatives (tried in this order, as a
    # MatchFirst would) dispatched to their actions: one regex scan instead of seven failures.
    tokens: list[tuple[str, str, Any]] = [
        ("number", r"[0-9][A-Za-z_0-9.]*|\.[0-9][A-Za-z_0-9.]*", _number),
        ("boolean", r"(?:true|false)(?![A-Za-z_0-9])", _bool),
        (
            "builtin",
            r"(?P<base>threadIdx|blockDim|blockIdx|gridDim|warpSize)(?![A-Za-z_0-9])"
            rf"(?:[ \t]*\.[ \t]*(?P<member>{IDENT_RE}))?",
            _builtin_var,
        ),
        (
            "cast",
            r"\([ \t\r\n]*(?:const[ \t\r\n]+)?(?:unsigned|signed|int|bool|size_t|float|double|char|long"
            r"|short|void|half)(?![A-Za-z_0-9])",
            _unsupported("cast", "integer types are all mathematical integers; drop the cast"),
        ),
        ("sizeof", r"sizeof(?![A-Za-z_0-9])", _unsupported("'sizeof'")),
        ("call", rf"(?:{IDENT_NOT_KW_RE}|__syncthreads)[ \t\r\n]*\(", fail(_call)),
        ("ident", IDENT_NOT_KW_RE, _ident),
    ]
    alternatives: list[pp.ParserElement] = [_one_of_tokens(tokens)]
    string_token = (
        "string",
        r"\"|'",
        fail(
            lambda t, loc: UnsupportedError(
                "string literal" if t == '"' else "character literal", ctx().span(loc)
            )
        ),
    )
    paren = punct("(").add_parse_action(track) - top - punct(")", "')'")
    if formula:
        binder = (
            pp.Regex(IDENT_NOT_KW_RE)
            .set_name("a variable name")
            .set_parse_action(lambda s, loc, t: (str(t[0]), loc))
        )
        qtype = pp.Regex(r"(?:unsigned(?:[ \t\r\n]+int)?|int|integer|bool|size_t)(?![A-Za-z_0-9])").set_name(
            "a type ('int')"
        )
        bad_qtype = pp.Regex(r"(?:float|double|char|long|short|real)(?![A-Za-z_0-9])").set_parse_action(
            _unsupported("quantifier over '{}'", "bound variables are integers: '\\forall int j; ...'")
        )
        names = pp.Group(pp.DelimitedList(binder, ",", min=1))
        quant = (
            pp.Regex(r"\\(?:forall|exists)(?![A-Za-z_0-9])")
            - (bad_qtype | qtype)
            - names
            - punct(";", "';' after the bound variables")
            - top
        ).set_parse_action(_quant)
        old = (pp.Regex(r"\\old(?![A-Za-z_0-9])") - punct("(") - top - punct(")", "')'")).set_parse_action(
            _old
        )
        pred = (
            pp.Regex(r"\\(?:all|none)(?![A-Za-z_0-9])") - punct("(") - top - punct(")", "')'")
        ).set_parse_action(_thread_pred)
        alternatives += [quant, old, pred]
        rest = [
            ("result", r"\\result(?![A-Za-z_0-9])", _result),
            ("unknown", r"\\[A-Za-z_]*", fail(_unknown_backslash)),
        ]
    else:
        rest = [("backslash", r"\\[A-Za-z_]*", fail(_backslash_in_code))]
    alternatives += [_one_of_tokens([*rest, string_token]), paren]
    primary = pp.MatchFirst(alternatives).set_name("an expression")

    index = punct("[") - top - punct("]", "']'")
    field = pp.Regex(rf"(?:\.|->)[ \t\r\n]*{IDENT_RE}").set_parse_action(_field)
    indexed = (primary + _Guarded(r"\[|\.|->", pp.ZeroOrMore(index | field))).set_parse_action(_indexed)
    member = pp.Regex(r"\.|->").set_parse_action(
        _unsupported("member access '{}'", "structs are not supported")
    )
    incdec_in_expr = pp.Regex(r"\+\+|--").set_parse_action(
        _unsupported("'{}' inside an expression", "use it as a statement of its own: 'x++;'")
    )
    if formula:
        at = pp.Literal("@").suppress() - indexed.copy().set_name("a thread after '@'")
        trailers = pp.ZeroOrMore(at | member | incdec_in_expr)
        postfix = (indexed + _Guarded(r"@|\.|->|\+\+|--", trailers)).set_parse_action(_at)
    else:
        at_in_code = pp.Literal("@").set_parse_action(fail(lambda t, loc: error(f"'@' {ANNOT_ONLY}", loc)))
        postfix = indexed + pp.Optional(at_in_code | member | incdec_in_expr)

    # one regex for the prefix operators, C's unsupported ones raising from the action
    prefix = pp.Regex(r"\+\+|--|\*|&(?!&)|-(?![-=>])|!(?!=)|\+(?![+=])|~").set_name("an operator")
    prefix.set_parse_action(_prefix_operator)
    operand <<= ((prefix - operand).set_parse_action(_unary) | postfix).set_name("an expression")

    # The ten binary levels of C are one flat `operand (op operand)*` for pyparsing, grouped
    # by precedence in one parse action: a level per pyparsing element tried (and failed)
    # every level's operator after every operand, which made annotations 3x slower to parse.
    binop = _op(_BINARY_OPS)
    disj = (operand + _Guarded(_BINARY_OPS, pp.ZeroOrMore(binop - operand))).set_parse_action(
        _by_precedence(formula)
    )
    cond = pp.Forward()
    choice = punct("?") - top - punct(":", "':'") - cond
    cond <<= (disj + _Guarded(r"\?", pp.Optional(choice))).set_parse_action(_conditional)
    assign_op = r"(?:<<|>>|[-+*/%&|^])?=(?!=)"
    assign = pp.Regex(assign_op).set_parse_action(
        fail(
            lambda t, loc: (
                error("'=' is assignment; compare with '=='", loc)
                if formula and t == "="
                else UnsupportedError(
                    f"assignment '{t}' inside an expression",
                    ctx().span(loc),
                    "assignments are statements: 'x = e;'",
                )
            )
        )
    )
    after = assign
    if formula:
        impl = pp.Forward()
        impl <<= cond + _Guarded("==>", pp.Optional(_op(r"==>") - impl))
        impl.set_parse_action(_fold_right)
        iff = (impl + _Guarded("<==>", pp.ZeroOrMore(_op(r"<==>") - impl))).set_parse_action(_fold_left)
        top <<= iff + _Guarded(assign_op, pp.Optional(after))
    else:
        logic_op = pp.Regex(r"==>|<==>").set_parse_action(
            fail(lambda t, loc: error(f"'{t}' {ANNOT_ONLY}", loc))
        )
        top <<= cond + _Guarded(rf"{assign_op}|==>|<==>", pp.Optional(after | logic_op))
    return top
