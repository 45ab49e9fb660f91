/* isekit cc: the code generator. Expressions evaluate into the accumulator A = s0..s3 (low byte
 * in s0; as many registers as the value has bytes); a right operand goes to B = s4..s7; s8 holds
 * addresses for indirect FETCH/STORE; the runtime routines use s8-sE. Nothing lives in a register
 * across statements or calls: partial results wait in the function's static frame (temporaries
 * after its locals), so every call may clobber every register. Frame addresses are written as
 * @F+OFF@ markers and filled in once cc_frames has placed the frames. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

typedef struct gen {
    cc_ctx *c;
    cc_func *f;
    cc_buf *o;
    int tmp;                /* temporaries in use (bytes after the locals) */
    int brk, cont;          /* labels of the innermost break and continue targets */
    const char *lastfile;
    int lastline;
    int epilogue;           /* interrupt handlers: the label of the register restore */
} gen;

#define E(...) emit(g, __VA_ARGS__)
static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    cc_buf_add(g->o, "%s%s\n", line[strlen(line) - 1] == ':' ? "" : "            ", line);
}

static int new_label(gen *g) { return g->c->label++; }
static void put_label(gen *g, int l) { cc_buf_add(g->o, "_L%d:\n", l); }

/* ---- addresses ------------------------------------------------------------------------------ */

typedef struct addr { char s[24]; } addr;

static addr frame_addr(gen *g, int off)
{
    addr a;
    snprintf(a.s, sizeof a.s, "@%d+%d@", g->f->index, off);
    return a;
}

static addr sym_addr(gen *g, const cc_sym *s, int off)
{
    if (s->kind == SY_LOCAL) {
        addr a;
        snprintf(a.s, sizeof a.s, "@%d+%d@", s->owner->index, s->addr + off);
        return a;
    }
    addr a;
    snprintf(a.s, sizeof a.s, "%02X", (unsigned)(s->addr + off) & 0xFF);
    return a;
}

static int tmp_push(gen *g, int size)
{
    int off = g->f->locals + g->tmp;
    g->tmp += size;
    if (g->f->locals + g->tmp > g->f->frame) g->f->frame = g->f->locals + g->tmp;
    return off;
}
static void tmp_pop(gen *g, int size) { g->tmp -= size; }

static void save_a(gen *g, int off, int size)
{
    for (int i = 0; i < size; i++) E("STORE s%d, %s", i, frame_addr(g, off + i).s);
}
static void fetch_regs(gen *g, int reg, int off, int size)
{
    for (int i = 0; i < size; i++) E("FETCH s%X, %s", reg + i, frame_addr(g, off + i).s);
}

/* Widen registers reg..reg+from-1 to `to` bytes (sign- or zero-extending); narrowing drops. */
static void extend(gen *g, int reg, int from, bool is_signed, int to)
{
    if (from <= 0) from = 1;
    for (int i = from; i < to; i++) {
        if (!is_signed) E("LOAD s%X, 00", reg + i);
        else if (i == from) {
            E("LOAD s%X, s%X", reg + i, reg + i - 1);
            E("SL0 s%X", reg + i);
            E("LOAD s%X, 00", reg + i);
            E("SUBCY s%X, 00", reg + i);
        } else E("LOAD s%X, s%X", reg + i, reg + from);
    }
}

static int size_of(const cc_type *t) { return t->kind == TY_VOID ? 0 : t->size; }
static bool is_signed(const cc_type *t) { return t->kind == TY_INT && !t->is_unsigned; }

/* A constant address: a variable, a member of one, or *(&var + constant). */
static bool static_addr(const cc_node *n, const cc_sym **s, int *off)
{
    if (n->op == N_VAR && (n->sym->kind == SY_GLOBAL || n->sym->kind == SY_LOCAL)) {
        *s = n->sym;
        *off = 0;
        return true;
    }
    if (n->op == N_MEMBER && static_addr(n->a, s, off)) {
        *off += (int)n->val;
        return true;
    }
    if (n->op == N_DEREF) {
        const cc_node *p = n->a;
        if (p->op == N_CAST) p = p->a;
        if (p->op == N_ADDR) return static_addr(p->a, s, off);
        if (p->op == N_ADD && p->a->op == N_ADDR && p->b->op == N_NUM && static_addr(p->a->a, s, off)) {
            *off += (int)p->b->val;
            return true;
        }
    }
    return false;
}

