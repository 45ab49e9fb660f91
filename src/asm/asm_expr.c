/* Expressions: GNU-as syntax parsed into trees (so that forward references can be evaluated
 * at the end of the file), and their evaluation.
 *
 * Precedence, lowest first, as GNU as and LLVM's GNU mode have it:
 *   ||   &&   == != <> < <= > >=   + -   | & ^ ! (or-not)   * / % << >>
 * then the unary - + ~ ! and parentheses. Comparisons give -1 (true) or 0, as in GNU as.
 * Operands: numbers (decimal, 0x hex, 0b binary, 0 octal, 'c characters), symbols, `.` (the
 * current location) and numeric local labels (1b, 1f); half-precision literals `1.5h`, `-2e-3h`,
 * `infh` as the 16 bits of the IEEE binary16 value (round to nearest even), as Graphcore's
 * assembler writes them: a unary '-' before one flips its sign bit. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "asm/asm_int.h"
#include "base/half.h"

#define MAX_DEPTH 256        /* nesting of parentheses and unary operators */
#define MAX_NODES_PER_EXPR 100000

int32_t asm_node_new(isk_asm *a, asm_node n)
{
    VEC_PUSH(&a->nodes, n);
    return (int32_t)(a->nodes.len - 1);
}

typedef struct parser {
    isk_asm *a;
    const char *s;
    bool quiet;
    bool failed;
    int depth;
    size_t first_node;
} parser;

static void fail(parser *ps, const char *at, const char *msg)
{
    if (!ps->failed && !ps->quiet) asm_error(ps->a, at, "%s", msg);
    ps->failed = true;
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static int32_t parse_binary(parser *ps, int min_prec);

static int32_t leaf(parser *ps, asm_node n)
{
    if (ps->a->nodes.len - ps->first_node > MAX_NODES_PER_EXPR) {
        fail(ps, ps->s, "expression too large");
        return -1;
    }
    return asm_node_new(ps->a, n);
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

int asm_escape(const char **p)
{
    const char *s = *p;
    if (!*s) return '\\';           /* a backslash at the very end stands for itself */
    int c = (unsigned char)*s++;
    switch (c) {
    case 'n': c = '\n'; break;
    case 't': c = '\t'; break;
    case 'r': c = '\r'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'v': c = '\v'; break;
    case 'a': c = '\a'; break;
    case 'e': c = 27; break;
    case 'x': case 'X':
        c = 0;
        while (isxdigit((unsigned char)*s)) c = (c * 16 + digit_value(*s++)) & 0xff;
        break;
    default:
        if (c >= '0' && c <= '7') {
            c -= '0';
            for (int i = 0; i < 2 && *s >= '0' && *s <= '7'; i++) c = c * 8 + (*s++ - '0');
            c &= 0xff;
        }
        break;
    }
    *p = s;
    return c;
}

/* A decimal floating-point literal at s ("1.0h", "3e-2h"): its end, or NULL if s is not one. A
 * literal without the 'h' is an error (the only floating-point literals are half-precision). */
static const char *float_literal(parser *ps, const char *s, uint16_t *bits)
{
    const char *p = s;
    while (isdigit((unsigned char)*p)) p++;
    bool fraction = *p == '.' && isdigit((unsigned char)p[1]);
    if (fraction)
        for (p++; isdigit((unsigned char)*p); p++) {}
    bool exponent = (*p == 'e' || *p == 'E') &&
                    (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])));
    if (exponent)
        for (p += 2; isdigit((unsigned char)*p); p++) {}
    if (!fraction && !exponent) return NULL;
    if (*p != 'h' || ident_char(p[1])) {
        fail(ps, s, "a floating-point literal needs the suffix h (IEEE half precision), e.g. 1.0h");
        return NULL;
    }
    *bits = isk_half_from_double(strtod(s, NULL));
    return p + 1;
}

