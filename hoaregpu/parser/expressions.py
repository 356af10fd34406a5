"""Expression and formula grammars: explicit precedence levels, each `operand (op - operand)*`.

`build(formula=False)` is the program-expression grammar, `build(formula=True)` the
annotation-formula grammar (adds `==>`, `<==>`, quantifiers, `@`, `\\old`, `\\all`,
`\\none`, chained comparisons). Formula-only syntax in program code, and unsupported C
(calls, casts, `*p`, `&x`, `x++` inside an expression, ...) are
recognised and raise a SpecError/UnsupportedError pointing at the offending token.
"""

from __future__ import annotations

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
from . import access, bigops
from .context import IDENT_NOT_KW_RE, IDENT_RE, ctx, error, fail, punct, track
from .precedence import BINARY_OPS, Chain, Choice, Trailed, by_precedence, fold_left, one_of_tokens, op_token

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
        "formulas may use \\forall, \\exists, \\old(e), \\all(e), \\none(e), \\result, 'e @ t', the"
        " aggregates \\sum, \\product, \\numof, \\max, \\min and the access facts \\written, \\read",
    )


def _expect_paren(s: str, loc: int, toks: Toks) -> None:
    raise error(f"expected '(' after '{toks[0]}'", loc + len(str(toks[0])))


# ---------------------------------------------------------------- the grammar


def build(formula: bool) -> pp.ParserElement:
    """The top level of the expression (or formula) grammar, with its checks of what follows."""
    top = pp.Forward()
    top.set_name("a formula" if formula else "an expression")

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
    alternatives: list[pp.ParserElement] = [one_of_tokens(tokens)]
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
        agg, stray_lambda = bigops.build(top)
        alternatives += [quant, old, pred, agg, stray_lambda, access.build(top)]
        rest = [
            ("result", r"\\result(?![A-Za-z_0-9])", _result),
            ("unknown", r"\\[A-Za-z_]*", fail(_unknown_backslash)),
        ]
    else:
        rest = [("backslash", r"\\[A-Za-z_]*", fail(_backslash_in_code))]
    alternatives += [one_of_tokens([*rest, string_token]), paren]
    primary = pp.MatchFirst(alternatives).set_name("an expression")

    index = punct("[") - top - punct("]", "']'")
    field = pp.Regex(rf"(?:\.|->)[ \t\r\n]*{IDENT_RE}").set_parse_action(_field)
    indexed = Trailed(primary, r"\[|\.|->", pp.ZeroOrMore(index | field)).set_parse_action(_indexed)
    member = pp.Regex(r"\.|->").set_parse_action(
        _unsupported("member access '{}'", "structs are not supported")
    )
    incdec_in_expr = pp.Regex(r"\+\+|--").set_parse_action(
        _unsupported("'{}' inside an expression", "use it as a statement of its own: 'x++;'")
    )
    if formula:
        at = pp.Literal("@").suppress() - indexed.copy().set_name("a thread after '@'")
        trailers = pp.ZeroOrMore(at | member | incdec_in_expr)
        postfix = Trailed(indexed, r"@|\.|->|\+\+|--", trailers).set_parse_action(_at)
    else:
        at_in_code = pp.Literal("@").set_parse_action(fail(lambda t, loc: error(f"'@' {ANNOT_ONLY}", loc)))
        postfix = indexed + pp.Optional(at_in_code | member | incdec_in_expr)

    # one regex for the prefix operators, C's unsupported ones raising from the action
    prefix_re = r"\+\+|--|\*|&(?!&)|-(?![-=>])|!(?!=)|\+(?![+=])|~"
    prefix = pp.Regex(prefix_re).set_name("an operator").set_parse_action(_prefix_operator)
    operand = Choice(prefix_re, None, postfix)  # the unary level
    operand.set_name("an expression")
    operand.recursive((prefix - operand).set_parse_action(_unary))

    # The ten binary levels of C are one flat `operand (op operand)*` for pyparsing, grouped
    # by precedence in one parse action: a level per pyparsing element tried (and failed)
    # every level's operator after every operand, which made annotations 3x slower to parse.
    binop = op_token(BINARY_OPS)
    disj = Chain(operand, binop, BINARY_OPS).set_parse_action(by_precedence(formula))
    cond = Trailed(disj, r"\?")
    cond.set_parse_action(_conditional)
    cond.recursive(punct("?") - top - punct(":", "':'") - cond)
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
        impl = Trailed(cond, "==>")
        impl.set_parse_action(_fold_right)
        impl.recursive(op_token(r"==>") - impl)
        iff = Chain(impl, op_token(r"<==>"), "<==>").set_parse_action(fold_left)
        top <<= Trailed(iff, assign_op, after)
    else:
        logic_op = pp.Regex(r"==>|<==>").set_parse_action(
            fail(lambda t, loc: error(f"'{t}' {ANNOT_ONLY}", loc))
        )
        top <<= Trailed(cond, rf"{assign_op}|==>|<==>", after | logic_op)
    return top