static void gen_expr(gen *g, cc_node *n);
static void gen_branch(gen *g, cc_node *n, int label, bool jump_if);

/* A = the address of lvalue n (one byte). */
static void gen_addr(gen *g, cc_node *n)
{
    const cc_sym *s;
    int off;
    if (static_addr(n, &s, &off)) E("LOAD s0, %s", sym_addr(g, s, off).s);
    else if (n->op == N_DEREF) gen_expr(g, n->a);
    else if (n->op == N_MEMBER) {
        gen_addr(g, n->a);
        if (n->val) E("ADD s0, %02X", (unsigned)n->val & 0xFF);
    } else cc_error(g->c, n->pos, "internal: not an lvalue");
}

typedef struct lval { const cc_sym *s; int off; int tmp; bool st; } lval;

static lval lv_prepare(gen *g, cc_node *n)
{
    lval l = { 0 };
    if (static_addr(n, &l.s, &l.off)) l.st = true;
    else {
        gen_addr(g, n);
        l.tmp = tmp_push(g, 1);
        save_a(g, l.tmp, 1);
    }
    return l;
}
static void lv_release(gen *g, lval *l) { if (!l->st) tmp_pop(g, 1); }

static void lv_access(gen *g, lval *l, int size, bool store, int reg)
{
    const char *op = store ? "STORE" : "FETCH";
    if (l->st) {
        for (int i = 0; i < size; i++) E("%s s%X, %s", op, reg + i, sym_addr(g, l->s, l->off + i).s);
        return;
    }
    fetch_regs(g, 8, l->tmp, 1);
    for (int i = 0; i < size; i++) {
        if (i) E("ADD s8, 01");
        E("%s s%X, (s8)", op, reg + i);
    }
}

/* ---- operators ------------------------------------------------------------------------------ */

/* Load a simple right operand straight into B (constants are handled by the caller). */
static bool simple_to_b(gen *g, cc_node *n, int w)
{
    cc_node *v = n->op == N_CAST && cc_is_int(n->a->type) && n->type->kind == TY_INT ? n->a : n;
    const cc_sym *s;
    int off;
    if (!cc_is_int(v->type) && v->type->kind != TY_PTR) return false;
    if ((v->op == N_VAR || v->op == N_MEMBER) && static_addr(v, &s, &off)) {
        int sz = v->type->size < w ? v->type->size : w;
        for (int i = 0; i < sz; i++) E("FETCH s%X, %s", 4 + i, sym_addr(g, s, off + i).s);
        extend(g, 4, sz, is_signed(v->type), w);
        return true;
    }
    return false;
}

/* B = n at width w, keeping A. */
static void operand_to_b(gen *g, cc_node *n, int w)
{
    if (simple_to_b(g, n, w)) return;
    int t = tmp_push(g, w);
    save_a(g, t, w);
    gen_expr(g, n);
    extend(g, 0, size_of(n->type), is_signed(n->type), w);
    for (int i = 0; i < w; i++) E("LOAD s%X, s%X", 4 + i, i);
    fetch_regs(g, 0, t, w);
    tmp_pop(g, w);
}

static int log2_exact(int64_t v)
{
    for (int i = 0; i < 32; i++)
        if (v == (int64_t)1 << i) return i;
    return -1;
}

static void shift_const(gen *g, int w, bool left, bool arith, int count)
{
    for (; count >= 8; count -= 8) {   /* whole bytes first */
        if (left) {
            for (int i = w - 1; i > 0; i--) E("LOAD s%d, s%d", i, i - 1);
            E("LOAD s0, 00");
        } else {
            for (int i = 0; i < w - 1; i++) E("LOAD s%d, s%d", i, i + 1);
            extend(g, 0, w - 1, arith, w);
            if (w == 1) E("LOAD s0, 00");
        }
    }
    for (; count > 0; count--) {
        if (left) {
            E("SL0 s0");
            for (int i = 1; i < w; i++) E("SLA s%d", i);
        } else {
            E("%s s%d", arith ? "SRX" : "SR0", w - 1);
            for (int i = w - 2; i >= 0; i--) E("SRA s%d", i);
        }
    }
}