static int32_t parse_number(parser *ps)
{
    const char *start = ps->s, *s = start;
    int base = 10;
    if (s[0] != '0' || isdigit((unsigned char)s[1]) || s[1] == '.' || s[1] == 'e' || s[1] == 'E') {
        uint16_t bits;
        const char *end = float_literal(ps, s, &bits);
        if (ps->failed) return -1;
        if (end) {
            ps->s = end;
            return leaf(ps, (asm_node){ .op = X_NUM, .num = bits, .half = true });
        }
    }
    /* Numeric local labels: digits followed by b or f and no other word character. */
    const char *d = s;
    while (isdigit((unsigned char)*d)) d++;
    if ((*d == 'b' || *d == 'f') && !ident_char(d[1])) {
        uint32_t sym = asm_local_ref(ps->a, s, (size_t)(d - s), *d == 'f', ps->quiet);
        ps->s = d + 1;
        if (!sym) {
            ps->failed = true;
            return -1;
        }
        return leaf(ps, (asm_node){ .op = X_SYM, .ref = sym });
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    else if (s[0] == '0' && isdigit((unsigned char)s[1])) base = 8, s += 1;
    uint64_t v = 0;
    bool overflow = false, any = false;
    while (ident_char(*s) && *s != '.' && *s != '$') {
        int dv = digit_value(*s);
        if (dv >= base) {
            fail(ps, s, base == 10 ? "bad digit in a number" : base == 16 ? "bad digit in a hexadecimal number"
                        : base == 8 ? "bad digit in an octal number" : "bad digit in a binary number");
            return -1;
        }
        if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) overflow = true;
        v = v * (uint64_t)base + (uint64_t)dv;
        any = true;
        s++;
    }
    if (!any) {
        fail(ps, start, "bad number");
        return -1;
    }
    if (overflow) {
        fail(ps, start, "number does not fit in 64 bits");
        return -1;
    }
    ps->s = s;
    return leaf(ps, (asm_node){ .op = X_NUM, .num = (int64_t)v });
}

static int32_t parse_primary(parser *ps)
{
    isk_asm *a = ps->a;
    const char *s = asm_skip(ps->s);
    ps->s = s;
    if (++ps->depth > MAX_DEPTH) {
        fail(ps, s, "expression nested too deeply");
        return -1;
    }
    int32_t r = -1;
    if (*s == '(') {
        ps->s = s + 1;
        r = parse_binary(ps, 1);
        if (r < 0) goto out;
        ps->s = asm_skip(ps->s);
        if (*ps->s != ')') {
            fail(ps, ps->s, "expected ')'");
            r = -1;
            goto out;
        }
        ps->s++;
    } else if (*s == '-' || *s == '~' || *s == '!' || *s == '+') {
        ps->s = s + 1;
        int32_t x = parse_primary(ps);
        if (x < 0) goto out;
        const asm_node *xn = &a->nodes.data[x];
        if (*s == '+') r = x;
        else if (*s == '-' && xn->op == X_NUM && xn->half)
            r = leaf(ps, (asm_node){ .op = X_NUM, .num = xn->num ^ 0x8000, .half = true });
        else r = leaf(ps, (asm_node){ .op = *s == '-' ? X_NEG : *s == '~' ? X_COM : X_NOT, .a = x });
    } else if (isdigit((unsigned char)*s)) {
        r = parse_number(ps);
    } else if (*s == '\'') {
        s++;
        if (!*s) {
            fail(ps, s, "expected a character after '");
            goto out;
        }
        int c = *s == '\\' ? (s++, asm_escape(&s)) : (unsigned char)*s++;
        if (*s == '\'') s++;
        ps->s = s;
        r = leaf(ps, (asm_node){ .op = X_NUM, .num = c });
    } else if (*s == '.' && !ident_char(s[1])) {
        ps->s = s + 1;
        r = leaf(ps, (asm_node){ .op = X_LOC, .ref = a->sec, .num = (int64_t)asm_offset(a) });
    } else if (ident_start(*s)) {
        const char *name;
        size_t len = asm_parse_name(&s, &name);
        if (!len) {
            fail(ps, ps->s, "expected a symbol name");
            goto out;
        }
        if (a->operand_mode && isk_syntax_is_name(a->m, a->index, name, len)) {
            /* A register or condition name is no symbol in an operand, unless the program
             * has made it one already (a label named like a condition, such as `max`). */
            uint32_t si = asm_sym_find(a, name, len);
            const asm_sym *sym = si ? &a->syms.data[si] : NULL;
            if (!sym || !(sym->defined || sym->bind_set || sym->common)) {
                ps->failed = true;
                goto out;
            }
        }
        ps->s = s;
        const uint32_t si = len == 4 && !memcmp(name, "infh", 4) ? asm_sym_find(a, name, len) : UINT32_MAX;
        if (si != UINT32_MAX && !(si && (a->syms.data[si].defined || a->syms.data[si].bind_set)))   /* infh, unless a symbol */
            r = leaf(ps, (asm_node){ .op = X_NUM, .num = 0x7C00, .half = true });
        else
            r = leaf(ps, (asm_node){ .op = X_SYM, .ref = asm_sym_ref(a, name, len) });
    } else {
        fail(ps, s, *s ? "expected an expression" : "expected an expression at the end of the line");
    }
out:
    ps->depth--;
    return ps->failed ? -1 : r;
}