static void runtime_call(gen *g, int op, bool is_unsigned, int w)
{
    /* both operands widened to 32 bits; the low w bytes of the result are C's */
    extend(g, 0, w, !is_unsigned, 4);
    extend(g, 4, w, !is_unsigned, 4);
    if (op == N_MUL) {
        g->c->runtime |= RT_MUL32;
        E("CALL _mul32");
    } else {
        g->c->runtime |= is_unsigned ? RT_DIVU32 : RT_DIVS32 | RT_DIVU32;
        E("CALL %s", is_unsigned ? "_divu32" : "_divs32");
        if (op == N_MOD)
            for (int i = 0; i < w; i++) E("LOAD s%d, s%X", i, 8 + i);
    }
    int d = is_unsigned || op == N_MUL ? 1 : 2;
    if (d > g->f->rtdepth) g->f->rtdepth = d;
}

/* A = A op b, at the width of t (A already holds the left operand at that width). */
static void apply_op(gen *g, int op, cc_type *t, cc_node *b)
{
    int w = t->size;
    bool u = t->is_unsigned || t->kind == TY_PTR;
    int64_t k = 0;
    bool konst = cc_const_value(b, &k);
    switch (op) {
    case N_ADD: case N_SUB: case N_AND: case N_OR: case N_XOR: {
        static const char *const first[] = { [N_ADD] = "ADD", [N_SUB] = "SUB", [N_AND] = "AND", [N_OR] = "OR", [N_XOR] = "XOR" };
        static const char *const rest[] = { [N_ADD] = "ADDCY", [N_SUB] = "SUBCY", [N_AND] = "AND", [N_OR] = "OR", [N_XOR] = "XOR" };
        if (konst) {
            for (int i = 0; i < w; i++) {
                unsigned byte = (unsigned)((uint64_t)k >> (8 * i)) & 0xFF;
                if ((op == N_AND && byte == 0xFF) || ((op == N_OR || op == N_XOR) && byte == 0)) continue;
                if (op == N_AND && byte == 0) { E("LOAD s%d, 00", i); continue; }
                E("%s s%d, %02X", i ? rest[op] : first[op], i, byte);
            }
            return;
        }
        operand_to_b(g, b, w);
        for (int i = 0; i < w; i++) E("%s s%d, s%d", i ? rest[op] : first[op], i, 4 + i);
        return;
    }
    case N_SHL: case N_SHR:
        if (konst) {
            if (k < 0 || k >= 8 * w) cc_error(g->c, b->pos, "shift count %lld is out of range for a %d-bit value", (long long)k, 8 * w);
            shift_const(g, w, op == N_SHL, !u, (int)k);
            return;
        }
        operand_to_b(g, b, b->type->size < w ? b->type->size : w);
        {
            int top = new_label(g), end = new_label(g);
            put_label(g, top);
            E("SUB s4, 01");
            E("JUMP C, _L%d", end);
            shift_const(g, w, op == N_SHL, !u, 1);
            E("JUMP _L%d", top);
            put_label(g, end);
        }
        return;
    case N_MUL: case N_DIV: case N_MOD:
        if (konst && k > 0 && log2_exact(k) >= 0 && (op == N_MUL || u)) {
            int s = log2_exact(k);
            if (op == N_MUL) shift_const(g, w, true, false, s);
            else if (op == N_DIV) shift_const(g, w, false, false, s);
            else apply_op(g, N_AND, t, &(cc_node){ .op = N_NUM, .type = t, .val = k - 1 });
            return;
        }
        operand_to_b(g, b, w);
        runtime_call(g, op, u, w);
        return;
    }
    cc_error(g->c, b->pos, "internal: operator %d", op);
}

/* Strip the promotion of an 8-bit value when the other side allows an 8-bit comparison. */
static cc_node *narrow_of(cc_node *n) { return n->op == N_CAST && n->a->type->size == 1 && cc_is_int(n->a->type) ? n->a : NULL; }
static bool fits(const cc_type *t, int64_t v) { return t->is_unsigned ? v >= 0 && v <= 255 : v >= -128 && v <= 127; }

/* Flags for comparison n; returns the condition that means true: "Z", "NZ", "C" or "NC". */
static const char *compare(gen *g, cc_node *n)
{
    cc_node *a = n->a, *b = n->b;
    cc_type *t = a->type;
    int op = n->op;
    cc_node *na = narrow_of(a), *nb = narrow_of(b);
    if (na && nb && na->type->is_unsigned == nb->type->is_unsigned) a = na, b = nb, t = na->type;
    else if (na && b->op == N_NUM && fits(na->type, b->val)) a = na, t = na->type;
    else if (nb && a->op == N_NUM && fits(nb->type, a->val)) b = nb, t = nb->type;
    int w = t->size;
    bool sgn = is_signed(t);
    if (op == N_GT || op == N_LE) {   /* b < a */
        cc_node *x = a; a = b; b = x;
        op = op == N_GT ? N_LT : N_GE;
    }
    int64_t k;
    gen_expr(g, a);
    extend(g, 0, size_of(a->type), is_signed(a->type), w);
    if (op == N_EQ || op == N_NE) {
        if (cc_const_value(b, &k)) {
            if (w == 1) E("COMPARE s0, %02X", (unsigned)k & 0xFF);
            else {
                for (int i = 0; i < w; i++)
                    if (((uint64_t)k >> (8 * i)) & 0xFF) E("XOR s%d, %02X", i, (unsigned)((uint64_t)k >> (8 * i)) & 0xFF);
                for (int i = 1; i < w; i++) E("OR s0, s%d", i);
            }
        } else {
            operand_to_b(g, b, w);
            if (w == 1) E("COMPARE s0, s4");
            else {
                for (int i = 0; i < w; i++) E("XOR s%d, s%d", i, 4 + i);
                for (int i = 1; i < w; i++) E("OR s0, s%d", i);
            }
        }
        return op == N_EQ ? "Z" : "NZ";
    }
    if (a->op == N_NUM && 0) {}
    if (cc_const_value(b, &k)) {
        if (sgn) {
            E("XOR s%d, 80", w - 1);
            k ^= (int64_t)0x80 << (8 * (w - 1));
        }
        if (w == 1) E("COMPARE s0, %02X", (unsigned)k & 0xFF);
        else for (int i = 0; i < w; i++) E("%s s%d, %02X", i ? "SUBCY" : "SUB", i, (unsigned)((uint64_t)k >> (8 * i)) & 0xFF);
    } else {
        operand_to_b(g, b, w);
        if (sgn) {
            E("XOR s%d, 80", w - 1);
            E("XOR s%d, 80", 4 + w - 1);
        }
        if (w == 1) E("COMPARE s0, s4");
        else for (int i = 0; i < w; i++) E("%s s%d, s%d", i ? "SUBCY" : "SUB", i, 4 + i);
    }
    return op == N_LT ? "C" : "NC";
}

static const char *invert(const char *cond)
{
    return !strcmp(cond, "Z") ? "NZ" : !strcmp(cond, "NZ") ? "Z" : !strcmp(cond, "C") ? "NC" : "C";
}

static void test_a(gen *g, int size)
{
    if (size <= 1) E("TEST s0, FF");
    else for (int i = 1; i < size; i++) E("OR s0, s%d", i);
}

static void gen_branch(gen *g, cc_node *n, int label, bool jump_if)
{
    switch (n->op) {
    case N_NUM:
        if ((n->val != 0) == jump_if) E("JUMP _L%d", label);
        return;
    case N_LNOT: gen_branch(g, n->a, label, !jump_if); return;
    case N_LAND: case N_LOR: {
        bool and = n->op == N_LAND;
        if (and != jump_if) {   /* && jumping on false, || jumping on true: either operand decides */
            gen_branch(g, n->a, label, jump_if);
            gen_branch(g, n->b, label, jump_if);
        } else {
            int skip = new_label(g);
            gen_branch(g, n->a, skip, !jump_if);
            gen_branch(g, n->b, label, jump_if);
            put_label(g, skip);
        }
        return;
    }
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_GT: case N_GE: {
        const char *cond = compare(g, n);
        E("JUMP %s, _L%d", jump_if ? cond : invert(cond), label);
        return;
    }
    default:
        gen_expr(g, n);
        test_a(g, size_of(n->type));
        E("JUMP %s, _L%d", jump_if ? "NZ" : "Z", label);
    }
}

/* Can n be loaded straight into registers reg.. without disturbing others (a constant or a
 * variable at a fixed address)? Then do so when `load`. */
static bool direct_arg(gen *g, cc_node *n, int reg, bool load)
{
    cc_node *v = n->op == N_CAST && cc_is_int(n->a->type) && n->type->kind == TY_INT ? n->a : n;
    int w = n->type->size;
    const cc_sym *s;
    int off;
    if (n->op == N_NUM) {
        for (int i = 0; load && i < w; i++) E("LOAD s%X, %02X", reg + i, (unsigned)((uint64_t)n->val >> (8 * i)) & 0xFF);
        return true;
    }
    if (!(v->op == N_VAR || v->op == N_MEMBER) || !static_addr(v, &s, &off) || !cc_is_scalar(v->type)) return false;
    if (load) {
        int sz = v->type->size < w ? v->type->size : w;
        for (int i = 0; i < sz; i++) E("FETCH s%X, %s", reg + i, sym_addr(g, s, off + i).s);
        extend(g, reg, sz, is_signed(v->type), w);
    }
    return true;
}