typedef struct binop { const char *text; int len, prec, op; } binop;

static const binop binops[] = {
    { "||", 2, 1, X_LOR }, { "&&", 2, 2, X_LAND },
    { "==", 2, 3, X_EQ }, { "!=", 2, 3, X_NE }, { "<>", 2, 3, X_NE }, { "<=", 2, 3, X_LE }, { ">=", 2, 3, X_GE },
    { "<<", 2, 6, X_SHL }, { ">>", 2, 6, X_SHR },
    { "<", 1, 3, X_LT }, { ">", 1, 3, X_GT },
    { "+", 1, 4, X_ADD }, { "-", 1, 4, X_SUB },
    { "|", 1, 5, X_OR }, { "&", 1, 5, X_AND }, { "^", 1, 5, X_XOR }, { "!", 1, 5, X_ORNOT },
    { "*", 1, 6, X_MUL }, { "/", 1, 6, X_DIV }, { "%", 1, 6, X_MOD },
};

/* By the first character: this runs twice per operand, and a table scan with strncmp made
 * expressions cost 100 ns a term (a 10 M-line .rept of sums took 34 s). */
static const binop *peek_binop(const char *s)
{
    int i;
    switch (s[0]) {
    case '|': i = s[1] == '|' ? 0 : 13; break;
    case '&': i = s[1] == '&' ? 1 : 14; break;
    case '=': i = s[1] == '=' ? 2 : -1; break;
    case '!': i = s[1] == '=' ? 3 : 16; break;
    case '<': i = s[1] == '>' ? 4 : s[1] == '=' ? 5 : s[1] == '<' ? 7 : 9; break;
    case '>': i = s[1] == '=' ? 6 : s[1] == '>' ? 8 : 10; break;
    case '+': i = 11; break;
    case '-': i = 12; break;
    case '^': i = 15; break;
    case '*': i = 17; break;
    case '/': i = 18; break;
    case '%': i = 19; break;
    default: i = -1; break;
    }
    return i < 0 ? NULL : &binops[i];
}

/* Precedence climbing: left-associative operators without recursion per operand. */
static int32_t parse_binary(parser *ps, int min_prec)
{
    int32_t left = parse_primary(ps);
    if (left < 0) return -1;
    for (;;) {
        const char *s = asm_skip(ps->s);
        const binop *op = peek_binop(s);
        if (!op || op->prec < min_prec) return left;
        ps->s = s + op->len;
        if (++ps->depth > MAX_DEPTH) {
            fail(ps, s, "expression nested too deeply");
            return -1;
        }
        int32_t right = parse_binary(ps, op->prec + 1);
        ps->depth--;
        if (right < 0) return -1;
        left = leaf(ps, (asm_node){ .op = (uint8_t)op->op, .a = left, .b = right });
        if (left < 0) return -1;
    }
}

int32_t asm_expr_parse(isk_asm *a, const char **p, bool quiet)
{
    parser ps = { a, *p, quiet, false, 0, a->nodes.len };
    int32_t r = parse_binary(&ps, 1);
    if (r < 0 || ps.failed) {
        a->nodes.len = ps.first_node;             /* drop a failed attempt's nodes */
        return -1;
    }
    *p = ps.s;
    return r;
}

/* ---- evaluation ---------------------------------------------------------------------------- */

typedef struct evaluator {
    isk_asm *a;
    bool final;
    char *err;
    size_t errlen;
    int depth;
} evaluator;