static void gen_call(gen *g, cc_node *n)
{
    int bytes = 0;
    for (int i = 0; i < n->n; i++) bytes += n->list[i]->type->size;
    int t = tmp_push(g, bytes ? bytes : 1), off = 0;
    /* computed arguments wait in temporaries (a later one may call); then each goes to its
     * registers, the constants and plain variables last, straight from where they are */
    for (int i = 0; i < n->n; i++) {
        if (!direct_arg(g, n->list[i], 0, false)) {
            gen_expr(g, n->list[i]);
            save_a(g, t + off, n->list[i]->type->size);
        }
        off += n->list[i]->type->size;
    }
    off = 0;
    for (int i = 0; i < n->n; i++) {
        if (!direct_arg(g, n->list[i], 0, false)) fetch_regs(g, off, t + off, n->list[i]->type->size);
        off += n->list[i]->type->size;
    }
    off = 0;
    for (int i = 0; i < n->n; i++) {
        direct_arg(g, n->list[i], off, true);
        off += n->list[i]->type->size;
    }
    tmp_pop(g, bytes ? bytes : 1);
    E("CALL %s%s", n->sym->func->body ? "c_" : "", n->sym->name);
    cc_func *f = n->sym->func;
    bool seen = false;
    for (int i = 0; i < g->f->ncallees; i++) seen |= g->f->callees[i] == f;
    if (!seen) {
        int cap = g->f->ncallees;
        CC_PUSH(g->c, g->f->callees, g->f->ncallees, cap, f);
    }
}

static void incdec(gen *g, cc_node *n)
{
    int w = n->type->size;
    bool post = n->op == N_POSTINC || n->op == N_POSTDEC, inc = n->op == N_PREINC || n->op == N_POSTINC;
    int step = n->type->kind == TY_PTR ? n->type->base->size : 1;
    lval l = lv_prepare(g, n->a);
    lv_access(g, &l, w, false, 0);
    int t = 0;
    if (post) save_a(g, t = tmp_push(g, w), w);
    if (n->type->kind == TY_BOOL) E("LOAD s0, %s", inc ? "01" : "00");   /* C: ++ on _Bool sets it */
    else
        for (int i = 0; i < w; i++)
            E("%s s%d, %02X", inc ? (i ? "ADDCY" : "ADD") : (i ? "SUBCY" : "SUB"), i, i ? 0 : step);
    lv_access(g, &l, w, true, 0);
    if (post) {
        fetch_regs(g, 0, t, w);
        tmp_pop(g, w);
    }
    lv_release(g, &l);
}

static void to_bool(gen *g, int size)
{
    for (int i = 1; i < size; i++) E("OR s0, s%d", i);
    E("COMPARE s0, 01");   /* C when s0 == 0 */
    E("LOAD s0, 00");
    E("ADDCY s0, 00");
    E("XOR s0, 01");
}

static void gen_expr(gen *g, cc_node *n)
{
    int w = size_of(n->type);
    switch (n->op) {
    case N_NUM:
        for (int i = 0; i < w; i++) E("LOAD s%d, %02X", i, (unsigned)((uint64_t)n->val >> (8 * i)) & 0xFF);
        return;
    case N_VAR: case N_MEMBER: case N_DEREF: {
        if (n->type->kind == TY_STRUCT || n->type->kind == TY_ARRAY)
            cc_error(g->c, n->pos, "a struct or array used as a value");
        lval l = lv_prepare(g, n);
        lv_access(g, &l, w, false, 0);
        lv_release(g, &l);
        return;
    }
    case N_ADDR: gen_addr(g, n->a); return;
    case N_CAST: {
        gen_expr(g, n->a);
        int from = size_of(n->a->type);
        if (n->type->kind == TY_VOID) return;
        if (n->type->kind == TY_BOOL) to_bool(g, from);
        else extend(g, 0, from, is_signed(n->a->type), w);
        return;
    }
    case N_ADD: case N_SUB: case N_MUL: case N_DIV: case N_MOD: case N_SHL: case N_SHR: case N_AND: case N_OR: case N_XOR: {
        cc_type *t = n->type->kind == TY_PTR ? n->type : (n->optype ? n->optype : n->type);
        gen_expr(g, n->a);
        extend(g, 0, size_of(n->a->type), is_signed(n->a->type), t->size);
        apply_op(g, n->op, t, n->b);
        return;
    }
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_GT: case N_GE: case N_LAND: case N_LOR: case N_LNOT: {
        int f = new_label(g), e = new_label(g);
        gen_branch(g, n, f, false);
        E("LOAD s0, 01");
        E("JUMP _L%d", e);
        put_label(g, f);
        E("LOAD s0, 00");
        put_label(g, e);
        E("LOAD s1, 00");
        return;
    }
    case N_COND: {
        int f = new_label(g), e = new_label(g);
        gen_branch(g, n->a, f, false);
        gen_expr(g, n->b);
        extend(g, 0, size_of(n->b->type), is_signed(n->b->type), w);
        E("JUMP _L%d", e);
        put_label(g, f);
        gen_expr(g, n->c);
        extend(g, 0, size_of(n->c->type), is_signed(n->c->type), w);
        put_label(g, e);
        return;
    }
    case N_COMMA: gen_expr(g, n->a); gen_expr(g, n->b); return;
    case N_ASSIGN: {
        if (n->type->kind == TY_STRUCT) {   /* byte copy: source address in s9, destination in s8 */
            gen_addr(g, n->b);
            int t = tmp_push(g, 1);
            save_a(g, t, 1);
            gen_addr(g, n->a);
            E("LOAD s8, s0");
            fetch_regs(g, 9, t, 1);
            tmp_pop(g, 1);
            for (int i = 0; i < n->type->size; i++) {
                if (i) E("ADD s8, 01");
                if (i) E("ADD s9, 01");
                E("FETCH s0, (s9)");
                E("STORE s0, (s8)");
            }
            return;
        }
        lval l = lv_prepare(g, n->a);
        gen_expr(g, n->b);
        lv_access(g, &l, w, true, 0);
        lv_release(g, &l);
        return;
    }
    case N_OPASSIGN: {
        lval l = lv_prepare(g, n->a);
        cc_type *t = n->optype;
        lv_access(g, &l, w, false, 0);
        extend(g, 0, w, is_signed(n->a->type), t->size);
        apply_op(g, n->subop, t, n->b);
        if (n->type->kind == TY_BOOL) to_bool(g, t->size);
        lv_access(g, &l, w, true, 0);
        lv_release(g, &l);
        return;
    }
    case N_PREINC: case N_PREDEC: case N_POSTINC: case N_POSTDEC: incdec(g, n); return;
    case N_CALL: gen_call(g, n); return;
    case N_INPUT:
        if (n->a->op == N_NUM) E("INPUT s0, %02X", (unsigned)n->a->val & 0xFF);
        else {
            gen_expr(g, n->a);
            E("LOAD s8, s0");
            E("INPUT s0, (s8)");
        }
        return;
    case N_OUTPUT:
        if (n->a->op == N_NUM) {
            gen_expr(g, n->b);
            E("OUTPUT s0, %02X", (unsigned)n->a->val & 0xFF);
        } else {
            gen_expr(g, n->a);
            int t = tmp_push(g, 1);
            save_a(g, t, 1);
            gen_expr(g, n->b);
            fetch_regs(g, 8, t, 1);
            tmp_pop(g, 1);
            E("OUTPUT s0, (s8)");
        }
        return;
    case N_SETREG:
        gen_expr(g, n->a);
        if (n->val) E("LOAD s%X, s0", (unsigned)n->val);
        return;
    case N_GETREG:
        if (n->val) E("LOAD s0, s%X", (unsigned)n->val);
        return;
    case N_ASM: {
        const char *p = n->text;
        while (*p) {
            size_t len = strcspn(p, "\n");
            cc_buf_add(g->o, "%.*s\n", (int)len, p);
            p += len + (p[len] == '\n');
        }
        return;
    }
    case N_INTR: E("%s INTERRUPT", n->val ? "ENABLE" : "DISABLE"); return;
    }
    cc_error(g->c, n->pos, "internal: expression %d", n->op);
}

/* ---- statements ----------------------------------------------------------------------------- */