static int eval(evaluator *ev, int32_t e, asm_value *out);

static int eval_symbol(evaluator *ev, uint32_t si, asm_value *out)
{
    isk_asm *a = ev->a;
    asm_sym *s = &a->syms.data[si];
    char name[128];
    s->used = true;
    if (s->expr >= 0) {
        if (s->evaluating) {
            snprintf(ev->err, ev->errlen, "symbol '%s' is defined in terms of itself",
                     asm_sym_display(s, name, sizeof name));
            return EV_ERROR;
        }
        s->evaluating = true;
        int st = eval(ev, s->expr, out);
        s = &a->syms.data[si];
        s->evaluating = false;
        return st;
    }
    if (s->defined && !s->common) {
        if (s->sec == ISK_SHN_ABS) *out = (asm_value){ VAL_ABS, s->value, 0, 0 };
        else *out = (asm_value){ VAL_SEC, s->value, s->sec, s->bind != STB_LOCAL ? si : 0 };
        return EV_OK;
    }
    if (!ev->final) {
        snprintf(ev->err, ev->errlen, "symbol '%s' is not defined yet", asm_sym_display(s, name, sizeof name));
        return EV_PENDING;
    }
    *out = (asm_value){ VAL_SYM, 0, 0, si };
    return EV_OK;
}

static const char *op_name(int op)
{
    static const char *const names[] = {
        [X_MUL] = "*", [X_DIV] = "/", [X_MOD] = "%", [X_SHL] = "<<", [X_SHR] = ">>", [X_OR] = "|", [X_AND] = "&",
        [X_XOR] = "^", [X_ORNOT] = "!", [X_ADD] = "+", [X_SUB] = "-", [X_EQ] = "==", [X_NE] = "!=", [X_LT] = "<",
        [X_LE] = "<=", [X_GT] = ">", [X_GE] = ">=", [X_LAND] = "&&", [X_LOR] = "||", [X_NEG] = "-", [X_COM] = "~",
        [X_NOT] = "!",
    };
    return op < (int)(sizeof names / sizeof *names) && names[op] ? names[op] : "?";
}

static int64_t arith(int op, int64_t x, int64_t y)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (op) {
    case X_MUL: return (int64_t)(ux * uy);
    case X_DIV: return y == -1 ? (int64_t)(0 - ux) : x / y;
    case X_MOD: return y == -1 ? 0 : x % y;
    case X_SHL: return uy >= 64 ? 0 : (int64_t)(ux << uy);
    case X_SHR: return uy >= 64 ? (x < 0 ? -1 : 0) : x >> uy;
    case X_OR: return (int64_t)(ux | uy);
    case X_AND: return (int64_t)(ux & uy);
    case X_XOR: return (int64_t)(ux ^ uy);
    case X_ORNOT: return (int64_t)(ux | ~uy);
    case X_ADD: return (int64_t)(ux + uy);
    case X_SUB: return (int64_t)(ux - uy);
    case X_EQ: return x == y ? -1 : 0;
    case X_NE: return x != y ? -1 : 0;
    case X_LT: return x < y ? -1 : 0;
    case X_LE: return x <= y ? -1 : 0;
    case X_GT: return x > y ? -1 : 0;
    case X_GE: return x >= y ? -1 : 0;
    case X_LAND: return x && y;
    case X_LOR: return x || y;
    default: return 0;
    }
}