static void comment_line(gen *g, cc_pos pos)
{
    if (pos.file == g->lastfile && pos.line == g->lastline) return;
    g->lastfile = pos.file;
    g->lastline = pos.line;
    const char *src = cc_source_line(g->c, pos.file, pos.line);
    if (!src) return;
    while (*src == ' ' || *src == '\t') src++;
    cc_buf_add(g->o, "; %d: %s\n", pos.line, src);
}

static void gen_stmt(gen *g, cc_node *n);

static void gen_switch(gen *g, cc_node *n)
{
    int w = size_of(n->a->type), end = new_label(g), dflt = end;
    gen_expr(g, n->a);
    for (int i = 0; i < n->n; i++) {
        cc_node *cs = n->list[i];
        cs->subop = new_label(g);
        if (cs->op == S_DEFAULT) {
            dflt = cs->subop;
            continue;
        }
        int skip = new_label(g);
        for (int b = 0; b < w; b++) {
            E("COMPARE s%d, %02X", b, (unsigned)((uint64_t)cs->val >> (8 * b)) & 0xFF);
            if (b < w - 1) E("JUMP NZ, _L%d", skip);
        }
        E("JUMP Z, _L%d", cs->subop);
        put_label(g, skip);
    }
    E("JUMP _L%d", dflt);
    int brk = g->brk;
    g->brk = end;
    gen_stmt(g, n->b);
    g->brk = brk;
    put_label(g, end);
}

static void gen_stmt(gen *g, cc_node *n)
{
    if (n->op != S_BLOCK) comment_line(g, n->pos);
    int brk = g->brk, cont = g->cont;
    switch (n->op) {
    case S_EMPTY: return;
    case S_EXPR: gen_expr(g, n->a); return;
    case S_BLOCK:
        for (int i = 0; i < n->n; i++) gen_stmt(g, n->list[i]);
        return;
    case S_IF: {
        int f = new_label(g);
        gen_branch(g, n->a, f, false);
        gen_stmt(g, n->b);
        if (n->c) {
            int e = new_label(g);
            E("JUMP _L%d", e);
            put_label(g, f);
            gen_stmt(g, n->c);
            put_label(g, e);
        } else put_label(g, f);
        return;
    }
    case S_WHILE: case S_FOR: {
        if (n->d) gen_stmt(g, n->d);
        int top = new_label(g), next = new_label(g), end = new_label(g);
        put_label(g, top);
        if (n->a) gen_branch(g, n->a, end, false);
        g->brk = end;
        g->cont = next;
        gen_stmt(g, n->b);
        put_label(g, next);
        if (n->c) gen_expr(g, n->c);
        E("JUMP _L%d", top);
        put_label(g, end);
        break;
    }
    case S_DO: {
        int top = new_label(g), next = new_label(g), end = new_label(g);
        put_label(g, top);
        g->brk = end;
        g->cont = next;
        gen_stmt(g, n->b);
        put_label(g, next);
        comment_line(g, n->a->pos);
        gen_branch(g, n->a, top, true);
        put_label(g, end);
        break;
    }
    case S_SWITCH: gen_switch(g, n); return;
    case S_CASE: case S_DEFAULT:
        put_label(g, n->subop);
        gen_stmt(g, n->a);
        return;
    case S_BREAK: E("JUMP _L%d", g->brk); return;
    case S_CONTINUE: E("JUMP _L%d", g->cont); return;
    case S_RETURN:
        if (n->a) gen_expr(g, n->a);
        if (g->f->interrupt) E("JUMP _L%d", g->epilogue);
        else E("RETURN");
        return;
    case S_GOTO: E("JUMP _G_%s_%s", g->f->sym->name, n->text); return;
    case S_LABEL:
        cc_buf_add(g->o, "_G_%s_%s:\n", g->f->sym->name, n->text);
        gen_stmt(g, n->a);
        return;
    default: cc_error(g->c, n->pos, "internal: statement %d", n->op);
    }
    g->brk = brk;
    g->cont = cont;
}