static int eval(evaluator *ev, int32_t e, asm_value *out)
{
    isk_asm *a = ev->a;
    if (e < 0 || (size_t)e >= a->nodes.len) {
        snprintf(ev->err, ev->errlen, "internal error: bad expression");
        return EV_ERROR;
    }
    if (++ev->depth > 4 * MAX_DEPTH) {
        snprintf(ev->err, ev->errlen, "expression or symbol definitions nested too deeply");
        ev->depth--;
        return EV_ERROR;
    }
    asm_node n = a->nodes.data[e];
    int st = EV_OK;
    switch (n.op) {
    case X_NUM:
        *out = (asm_value){ VAL_ABS, n.num, 0, 0 };
        break;
    case X_LOC:
        *out = (asm_value){ VAL_SEC, n.num, n.ref, 0 };
        break;
    case X_SYM:
        st = eval_symbol(ev, n.ref, out);
        break;
    case X_NEG: case X_COM: case X_NOT: {
        asm_value x;
        st = eval(ev, n.a, &x);
        if (st != EV_OK) break;
        if (x.kind != VAL_ABS) {
            snprintf(ev->err, ev->errlen, "unary '%s' needs an absolute value, not an address", op_name(n.op));
            st = EV_ERROR;
            break;
        }
        int64_t v = n.op == X_NEG ? (int64_t)(0 - (uint64_t)x.k) : n.op == X_COM ? ~x.k : !x.k;
        *out = (asm_value){ VAL_ABS, v, 0, 0 };
        break;
    }
    default: {
        asm_value x, y;
        int sx = eval(ev, n.a, &x);
        if (sx == EV_ERROR) { st = sx; break; }
        char keep[200];
        if (sx == EV_PENDING) snprintf(keep, sizeof keep, "%s", ev->err);
        int sy = eval(ev, n.b, &y);
        if (sy == EV_ERROR) { st = sy; break; }
        if (sx == EV_PENDING || sy == EV_PENDING) {
            if (sx == EV_PENDING) snprintf(ev->err, ev->errlen, "%s", keep);
            st = EV_PENDING;
            break;
        }
        if (x.kind == VAL_ABS && y.kind == VAL_ABS) {
            if ((n.op == X_DIV || n.op == X_MOD) && y.k == 0) {
                snprintf(ev->err, ev->errlen, "division by zero");
                st = EV_ERROR;
                break;
            }
            *out = (asm_value){ VAL_ABS, arith(n.op, x.k, y.k), 0, 0 };
            break;
        }
        if (n.op == X_ADD && (x.kind == VAL_ABS || y.kind == VAL_ABS)) {
            asm_value r = x.kind == VAL_ABS ? y : x;
            r.k = (int64_t)((uint64_t)r.k + (uint64_t)(x.kind == VAL_ABS ? x.k : y.k));
            *out = r;
            break;
        }
        if (n.op == X_SUB && y.kind == VAL_ABS) {
            x.k = (int64_t)((uint64_t)x.k - (uint64_t)y.k);
            *out = x;
            break;
        }
        bool same_section = x.kind == VAL_SEC && y.kind == VAL_SEC && x.sec == y.sec;
        if (same_section && (n.op == X_SUB || (n.op >= X_EQ && n.op <= X_GE))) {
            *out = (asm_value){ VAL_ABS, arith(n.op, x.k, y.k), 0, 0 };
            break;
        }
        if (n.op == X_SUB && (x.kind == VAL_SYM || y.kind == VAL_SYM))
            snprintf(ev->err, ev->errlen, "cannot subtract: a value involving an undefined symbol is not known "
                     "until link time");
        else if (n.op == X_SUB)
            snprintf(ev->err, ev->errlen, "cannot subtract addresses in different sections");
        else
            snprintf(ev->err, ev->errlen, "operator '%s' needs absolute values, not addresses", op_name(n.op));
        st = EV_ERROR;
        break;
    }
    }
    ev->depth--;
    return st;
}

int asm_expr_eval(isk_asm *a, int32_t e, bool final, asm_value *out, char *err, size_t errlen)
{
    evaluator ev = { a, final, err, errlen, 0 };
    if (errlen) err[0] = 0;
    return eval(&ev, e, out);
}

bool asm_expr_absolute(isk_asm *a, const char **p, int64_t *v)
{
    const char *start = asm_skip(*p);
    *p = start;
    size_t mark = a->nodes.len;
    int32_t e = asm_expr_parse(a, p, false);
    if (e < 0) return false;
    asm_value val;
    char err[200];
    int st = asm_expr_eval(a, e, false, &val, err, sizeof err);
    if (st == EV_OK && val.kind != VAL_ABS) {
        snprintf(err, sizeof err, "expected an absolute value, not an address");
        st = EV_ERROR;
    }
    a->nodes.len = mark;            /* nothing keeps the tree: reuse its nodes */
    if (st != EV_OK) {
        asm_error(a, start, "%s%s", err, st == EV_PENDING ? " (this directive needs the value now)" : "");
        return false;
    }
    *v = val.k;
    return true;
}