void cc_gen_func(cc_ctx *c, cc_func *f)
{
    gen G = { c, f, &f->code, 0, -1, -1, NULL, 0, 0 }, *g = &G;
    cc_buf body = { 0 };
    f->frame = f->locals;
    g->o = &c->body;
    if (f->interrupt) g->epilogue = new_label(g);
    cc_type *ft = f->sym->type;
    for (int i = 0, reg = 0; i < ft->nmembers; i++) {
        /* the parameters were the function's first locals, in order */
        for (int b = 0; b < ft->members[i].type->size; b++, reg++) E("STORE s%X, %s", reg, frame_addr(g, reg).s);
    }
    gen_stmt(g, f->body);
    if (f->interrupt) put_label(g, g->epilogue);
    body = c->body;
    memset(&c->body, 0, sizeof c->body);
    /* the handler saves the registers its body uses; a call may use any */
    int save = 0;
    if (f->interrupt) {
        bool calls = strstr(body.s ? body.s : "", "CALL ") != NULL;
        for (int r = 0; r < 16; r++) {
            char name[4];
            snprintf(name, sizeof name, "s%X", r);
            const char *p = body.s ? body.s : "";
            bool used = calls && r <= 0xE;
            while (!used && (p = strstr(p, name))) {
                used = (p == body.s || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'z'))) && !(p[2] >= '0' && p[2] <= 'z');
                p += 2;
            }
            if (used) save |= 1 << r;
        }
    }
    cc_buf_add(&f->code, "c_%s:\n", f->sym->name);   /* c_: C names may be mnemonics or hex */
    g->o = &f->code;
    int saveoff = f->frame, nsave = 0;
    for (int r = 0; r < 16; r++)
        if (save & (1 << r)) E("STORE s%X, %s", r, frame_addr(g, saveoff + nsave++).s);
    f->frame += nsave;
    cc_buf_add(&f->code, "%s", body.s ? body.s : "");
    cc_buf_free(&body);
    nsave = 0;
    for (int r = 0; r < 16; r++)
        if (save & (1 << r)) E("FETCH s%X, %s", r, frame_addr(g, saveoff + nsave++).s);
    E(f->interrupt ? "RETURNI ENABLE" : "RETURN");
}

/* ---- the program ---------------------------------------------------------------------------- */

static void add_resolved(cc_ctx *c, const char *s)
{
    while (*s) {
        const char *at = strchr(s, '@');
        if (!at) {
            cc_buf_add(&c->out, "%s", s);
            return;
        }
        cc_buf_add(&c->out, "%.*s", (int)(at - s), s);
        int fi = 0, off = 0;
        const char *q = at + 1;
        fi = (int)strtol(q, (char **)&q, 10);
        off = (int)strtol(q + 1, (char **)&q, 10);
        cc_buf_add(&c->out, "%02X", (unsigned)(c->funcs[fi]->base + off) & 0xFF);
        s = q + 1;
    }
}

void cc_emit_program(cc_ctx *c)
{
    cc_buf *o = &c->out;
    cc_buf_add(o, "; Generated by isekit cc for %s: C lines as comments, frames static (docs/cc.md).\n",
               c->core == 6 ? "KCPSM6" : "KCPSM3");
    cc_buf_add(o, "; scratchpad: globals 00-%02X", c->gsize ? c->gsize - 1 : 0);
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->body && c->funcs[i]->frame)
            cc_buf_add(o, ", %s %02X-%02X", c->funcs[i]->sym->name, c->funcs[i]->base, c->funcs[i]->base + c->funcs[i]->frame - 1);
    cc_buf_add(o, "\n_start:\n");
    if (c->gsize) {
        cc_buf_add(o, "            LOAD s0, 00                 ; globals start at zero, as C says\n");
        cc_buf_add(o, "            LOAD s1, %02X\n_zero:      SUB s1, 01\n            STORE s0, (s1)\n            JUMP NZ, _zero\n",
                   (unsigned)c->gsize & 0xFF);
    }
    for (int a = 0; a < c->gsize; a++)
        if (c->gset[a] && c->gimage[a])
            cc_buf_add(o, "            LOAD s0, %02X\n            STORE s0, %02X\n", c->gimage[a], (unsigned)a);
    cc_buf_add(o, "            CALL c_main\n_halt:      JUMP _halt                  ; main returned\n");
    cc_func *isr = NULL;
    for (int i = 0; i < c->nfuncs; i++) {
        cc_func *f = c->funcs[i];
        if (!f->body) continue;
        if (f->interrupt) isr = f;
        cc_buf_add(o, "\n");
        add_resolved(c, f->code.s);
    }
    cc_emit_runtime(c);
    for (int i = 0; i < c->nlibs; i++) cc_buf_add(o, "\n            INCLUDE \"%s\"\n", c->libs[i]);
    if (isr) cc_buf_add(o, "\n            ADDRESS 3FF                 ; the interrupt vector\n            JUMP c_%s\n", isr->sym->name);
}
