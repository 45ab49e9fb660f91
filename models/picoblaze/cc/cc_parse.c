/* isekit cc: the recursive-descent parser. It builds typed trees as it goes: implicit
 * conversions become N_CAST nodes, constant expressions are folded, arrays decay to pointers,
 * a[i] becomes *(a + i) with the index scaled. Anything outside the subset is an error naming
 * file:line:column and what is not supported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

static cc_token *peek(cc_ctx *c) { return &c->toks[c->tp]; }
static cc_token *next(cc_ctx *c) { cc_token *t = &c->toks[c->tp]; if (t->kind != TK_EOF) c->tp++; return t; }
static bool is_p(cc_ctx *c, const char *p) { cc_token *t = peek(c); return t->kind == TK_PUNCT && strcmp(t->text, p) == 0; }
static bool is_kw(cc_ctx *c, const char *k) { cc_token *t = peek(c); return t->kind == TK_ID && strcmp(t->text, k) == 0; }
static bool accept(cc_ctx *c, const char *p) { if (is_p(c, p) || is_kw(c, p)) { next(c); return true; } return false; }
static void expect(cc_ctx *c, const char *p)
{
    if (!accept(c, p)) {
        cc_token *t = peek(c);
        cc_error(c, t->pos, "expected '%s' before '%s'", p, t->kind == TK_EOF ? "end of file" : t->text ? t->text : "constant");
    }
}

static const char *const unsupported_kw[] = { "float", "double", "_Complex", "_Atomic", "_Thread_local", "_Generic",
                                              "_Alignas", "_Alignof", "_Static_assert", "union", "_Noreturn", NULL };

static cc_node *new_node(cc_ctx *c, int op, cc_pos pos)
{
    cc_node *n = cc_alloc(c, sizeof *n);
    n->op = op;
    n->pos = pos;
    return n;
}

/* ---- symbols -------------------------------------------------------------------------------- */

static cc_sym *lookup(cc_ctx *c, const char *name)
{
    for (int i = c->nsyms - 1; i >= 0; i--)
        if (strcmp(c->syms[i]->name, name) == 0) return c->syms[i];
    return NULL;
}

static cc_sym *add_sym(cc_ctx *c, const char *name, int kind, cc_type *t, cc_pos pos)
{
    cc_sym *s = cc_alloc(c, sizeof *s);
    s->name = name;
    s->kind = kind;
    s->type = t;
    s->pos = pos;
    CC_PUSH(c, c->syms, c->nsyms, c->capsyms, s);
    return s;
}

static bool is_typename(cc_ctx *c)
{
    cc_token *t = peek(c);
    if (t->kind != TK_ID) return false;
    static const char *const kws[] = { "void", "char", "short", "int", "long", "signed", "unsigned", "_Bool", "struct",
                                       "enum", "const", "volatile", "static", "extern", "typedef", "register", "auto",
                                       "__interrupt", "inline", "float", "double", "union", NULL };
    for (int i = 0; kws[i]; i++)
        if (strcmp(t->text, kws[i]) == 0) return true;
    cc_sym *s = lookup(c, t->text);
    return s && s->kind == SY_TYPEDEF;
}

/* ---- constants and conversions -------------------------------------------------------------- */

static int64_t wrap(const cc_type *t, int64_t v)
{
    if (t->kind == TY_BOOL) return v != 0;
    int bits = t->size * 8;
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t u = (uint64_t)v & m;
    if (!t->is_unsigned && bits < 64 && (u >> (bits - 1))) return (int64_t)(u | ~m);
    return (int64_t)u;
}

static cc_node *num(cc_ctx *c, int64_t v, cc_type *t, cc_pos pos)
{
    cc_node *n = new_node(c, N_NUM, pos);
    n->type = t;
    n->val = wrap(t, v);
    return n;
}

bool cc_const_value(const cc_node *n, int64_t *v)
{
    if (n->op != N_NUM) return false;
    *v = n->val;
    return true;
}

static cc_node *convert(cc_ctx *c, cc_node *n, cc_type *t)
{
    cc_type *f = n->type;
    if (f == t) return n;
    if (f->kind == t->kind && f->size == t->size && f->is_unsigned == t->is_unsigned &&
        (t->kind == TY_INT || t->kind == TY_BOOL))
        return n;
    if (t->kind == TY_PTR && f->kind == TY_PTR) {
        cc_node *x = new_node(c, N_CAST, n->pos);
        *x = *n;
        x->type = t;
        return x;
    }
    if (!cc_is_scalar(t) || !cc_is_scalar(f)) {
        char a[96], b[96];
        cc_error(c, n->pos, "cannot convert %s to %s", cc_type_name(f, a, sizeof a), cc_type_name(t, b, sizeof b));
    }
    if (n->op == N_NUM) return num(c, n->val, t, n->pos);
    cc_node *x = new_node(c, N_CAST, n->pos);
    x->a = n;
    x->type = t;
    return x;
}

static cc_type *t_int(cc_ctx *c) { return cc_int_type(c, 2, false); }

/* Arrays decay to a pointer to their first element; functions may only be called. */
static cc_node *rvalue(cc_ctx *c, cc_node *n)
{
    if (n->type->kind == TY_ARRAY) {
        cc_node *a = new_node(c, N_ADDR, n->pos);
        a->a = n;
        a->type = cc_ptr_to(c, n->type->base);
        return a;
    }
    if (n->type->kind == TY_FUNC) cc_error(c, n->pos, "function pointers are outside the subset: call '%s'", n->sym ? n->sym->name : "it");
    return n;
}

static cc_node *scalar(cc_ctx *c, cc_node *n, const char *what)
{
    n = rvalue(c, n);
    if (n->type->kind == TY_VOID) cc_error(c, n->pos, "%s needs a value, and this expression is void", what);
    if (!cc_is_scalar(n->type)) cc_error(c, n->pos, "%s needs a scalar operand", what);
    return n;
}

static cc_node *integer(cc_ctx *c, cc_node *n, const char *what)
{
    n = rvalue(c, n);
    if (!cc_is_int(n->type)) cc_error(c, n->pos, "%s needs an integer operand", what);
    return n;
}

static bool is_lvalue(const cc_node *n)
{
    return (n->op == N_VAR && n->sym->kind != SY_FUNC) || n->op == N_DEREF || n->op == N_MEMBER;
}

static int64_t fold_bin(int op, int64_t a, int64_t b, bool u, int size, bool *ok)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b, m = size == 4 ? 0xFFFFFFFFu : 0xFFFFu;
    *ok = true;
    switch (op) {
    case N_ADD: return a + b;
    case N_SUB: return a - b;
    case N_MUL: return (int64_t)(ua * ub);
    case N_DIV: if (!b) break; return u ? (int64_t)((ua & m) / (ub & m)) : a / b;
    case N_MOD: if (!b) break; return u ? (int64_t)((ua & m) % (ub & m)) : a % b;
    case N_SHL: return (int64_t)(ua << (b & 63));
    case N_SHR: return u ? (int64_t)((ua & m) >> (b & 63)) : a >> (b & 63);
    case N_AND: return a & b;
    case N_OR: return a | b;
    case N_XOR: return a ^ b;
    case N_EQ: return a == b;
    case N_NE: return a != b;
    case N_LT: return u ? (ua & m) < (ub & m) : a < b;
    case N_LE: return u ? (ua & m) <= (ub & m) : a <= b;
    case N_GT: return u ? (ua & m) > (ub & m) : a > b;
    case N_GE: return u ? (ua & m) >= (ub & m) : a >= b;
    }
    *ok = false;
    return 0;
}

static cc_node *binary(cc_ctx *c, int op, cc_node *a, cc_node *b, cc_pos pos)
{
    cc_node *n = new_node(c, op, pos);
    a = rvalue(c, a);
    b = rvalue(c, b);
    cc_type *ta = a->type, *tb = b->type;
    bool pa = ta->kind == TY_PTR, pb = tb->kind == TY_PTR;
    if ((op == N_ADD || op == N_SUB) && (pa || pb)) {
        if (op == N_ADD && pb && !pa) { cc_node *t = a; a = b; b = t; pa = true; pb = false; ta = a->type; tb = b->type; }
        int es = ta->base->kind == TY_VOID ? 1 : ta->base->size;
        if (pb) {
            if (op != N_SUB) cc_error(c, pos, "cannot add two pointers");
            n->a = convert(c, a, t_int(c));
            n->b = convert(c, b, t_int(c));
            n->type = t_int(c);
            if (es == 1) return n;
            return binary(c, N_DIV, n, num(c, es, t_int(c), pos), pos);
        }
        if (!cc_is_int(tb)) cc_error(c, pos, "pointer arithmetic needs an integer");
        b = convert(c, b, cc_promote(c, tb));
        if (es != 1) b = binary(c, N_MUL, b, num(c, es, b->type, pos), pos);
        n->a = a;
        n->b = b;
        n->type = ta;
        return n;
    }
    if (op >= N_EQ && op <= N_GE && (pa || pb)) {
        if (pa && pb) ;
        else if (pa && b->op == N_NUM && b->val == 0) b = convert(c, b, ta);
        else if (pb && a->op == N_NUM && a->val == 0) a = convert(c, a, tb);
        else cc_error(c, pos, "comparison of a pointer with an integer");
        n->a = a;
        n->b = b;
        n->type = t_int(c);
        if (a->op == N_NUM && b->op == N_NUM) {
            bool ok;
            int64_t v = fold_bin(op, a->val, b->val, true, 1, &ok);
            if (ok) return num(c, v, t_int(c), pos);
        }
        return n;
    }
    static const char *const names[] = { [N_ADD] = "+", [N_SUB] = "-", [N_MUL] = "*", [N_DIV] = "/", [N_MOD] = "%",
                                         [N_SHL] = "<<", [N_SHR] = ">>", [N_AND] = "&", [N_OR] = "|", [N_XOR] = "^",
                                         [N_EQ] = "==", [N_NE] = "!=", [N_LT] = "<", [N_LE] = "<=", [N_GT] = ">",
                                         [N_GE] = ">=" };
    char what[32];
    snprintf(what, sizeof what, "operator '%s'", names[op]);
    a = integer(c, a, what);
    b = integer(c, b, what);
    cc_type *t;
    if (op == N_SHL || op == N_SHR) {
        t = cc_promote(c, a->type);
        a = convert(c, a, t);
        b = convert(c, b, cc_promote(c, b->type));
    } else {
        t = cc_arith(c, a->type, b->type);
        a = convert(c, a, t);
        b = convert(c, b, t);
    }
    n->a = a;
    n->b = b;
    n->type = op >= N_EQ && op <= N_GE ? t_int(c) : t;
    n->optype = t;
    if (a->op == N_NUM && b->op == N_NUM) {
        if ((op == N_DIV || op == N_MOD) && wrap(t, b->val) == 0) return n;  /* run time, as C leaves it */
        bool ok;
        int64_t v = fold_bin(op, wrap(t, a->val), wrap(t, b->val), t->is_unsigned, t->size, &ok);
        if (ok) return num(c, v, n->type, pos);
    }
    return n;
}

/* ---- declarations --------------------------------------------------------------------------- */

typedef struct declspec { int storage; bool interrupt, is_typedef; cc_pos pos; } declspec;
enum { ST_NONE, ST_STATIC, ST_EXTERN };

static cc_node *assign_expr(cc_ctx *c);
static cc_node *expr(cc_ctx *c);
static int64_t const_expr(cc_ctx *c);
static cc_type *declarator(cc_ctx *c, cc_type *base, const char **name, cc_pos *pos, bool abstract);

static cc_type *struct_spec(cc_ctx *c, cc_pos pos)
{
    const char *tag = NULL;
    if (peek(c)->kind == TK_ID) tag = next(c)->text;
    cc_sym *found = NULL;
    if (tag)
        for (int i = c->ntags - 1; i >= 0; i--)
            if (strcmp(c->tags[i]->name, tag) == 0) { found = c->tags[i]; break; }
    if (!is_p(c, "{")) {
        if (!tag) cc_error(c, pos, "struct with neither a tag nor members");
        if (found) return found->type;
        cc_type *t = cc_new_type(c, TY_STRUCT, 0);
        t->tag = tag;
        t->complete = false;
        cc_sym *s = cc_alloc(c, sizeof *s);
        s->name = tag;
        s->type = t;
        CC_PUSH(c, c->tags, c->ntags, c->captags, s);
        return t;
    }
    next(c);
    cc_type *t = found && !found->type->complete ? found->type : cc_new_type(c, TY_STRUCT, 0);
    if (found && found->type->complete) cc_error(c, pos, "struct %s defined twice", tag);
    t->tag = tag;
    if (tag && !found) {
        cc_sym *s = cc_alloc(c, sizeof *s);
        s->name = tag;
        s->type = t;
        CC_PUSH(c, c->tags, c->ntags, c->captags, s);
    }
    int cap = 0, off = 0;
    while (!accept(c, "}")) {
        declspec ds;
        cc_pos bp = peek(c)->pos;
        if (!is_typename(c)) cc_error(c, bp, "expected a member declaration");
        cc_type *base = NULL;
        extern cc_type *cc_declspec_(cc_ctx *, declspec *);
        base = cc_declspec_(c, &ds);
        do {
            const char *name;
            cc_pos mp;
            cc_type *mt = declarator(c, base, &name, &mp, false);
            if (is_p(c, ":")) cc_error(c, peek(c)->pos, "bit-fields are outside the subset");
            if (!mt->complete || mt->kind == TY_FUNC || mt->kind == TY_VOID) cc_error(c, mp, "member '%s' has an incomplete type", name);
            for (int i = 0; i < t->nmembers; i++)
                if (strcmp(t->members[i].name, name) == 0) cc_error(c, mp, "duplicate member '%s'", name);
            cc_member m = { name, mt, off };
            CC_PUSH(c, t->members, t->nmembers, cap, m);
            off += mt->size;
        } while (accept(c, ","));
        expect(c, ";");
    }
    t->size = off;   /* the PicoBlaze is byte-addressed with no alignment */
    t->complete = true;
    return t;
}

static cc_type *enum_spec(cc_ctx *c)
{
    if (peek(c)->kind == TK_ID) next(c);
    if (accept(c, "{")) {
        int64_t v = 0;
        while (!accept(c, "}")) {
            cc_token *t = next(c);
            if (t->kind != TK_ID) cc_error(c, t->pos, "expected an enumerator name");
            if (accept(c, "=")) v = const_expr(c);
            cc_sym *s = add_sym(c, t->text, SY_ENUM, t_int(c), t->pos);
            s->value = v++;
            if (!accept(c, ",")) {
                expect(c, "}");
                break;
            }
        }
    }
    return t_int(c);
}

cc_type *cc_declspec_(cc_ctx *c, declspec *ds);
cc_type *cc_declspec_(cc_ctx *c, declspec *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->pos = peek(c)->pos;
    int nsigned = 0, nunsigned = 0, nchar = 0, nshort = 0, nint = 0, nlong = 0, nvoid = 0, nbool = 0;
    cc_type *t = NULL;
    for (;;) {
        cc_token *tk = peek(c);
        if (tk->kind != TK_ID) break;
        const char *w = tk->text;
        for (int i = 0; unsupported_kw[i]; i++)
            if (strcmp(w, unsupported_kw[i]) == 0) cc_error(c, tk->pos, "'%s' is outside the subset (docs/cc.md)", w);
        if (!strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "register") || !strcmp(w, "auto") ||
            !strcmp(w, "inline")) next(c);
        else if (!strcmp(w, "static")) next(c), ds->storage = ST_STATIC;
        else if (!strcmp(w, "extern")) next(c), ds->storage = ST_EXTERN;
        else if (!strcmp(w, "typedef")) next(c), ds->is_typedef = true;
        else if (!strcmp(w, "__interrupt")) next(c), ds->interrupt = true;
        else if (!strcmp(w, "signed")) next(c), nsigned++;
        else if (!strcmp(w, "unsigned")) next(c), nunsigned++;
        else if (!strcmp(w, "char")) next(c), nchar++;
        else if (!strcmp(w, "short")) next(c), nshort++;
        else if (!strcmp(w, "int")) next(c), nint++;
        else if (!strcmp(w, "long")) next(c), nlong++;
        else if (!strcmp(w, "void")) next(c), nvoid++;
        else if (!strcmp(w, "_Bool")) next(c), nbool++;
        else if (!strcmp(w, "struct")) { next(c); if (t) cc_error(c, tk->pos, "two types in one declaration"); t = struct_spec(c, tk->pos); }
        else if (!strcmp(w, "enum")) { next(c); if (t) cc_error(c, tk->pos, "two types in one declaration"); t = enum_spec(c); }
        else {
            cc_sym *s = lookup(c, w);
            if (s && s->kind == SY_TYPEDEF && !t && !(nsigned | nunsigned | nchar | nshort | nint | nlong | nvoid | nbool)) {
                next(c);
                t = s->type;
            } else break;
        }
    }
    if (nlong > 1) cc_error(c, ds->pos, "'long long' is outside the subset (long is 32 bits)");
    if (t) {
        if (nsigned | nunsigned | nchar | nshort | nint | nlong | nvoid | nbool) cc_error(c, ds->pos, "two types in one declaration");
        return t;
    }
    if (nvoid) return cc_new_type(c, TY_VOID, 0);
    if (nbool) { cc_type *b = cc_new_type(c, TY_BOOL, 1); b->is_unsigned = true; return b; }
    if (nsigned + nunsigned + nchar + nshort + nint + nlong == 0) cc_error(c, ds->pos, "expected a type");
    if (nsigned && nunsigned) cc_error(c, ds->pos, "both signed and unsigned");
    if (nchar) return cc_int_type(c, 1, nunsigned > 0);  /* plain char is signed, as on x86 hosts */
    if (nlong) return cc_int_type(c, 4, nunsigned > 0);
    return cc_int_type(c, 2, nunsigned > 0);
}

static cc_type *params(cc_ctx *c, cc_type *ret, cc_pos pos)
{
    cc_type *f = cc_new_type(c, TY_FUNC, 0);
    f->base = ret;
    int cap = 0;
    if (is_kw(c, "void") && c->toks[c->tp + 1].kind == TK_PUNCT && !strcmp(c->toks[c->tp + 1].text, ")")) next(c);
    else if (is_p(c, ")")) f->count = -1;  /* () : treat as (void) but remember */
    while (!accept(c, ")")) {
        if (is_p(c, "...")) cc_error(c, peek(c)->pos, "variadic functions are outside the subset");
        declspec ds;
        if (!is_typename(c)) cc_error(c, peek(c)->pos, "expected a parameter type");
        cc_type *b = cc_declspec_(c, &ds);
        const char *name = NULL;
        cc_pos pp;
        cc_type *t = declarator(c, b, &name, &pp, true);
        if (t->kind == TY_ARRAY) t = cc_ptr_to(c, t->base);
        if (t->kind == TY_STRUCT) cc_error(c, pp, "struct parameters are outside the subset: pass a pointer");
        if (t->kind == TY_VOID) cc_error(c, pp, "a parameter of type void");
        cc_member m = { name, t, 0 };
        CC_PUSH(c, f->members, f->nmembers, cap, m);
        if (!accept(c, ",")) {
            expect(c, ")");
            break;
        }
    }
    (void)pos;
    return f;
}

static cc_type *declarator(cc_ctx *c, cc_type *base, const char **name, cc_pos *pos, bool abstract)
{
    while (accept(c, "*")) {
        base = cc_ptr_to(c, base);
        while (accept(c, "const") || accept(c, "volatile")) ;
    }
    *pos = peek(c)->pos;
    *name = NULL;
    if (is_p(c, "(")) cc_error(c, peek(c)->pos, "function pointers and parenthesized declarators are outside the subset");
    if (peek(c)->kind == TK_ID && !is_typename(c)) *name = next(c)->text;
    else if (!abstract) cc_error(c, peek(c)->pos, "expected a name in the declaration");
    if (accept(c, "(")) {
        if (base->kind == TY_ARRAY || base->kind == TY_STRUCT)
            cc_error(c, *pos, "functions returning arrays or structs are outside the subset");
        return params(c, base, *pos);
    }
    /* arrays: int a[2][3] is an array of 2 arrays of 3 */
    int dims[8], nd = 0;
    while (accept(c, "[")) {
        if (nd == 8) cc_error(c, *pos, "too many array dimensions");
        if (accept(c, "]")) dims[nd++] = -1;
        else {
            cc_pos dp = peek(c)->pos;
            int64_t v = const_expr(c);
            if (v <= 0 || v > 256) cc_error(c, dp, "array size %lld is not 1..256", (long long)v);
            dims[nd++] = (int)v;
            expect(c, "]");
        }
    }
    for (int i = nd - 1; i >= 0; i--) {
        if (!base->complete) cc_error(c, *pos, "array of an incomplete type");
        cc_type *a = cc_new_type(c, TY_ARRAY, dims[i] < 0 ? 0 : dims[i] * base->size);
        a->base = base;
        a->count = dims[i];
        a->complete = dims[i] >= 0;
        base = a;
    }
    return base;
}

/* ---- expressions ---------------------------------------------------------------------------- */

static cc_node *cast_expr(cc_ctx *c);

static cc_node *call(cc_ctx *c, cc_token *id)
{
    cc_pos pos = id->pos;
    const char *f = id->text;
    cc_node *n = new_node(c, N_CALL, pos);
    cc_node *args[16];
    int na = 0;
    if (!strcmp(f, "__asm") || !strcmp(f, "asm") || !strcmp(f, "__asm__")) {
        cc_buf b = { 0 };
        do {
            cc_token *t = next(c);
            if (t->kind != TK_STR) { cc_buf_free(&b); cc_error(c, t->pos, "__asm takes string literals"); }
            cc_buf_add(&b, "%s", t->text);
        } while (peek(c)->kind == TK_STR);
        expect(c, ")");
        n->op = N_ASM;
        n->text = cc_strdup(c, b.s ? b.s : "", b.len);
        cc_buf_free(&b);
        n->type = cc_new_type(c, TY_VOID, 0);
        return n;
    }
    while (!accept(c, ")")) {
        if (na == 16) cc_error(c, pos, "too many arguments");
        args[na++] = assign_expr(c);
        if (!accept(c, ",")) {
            expect(c, ")");
            break;
        }
    }
    if (!strcmp(f, "__input")) {
        if (na != 1) cc_error(c, pos, "__input(port) takes one argument");
        n->op = N_INPUT;
        n->a = convert(c, integer(c, args[0], "__input"), cc_int_type(c, 1, true));
        n->type = cc_int_type(c, 1, true);
        return n;
    }
    if (!strcmp(f, "__output")) {
        if (na != 2) cc_error(c, pos, "__output(port, value) takes two arguments");
        n->op = N_OUTPUT;
        n->a = convert(c, integer(c, args[0], "__output"), cc_int_type(c, 1, true));
        n->b = convert(c, integer(c, args[1], "__output"), cc_int_type(c, 1, true));
        n->type = cc_new_type(c, TY_VOID, 0);
        return n;
    }
    /* register pinning, for firmware (and tests) whose contract is a register's value: the value
     * is computed in s0 like any expression, so a later computation may overwrite s0-s8 */
    if (!strcmp(f, "__setreg") || !strcmp(f, "__getreg")) {
        bool set = f[2] == 's';
        if (na != 1 + set) cc_error(c, pos, set ? "__setreg(register, value) takes two arguments" : "__getreg(register) takes one argument");
        cc_node *r = args[0];
        if (r->op != N_NUM || r->val < 0 || r->val > 15) cc_error(c, r->pos, "%s: the register must be a constant 0..15", f);
        n->op = set ? N_SETREG : N_GETREG;
        n->val = r->val;
        if (set) n->a = convert(c, integer(c, args[1], f), cc_int_type(c, 1, true));
        n->type = set ? cc_new_type(c, TY_VOID, 0) : cc_int_type(c, 1, true);
        return n;
    }
    if (!strcmp(f, "__enable_interrupt") || !strcmp(f, "__disable_interrupt")) {
        if (na) cc_error(c, pos, "%s() takes no arguments", f);
        n->op = N_INTR;
        n->val = f[2] == 'e';
        n->type = cc_new_type(c, TY_VOID, 0);
        return n;
    }
    cc_sym *s = lookup(c, f);
    if (!s) cc_error(c, pos, "'%s' is not declared (implicit declarations are outside the subset)", f);
    if (s->kind != SY_FUNC) cc_error(c, pos, "'%s' is not a function", f);
    cc_type *ft = s->type;
    if (ft->count >= 0 && na != ft->nmembers)
        cc_error(c, pos, "'%s' takes %d argument%s, not %d", f, ft->nmembers, ft->nmembers == 1 ? "" : "s", na);
    n->list = cc_alloc(c, sizeof *n->list * (size_t)(na ? na : 1));
    int bytes = 0;
    for (int i = 0; i < na; i++) {
        cc_type *pt = i < ft->nmembers ? ft->members[i].type : cc_promote(c, rvalue(c, args[i])->type);
        n->list[i] = convert(c, scalar(c, args[i], "an argument"), pt);
        bytes += pt->size;
    }
    if (bytes > 12) cc_error(c, pos, "the arguments of '%s' take %d bytes; at most 12 pass in registers s0-sB", f, bytes);
    n->n = na;
    n->sym = s;
    n->type = ft->base;
    return n;
}

static cc_node *primary(cc_ctx *c)
{
    cc_token *t = next(c);
    if (t->kind == TK_NUM) {
        bool dec = t->text[0] != '0' || !t->text[1];
        uint64_t v = t->val;
        cc_type *ty;
        if (!t->is_long && !t->is_unsigned && v <= 0x7FFF) ty = cc_int_type(c, 2, false);
        else if (!t->is_long && (t->is_unsigned || !dec) && v <= 0xFFFF) ty = cc_int_type(c, 2, true);
        else if (!t->is_unsigned && v <= 0x7FFFFFFF) ty = cc_int_type(c, 4, false);
        else ty = cc_int_type(c, 4, true);
        return num(c, (int64_t)v, ty, t->pos);
    }
    if (t->kind == TK_CHAR) return num(c, (int64_t)t->val, t_int(c), t->pos);
    if (t->kind == TK_STR) cc_error(c, t->pos, "string literals are only for char array initializers and __asm");
    if (t->kind == TK_PUNCT && !strcmp(t->text, "(")) {
        cc_node *n = expr(c);
        expect(c, ")");
        return n;
    }
    if (t->kind != TK_ID) cc_error(c, t->pos, "expected an expression before '%s'", t->kind == TK_EOF ? "end of file" : t->text);
    if (accept(c, "(")) return call(c, t);
    cc_sym *s = lookup(c, t->text);
    if (!s) cc_error(c, t->pos, "'%s' is not declared", t->text);
    if (s->kind == SY_ENUM) return num(c, s->value, t_int(c), t->pos);
    if (s->kind == SY_TYPEDEF) cc_error(c, t->pos, "'%s' is a type, not a value", t->text);
    cc_node *n = new_node(c, N_VAR, t->pos);
    n->sym = s;
    n->type = s->type;
    return n;
}

static cc_node *deref(cc_ctx *c, cc_node *p, cc_pos pos)
{
    p = rvalue(c, p);
    if (p->type->kind != TY_PTR) cc_error(c, pos, "'*' or '[]' needs a pointer or an array");
    if (p->type->base->kind == TY_VOID || !p->type->base->complete) cc_error(c, pos, "dereferencing a pointer to an incomplete type");
    cc_node *n = new_node(c, N_DEREF, pos);
    n->a = p;
    n->type = p->type->base;
    return n;
}

static cc_node *member(cc_ctx *c, cc_node *s, cc_pos pos)
{
    cc_token *t = next(c);
    if (t->kind != TK_ID) cc_error(c, t->pos, "expected a member name");
    if (s->type->kind != TY_STRUCT) cc_error(c, pos, "member access on something that is not a struct");
    for (int i = 0; i < s->type->nmembers; i++)
        if (!strcmp(s->type->members[i].name, t->text)) {
            cc_node *n = new_node(c, N_MEMBER, t->pos);
            n->a = s;
            n->val = s->type->members[i].offset;
            n->type = s->type->members[i].type;
            return n;
        }
    cc_error(c, t->pos, "struct %s has no member '%s'", s->type->tag ? s->type->tag : "", t->text);
}

static cc_node *incdec(cc_ctx *c, int op, cc_node *a, cc_pos pos)
{
    if (!is_lvalue(a) || !cc_is_scalar(a->type)) cc_error(c, pos, "'++'/'--' needs a scalar lvalue");
    cc_node *n = new_node(c, op, pos);
    n->a = a;
    n->type = a->type;
    return n;
}

static cc_node *postfix(cc_ctx *c)
{
    cc_node *n = primary(c);
    for (;;) {
        cc_pos pos = peek(c)->pos;
        if (accept(c, "[")) {
            cc_node *i = expr(c);
            expect(c, "]");
            n = deref(c, binary(c, N_ADD, n, i, pos), pos);
        } else if (accept(c, ".")) n = member(c, n, pos);
        else if (accept(c, "->")) n = member(c, deref(c, n, pos), pos);
        else if (accept(c, "++")) n = incdec(c, N_POSTINC, n, pos);
        else if (accept(c, "--")) n = incdec(c, N_POSTDEC, n, pos);
        else if (is_p(c, "(")) cc_error(c, pos, "only named functions can be called");
        else return n;
    }
}

static cc_node *unary(cc_ctx *c)
{
    cc_token *t = peek(c);
    cc_pos pos = t->pos;
    if (accept(c, "++")) return incdec(c, N_PREINC, unary(c), pos);
    if (accept(c, "--")) return incdec(c, N_PREDEC, unary(c), pos);
    if (accept(c, "&")) {
        cc_node *a = unary(c);
        if (a->op == N_VAR && a->sym->kind == SY_FUNC) cc_error(c, pos, "function pointers are outside the subset");
        if (!is_lvalue(a)) cc_error(c, pos, "'&' needs an lvalue");
        cc_node *n = new_node(c, N_ADDR, pos);
        n->a = a;
        n->type = cc_ptr_to(c, a->type);
        return n;
    }
    if (accept(c, "*")) return deref(c, cast_expr(c), pos);
    if (accept(c, "+")) { cc_node *a = integer(c, cast_expr(c), "unary '+'"); return convert(c, a, cc_promote(c, a->type)); }
    if (accept(c, "-")) return binary(c, N_SUB, num(c, 0, t_int(c), pos), integer(c, cast_expr(c), "unary '-'"), pos);
    if (accept(c, "~")) {
        cc_node *a = integer(c, cast_expr(c), "'~'");
        return binary(c, N_XOR, a, num(c, -1, t_int(c), pos), pos);
    }
    if (accept(c, "!")) {
        cc_node *a = scalar(c, cast_expr(c), "'!'");
        if (a->op == N_NUM) return num(c, a->val == 0, t_int(c), pos);
        cc_node *n = new_node(c, N_LNOT, pos);
        n->a = a;
        n->type = t_int(c);
        return n;
    }
    if (accept(c, "sizeof")) {
        cc_type *ty;
        if (is_p(c, "(") && (c->tp++, is_typename(c))) {
            declspec ds;
            cc_type *b = cc_declspec_(c, &ds);
            const char *nm;
            cc_pos p2;
            ty = declarator(c, b, &nm, &p2, true);
            expect(c, ")");
        } else {
            if (c->toks[c->tp - 1].kind == TK_PUNCT && !strcmp(c->toks[c->tp - 1].text, "(")) c->tp--;
            ty = unary(c)->type;
        }
        if (!ty->complete || ty->kind == TY_FUNC) cc_error(c, pos, "sizeof of an incomplete type");
        return num(c, ty->size, cc_int_type(c, 2, true), pos);
    }
    return postfix(c);
}

static cc_node *cast_expr(cc_ctx *c)
{
    if (is_p(c, "(")) {
        int save = c->tp;
        next(c);
        if (is_typename(c)) {
            cc_pos pos = peek(c)->pos;
            declspec ds;
            cc_type *b = cc_declspec_(c, &ds);
            const char *nm;
            cc_pos p2;
            cc_type *t = declarator(c, b, &nm, &p2, true);
            expect(c, ")");
            cc_node *a = cast_expr(c);
            if (t->kind == TY_VOID) {
                cc_node *n = new_node(c, N_CAST, pos);
                n->a = a;
                n->type = t;
                return n;
            }
            return convert(c, scalar(c, a, "a cast"), t);
        }
        c->tp = save;
    }
    return unary(c);
}

static int binop_of(cc_ctx *c, int level)
{
    static const struct { const char *p; int op, level; } ops[] = {
        { "*", N_MUL, 10 }, { "/", N_DIV, 10 }, { "%", N_MOD, 10 }, { "+", N_ADD, 9 }, { "-", N_SUB, 9 },
        { "<<", N_SHL, 8 }, { ">>", N_SHR, 8 }, { "<", N_LT, 7 }, { "<=", N_LE, 7 }, { ">", N_GT, 7 }, { ">=", N_GE, 7 },
        { "==", N_EQ, 6 }, { "!=", N_NE, 6 }, { "&", N_AND, 5 }, { "^", N_XOR, 4 }, { "|", N_OR, 3 },
        { "&&", N_LAND, 2 }, { "||", N_LOR, 1 },
    };
    cc_token *t = peek(c);
    if (t->kind != TK_PUNCT) return -1;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].level == level && !strcmp(t->text, ops[i].p)) return ops[i].op;
    return -1;
}

static cc_node *bin_level(cc_ctx *c, int level)
{
    if (level > 10) return cast_expr(c);
    cc_node *a = bin_level(c, level + 1);
    int op;
    while ((op = binop_of(c, level)) >= 0) {
        cc_pos pos = next(c)->pos;
        cc_node *b = bin_level(c, level + 1);
        if (op == N_LAND || op == N_LOR) {
            a = scalar(c, a, "'&&'/'||'");
            b = scalar(c, b, "'&&'/'||'");
            if (a->op == N_NUM && b->op == N_NUM) {
                a = num(c, op == N_LAND ? (a->val && b->val) : (a->val || b->val), t_int(c), pos);
                continue;
            }
            cc_node *n = new_node(c, op, pos);
            n->a = a;
            n->b = b;
            n->type = t_int(c);
            a = n;
        } else a = binary(c, op, a, b, pos);
    }
    return a;
}

static cc_node *cond_expr(cc_ctx *c)
{
    cc_node *a = bin_level(c, 1);
    cc_pos pos = peek(c)->pos;
    if (!accept(c, "?")) return a;
    a = scalar(c, a, "'?:'");
    cc_node *b = rvalue(c, expr(c));
    expect(c, ":");
    cc_node *d = rvalue(c, cond_expr(c));
    cc_node *n = new_node(c, N_COND, pos);
    if (cc_is_int(b->type) && cc_is_int(d->type)) {
        cc_type *t = cc_arith(c, b->type, d->type);
        b = convert(c, b, t);
        d = convert(c, d, t);
        n->type = t;
    } else if (b->type->kind == TY_PTR && d->type->kind == TY_PTR) n->type = b->type;
    else if (b->type->kind == TY_VOID && d->type->kind == TY_VOID) n->type = b->type;
    else if (b->type->kind == TY_PTR && d->op == N_NUM && d->val == 0) n->type = b->type, d = convert(c, d, b->type);
    else if (d->type->kind == TY_PTR && b->op == N_NUM && b->val == 0) n->type = d->type, b = convert(c, b, d->type);
    else cc_error(c, pos, "the two results of '?:' have different types");
    if (a->op == N_NUM) return a->val ? b : d;
    n->a = a;
    n->b = b;
    n->c = d;
    return n;
}

static cc_node *assign_expr(cc_ctx *c)
{
    cc_node *a = cond_expr(c);
    static const struct { const char *p; int op; } ops[] = {
        { "=", -1 }, { "+=", N_ADD }, { "-=", N_SUB }, { "*=", N_MUL }, { "/=", N_DIV }, { "%=", N_MOD },
        { "<<=", N_SHL }, { ">>=", N_SHR }, { "&=", N_AND }, { "|=", N_OR }, { "^=", N_XOR },
    };
    cc_token *t = peek(c);
    if (t->kind != TK_PUNCT) return a;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        if (strcmp(t->text, ops[i].p)) continue;
        next(c);
        if (!is_lvalue(a) || a->type->kind == TY_ARRAY) cc_error(c, t->pos, "the left of '%s' is not an assignable lvalue", t->text);
        cc_node *b = assign_expr(c);
        cc_node *n = new_node(c, ops[i].op < 0 ? N_ASSIGN : N_OPASSIGN, t->pos);
        n->a = a;
        n->type = a->type;
        if (ops[i].op < 0) {
            b = rvalue(c, b);
            if (a->type->kind == TY_STRUCT) {
                if (b->type != a->type) cc_error(c, t->pos, "assigning a different type to a struct");
                n->b = b;
            } else n->b = convert(c, scalar(c, b, "'='"), a->type);
            return n;
        }
        /* a op= b: typed as a op b, then converted back to a's type */
        cc_node *x = binary(c, ops[i].op, a, b, t->pos);
        if (x->op == N_NUM) cc_error(c, t->pos, "internal: folded compound assignment");
        n->subop = ops[i].op;
        n->b = x->b;
        n->optype = x->op == ops[i].op ? (x->optype ? x->optype : x->type) : x->type;
        if (x->type->kind == TY_PTR) n->optype = x->type;
        else if (x->a->type != a->type) n->optype = x->a->type;
        if (x->op != ops[i].op) cc_error(c, t->pos, "this compound assignment is outside the subset");
        return n;
    }
    return a;
}

static cc_node *expr(cc_ctx *c)
{
    cc_node *a = assign_expr(c);
    while (is_p(c, ",")) {
        cc_pos pos = next(c)->pos;
        cc_node *n = new_node(c, N_COMMA, pos);
        n->a = a;
        n->b = rvalue(c, assign_expr(c));
        n->type = n->b->type;
        a = n;
    }
    return a;
}

static int64_t const_expr(cc_ctx *c)
{
    cc_pos pos = peek(c)->pos;
    cc_node *n = cond_expr(c);
    if (n->op != N_NUM) cc_error(c, pos, "not a constant expression");
    return n->val;
}

/* ---- initializers --------------------------------------------------------------------------- */

static void global_init(cc_ctx *c, cc_type *t, int addr, cc_pos pos)
{
    if (t->kind == TY_ARRAY || t->kind == TY_STRUCT) {
        if (t->kind == TY_ARRAY && t->base->size == 1 && peek(c)->kind == TK_STR) {
            cc_token *s = next(c);
            size_t n = strlen(s->text);
            if ((int)n > t->size) cc_error(c, s->pos, "string longer than the array");
            for (size_t i = 0; i < n; i++) c->gimage[addr + (int)i] = (uint8_t)s->text[i], c->gset[addr + (int)i] = true;
            return;
        }
        expect(c, "{");
        int count = t->kind == TY_ARRAY ? t->count : t->nmembers;
        for (int i = 0; !is_p(c, "}"); i++) {
            if (i >= count) cc_error(c, peek(c)->pos, "too many initializers");
            if (t->kind == TY_ARRAY) global_init(c, t->base, addr + i * t->base->size, pos);
            else global_init(c, t->members[i].type, addr + t->members[i].offset, pos);
            if (!accept(c, ",")) break;
        }
        expect(c, "}");
        return;
    }
    cc_pos vp = peek(c)->pos;
    bool braced = accept(c, "{");
    cc_node *v = assign_expr(c);
    if (braced) { accept(c, ","); expect(c, "}"); }
    v = rvalue(c, v);
    if (v->op == N_ADDR && v->a->op == N_VAR && v->a->sym->kind == SY_GLOBAL && t->kind == TY_PTR) v = num(c, v->a->sym->addr, t, vp);
    if (v->op != N_NUM) cc_error(c, vp, "a global's initializer must be a constant");
    v = convert(c, v, t);
    for (int i = 0; i < t->size; i++) {
        c->gimage[addr + i] = (uint8_t)((uint64_t)v->val >> (8 * i));
        c->gset[addr + i] = true;
    }
}

/* C's `T a[] = init`: the array's size is the initializer's element count (a string's bytes
 * with its terminating zero, or the top-level elements of a brace list, a trailing comma
 * allowed), counted on the tokens before the initializer is read. Returns the sized type (a new
 * one: the unsized type may be a typedef's), or t as it is. */
static cc_type *size_from_initializer(cc_ctx *c, cc_type *t, const char *name, cc_pos pos)
{
    if (t->kind != TY_ARRAY || t->complete || !is_p(c, "=")) return t;
    const cc_token *k = &c->toks[c->tp + 1];
    int count = 0;
    if (k->kind == TK_STR && t->base->size == 1)
        count = (int)strlen(k->text) + 1;
    else if (k->kind == TK_PUNCT && !strcmp(k->text, "{")) {
        int depth = 0;
        bool element = false;   /* an element has begun since the last top-level comma */
        for (; k->kind != TK_EOF; k++) {
            bool punct = k->kind == TK_PUNCT;
            if (punct && (!strcmp(k->text, "{") || !strcmp(k->text, "(") || !strcmp(k->text, "["))) depth++;
            else if (punct && (!strcmp(k->text, "}") || !strcmp(k->text, ")") || !strcmp(k->text, "]"))) {
                if (--depth == 0) break;
            } else if (punct && depth == 1 && !strcmp(k->text, ",")) {
                count += element;
                element = false;
                continue;
            }
            if (depth > 1 || (depth == 1 && !(punct && !strcmp(k->text, "{")))) element = true;
        }
        count += element;
    } else
        return t;   /* the initializer's own error follows */
    if (count < 1 || count > 256) cc_error(c, pos, "array '%s' of %d elements: 1..256 are possible", name, count);
    cc_type *a = cc_new_type(c, TY_ARRAY, count * t->base->size);
    a->base = t->base;
    a->count = count;
    a->complete = true;
    return a;
}

static cc_node *stmt(cc_ctx *c);

static cc_node *var_ref(cc_ctx *c, cc_sym *s, cc_pos pos)
{
    cc_node *n = new_node(c, N_VAR, pos);
    n->sym = s;
    n->type = s->type;
    return n;
}

/* Element i of an array or member i of a struct, as an lvalue. */
static cc_node *element(cc_ctx *c, cc_node *lv, int i, cc_pos pos)
{
    cc_type *t = lv->type;
    if (t->kind == TY_ARRAY) return deref(c, binary(c, N_ADD, lv, num(c, i, t_int(c), pos), pos), pos);
    cc_node *e = new_node(c, N_MEMBER, pos);
    e->a = lv;
    e->val = t->members[i].offset;
    e->type = t->members[i].type;
    return e;
}

/* A local's initializer as assignments, appended to the block. */
static void local_init(cc_ctx *c, cc_node *lv, cc_node ***list, int *n, int *cap)
{
    cc_type *t = lv->type;
    if (t->kind == TY_ARRAY || t->kind == TY_STRUCT) {
        if (t->kind == TY_ARRAY && t->base->size == 1 && peek(c)->kind == TK_STR) {
            cc_token *s = next(c);
            size_t len = strlen(s->text);
            if ((int)len > t->size) cc_error(c, s->pos, "string longer than the array");
            for (int i = 0; i < t->count; i++) {
                cc_node *a = new_node(c, N_ASSIGN, s->pos);
                a->a = deref(c, binary(c, N_ADD, lv, num(c, i, t_int(c), s->pos), s->pos), s->pos);
                a->b = num(c, i < (int)len ? s->text[i] : 0, t->base, s->pos);
                a->type = t->base;
                cc_node *st = new_node(c, S_EXPR, s->pos);
                st->a = a;
                CC_PUSH(c, *list, *n, *cap, st);
            }
            return;
        }
        expect(c, "{");
        int count = t->kind == TY_ARRAY ? t->count : t->nmembers, i = 0;
        for (; !is_p(c, "}"); i++) {
            cc_pos pos = peek(c)->pos;
            if (i >= count) cc_error(c, pos, "too many initializers");
            cc_node *e = element(c, lv, i, pos);
            local_init(c, e, list, n, cap);
            if (!accept(c, ",")) {
                i++;
                break;
            }
        }
        expect(c, "}");
        for (; i < count; i++) {   /* the rest is zero */
            cc_pos pos = lv->pos;
            cc_node *e = element(c, lv, i, pos);
            if (!cc_is_scalar(e->type)) continue;
            cc_node *a = new_node(c, N_ASSIGN, pos);
            a->a = e;
            a->b = num(c, 0, e->type, pos);
            a->type = e->type;
            cc_node *st = new_node(c, S_EXPR, pos);
            st->a = a;
            CC_PUSH(c, *list, *n, *cap, st);
        }
        return;
    }
    cc_pos pos = peek(c)->pos;
    bool braced = accept(c, "{");
    cc_node *v = assign_expr(c);
    if (braced) { accept(c, ","); expect(c, "}"); }
    cc_node *a = new_node(c, N_ASSIGN, pos);
    a->a = lv;
    a->b = convert(c, scalar(c, v, "an initializer"), t);
    a->type = t;
    cc_node *st = new_node(c, S_EXPR, pos);
    st->a = a;
    CC_PUSH(c, *list, *n, *cap, st);
}

static int alloc_global(cc_ctx *c, int size, cc_pos pos)
{
    int a = c->gsize;
    c->gsize += size;
    if (c->gsize > (int)c->scratchpad)
        cc_error(c, pos, "the globals need %d bytes; the scratchpad has %u", c->gsize, c->scratchpad);
    return a;
}

/* A declaration inside a function: locals get frame offsets; initializers become statements. */
static cc_node *local_decl(cc_ctx *c)
{
    declspec ds;
    cc_node *blk = new_node(c, S_BLOCK, peek(c)->pos);
    int cap = 0;
    cc_type *base = cc_declspec_(c, &ds);
    if (accept(c, ";")) return blk;
    do {
        const char *name;
        cc_pos pos;
        cc_type *t = declarator(c, base, &name, &pos, false);
        if (ds.is_typedef) { add_sym(c, name, SY_TYPEDEF, t, pos); continue; }
        if (t->kind == TY_FUNC) {
            cc_sym *s = lookup(c, name);
            if (!s || s->kind != SY_FUNC) cc_error(c, pos, "declare functions at file scope");
            continue;
        }
        if (t->kind == TY_VOID) cc_error(c, pos, "variable '%s' of type void", name);
        t = size_from_initializer(c, t, name, pos);
        if (t->kind == TY_ARRAY && !t->complete) cc_error(c, pos, "give the size of array '%s'", name);
        if (!t->complete) cc_error(c, pos, "'%s' has an incomplete type", name);
        if (ds.storage == ST_EXTERN) cc_error(c, pos, "extern at block scope is outside the subset");
        if (ds.storage == ST_STATIC) {
            cc_sym *s = add_sym(c, name, SY_GLOBAL, t, pos);
            s->addr = alloc_global(c, t->size, pos);
            if (accept(c, "=")) global_init(c, t, s->addr, pos);
            continue;
        }
        cc_sym *s = add_sym(c, name, SY_LOCAL, t, pos);
        s->owner = c->cur;
        s->addr = c->cur->locals;
        c->cur->locals += t->size;
        if (c->cur->locals > (int)c->scratchpad)
            cc_error(c, pos, "'%s': the locals of '%s' need %d bytes; the scratchpad has %u", name, c->cur->sym->name,
                     c->cur->locals, c->scratchpad);
        if (accept(c, "=")) local_init(c, var_ref(c, s, pos), &blk->list, &blk->n, &cap);
    } while (accept(c, ","));
    expect(c, ";");
    return blk;
}

/* ---- statements ----------------------------------------------------------------------------- */

static cc_node *cond_of(cc_ctx *c)
{
    expect(c, "(");
    cc_node *e = scalar(c, expr(c), "a condition");
    expect(c, ")");
    return e;
}

static cc_node *block(cc_ctx *c)
{
    cc_node *n = new_node(c, S_BLOCK, peek(c)->pos);
    int cap = 0, mark = c->nsyms, tmark = c->ntags;
    while (!accept(c, "}")) {
        if (peek(c)->kind == TK_EOF) cc_error(c, peek(c)->pos, "expected '}' before end of file");
        cc_node *s = is_typename(c) ? local_decl(c) : stmt(c);
        CC_PUSH(c, n->list, n->n, cap, s);
    }
    c->nsyms = mark;
    c->ntags = tmark;
    return n;
}

static cc_node *stmt(cc_ctx *c)
{
    cc_token *t = peek(c);
    cc_pos pos = t->pos;
    if (accept(c, "{")) return block(c);
    if (accept(c, ";")) return new_node(c, S_EMPTY, pos);
    if (t->kind == TK_ID && c->toks[c->tp + 1].kind == TK_PUNCT && !strcmp(c->toks[c->tp + 1].text, ":") &&
        strcmp(t->text, "default") != 0) {
        next(c);
        next(c);
        for (int i = 0; i < c->nlabels; i++)
            if (!strcmp(c->labels[i], t->text)) cc_error(c, pos, "label '%s' defined twice", t->text);
        CC_PUSH(c, c->labels, c->nlabels, c->caplabels, t->text);
        cc_node *n = new_node(c, S_LABEL, pos);
        n->text = t->text;
        n->a = stmt(c);
        return n;
    }
    if (accept(c, "if")) {
        cc_node *n = new_node(c, S_IF, pos);
        n->a = cond_of(c);
        n->b = stmt(c);
        if (accept(c, "else")) n->c = stmt(c);
        return n;
    }
    if (accept(c, "while")) {
        cc_node *n = new_node(c, S_WHILE, pos);
        n->a = cond_of(c);
        c->loops++;
        n->b = stmt(c);
        c->loops--;
        return n;
    }
    if (accept(c, "do")) {
        cc_node *n = new_node(c, S_DO, pos);
        c->loops++;
        n->b = stmt(c);
        c->loops--;
        expect(c, "while");
        n->a = cond_of(c);
        expect(c, ";");
        return n;
    }
    if (accept(c, "for")) {
        cc_node *n = new_node(c, S_FOR, pos);
        int mark = c->nsyms;
        expect(c, "(");
        if (is_typename(c)) n->d = local_decl(c);
        else if (!accept(c, ";")) {
            n->d = new_node(c, S_EXPR, pos);
            n->d->a = expr(c);
            expect(c, ";");
        }
        if (!is_p(c, ";")) n->a = scalar(c, expr(c), "a condition");
        expect(c, ";");
        if (!is_p(c, ")")) n->c = expr(c);
        expect(c, ")");
        c->loops++;
        n->b = stmt(c);
        c->loops--;
        c->nsyms = mark;
        return n;
    }
    if (accept(c, "switch")) {
        cc_node *n = new_node(c, S_SWITCH, pos);
        expect(c, "(");
        cc_node *e = integer(c, expr(c), "switch");
        expect(c, ")");
        n->a = convert(c, e, cc_promote(c, e->type));
        CC_PUSH(c, c->switches, c->nswitches, c->capswitches, n);
        int l = c->loops;
        c->loops = 0;
        n->b = stmt(c);
        c->loops = l;
        c->nswitches--;
        return n;
    }
    if (accept(c, "case") || accept(c, "default")) {
        bool dflt = !strcmp(t->text, "default");
        if (!c->nswitches) cc_error(c, pos, "'%s' outside a switch", t->text);
        cc_node *sw = c->switches[c->nswitches - 1];
        cc_node *n = new_node(c, dflt ? S_DEFAULT : S_CASE, pos);
        if (!dflt) {
            cc_pos vp = peek(c)->pos;
            int64_t v = const_expr(c);
            if (is_p(c, "...")) cc_error(c, peek(c)->pos, "case ranges are outside the subset");
            n->val = wrap(sw->a->type, v);
            for (int i = 0; i < sw->n; i++)
                if (sw->list[i]->op == S_CASE && sw->list[i]->val == n->val) cc_error(c, vp, "duplicate case value %lld", (long long)v);
        } else
            for (int i = 0; i < sw->n; i++)
                if (sw->list[i]->op == S_DEFAULT) cc_error(c, pos, "a second 'default' in one switch");
        expect(c, ":");
        int cap = sw->n;   /* CC_PUSH grows by doubling from the count */
        CC_PUSH(c, sw->list, sw->n, cap, n);
        n->a = stmt(c);
        return n;
    }
    if (accept(c, "break")) {
        if (!c->loops && !c->nswitches) cc_error(c, pos, "'break' outside a loop or switch");
        expect(c, ";");
        return new_node(c, S_BREAK, pos);
    }
    if (accept(c, "continue")) {
        if (!c->loops) cc_error(c, pos, "'continue' outside a loop");
        expect(c, ";");
        return new_node(c, S_CONTINUE, pos);
    }
    if (accept(c, "return")) {
        cc_node *n = new_node(c, S_RETURN, pos);
        cc_type *rt = c->cur->sym->type->base;
        if (!is_p(c, ";")) {
            cc_node *e = expr(c);
            if (rt->kind == TY_VOID) cc_error(c, pos, "'%s' returns void but the return has a value", c->cur->sym->name);
            n->a = convert(c, scalar(c, e, "return"), rt);
        } else if (rt->kind != TY_VOID)
            cc_error(c, pos, "'%s' must return a value", c->cur->sym->name);
        expect(c, ";");
        return n;
    }
    if (accept(c, "goto")) {
        cc_token *l = next(c);
        if (l->kind != TK_ID) cc_error(c, l->pos, "expected a label after goto");
        CC_PUSH(c, c->gotos, c->ngotos, c->capgotos, l->text);
        CC_PUSH(c, c->gotopos, c->ngotopos, c->capgotopos, l->pos);
        expect(c, ";");
        cc_node *n = new_node(c, S_GOTO, pos);
        n->text = l->text;
        return n;
    }
    cc_node *n = new_node(c, S_EXPR, pos);
    n->a = expr(c);
    expect(c, ";");
    return n;
}

/* ---- file scope ----------------------------------------------------------------------------- */

static void function_def(cc_ctx *c, cc_sym *s, bool interrupt)
{
    cc_func *f = s->func;
    if (f->body) cc_error(c, s->pos, "function '%s' defined twice", s->name);
    f->interrupt = interrupt;
    f->pos = s->pos;
    if (interrupt && (s->type->nmembers || s->type->base->kind != TY_VOID))
        cc_error(c, s->pos, "an __interrupt handler takes no parameters and returns void");
    c->cur = f;
    c->nlabels = c->ngotos = c->ngotopos = 0;
    int mark = c->nsyms;
    cc_type *ft = s->type;
    f->locals = 0;
    cc_sym **ps = cc_alloc(c, sizeof *ps * (size_t)(ft->nmembers + 1));
    for (int i = 0; i < ft->nmembers; i++) {
        if (!ft->members[i].name) cc_error(c, s->pos, "parameter %d of '%s' has no name", i + 1, s->name);
        cc_sym *p = add_sym(c, ft->members[i].name, SY_LOCAL, ft->members[i].type, s->pos);
        p->owner = f;
        p->addr = f->locals;
        f->locals += p->type->size;
        ps[i] = p;
    }
    expect(c, "{");
    f->body = block(c);
    f->body->list = f->body->list;
    c->nsyms = mark;
    for (int i = 0; i < c->ngotos; i++) {
        bool ok = false;
        for (int j = 0; j < c->nlabels; j++) ok |= !strcmp(c->gotos[i], c->labels[j]);
        if (!ok) cc_error(c, c->gotopos[i], "label '%s' is not defined in '%s'", c->gotos[i], s->name);
    }
    c->cur = NULL;
}

void cc_parse(cc_ctx *c)
{
    while (peek(c)->kind != TK_EOF) {
        if (accept(c, ";")) continue;
        declspec ds;
        if (!is_typename(c)) cc_error(c, peek(c)->pos, "expected a declaration before '%s'", peek(c)->text ? peek(c)->text : "constant");
        cc_type *base = cc_declspec_(c, &ds);
        if (accept(c, ";")) continue;
        do {
            const char *name;
            cc_pos pos;
            cc_type *t = declarator(c, base, &name, &pos, false);
            if (ds.is_typedef) { add_sym(c, name, SY_TYPEDEF, t, pos); continue; }
            cc_sym *s = lookup(c, name);
            if (t->kind == TY_FUNC) {
                if (!strcmp(name, "main")) t->count = t->count < 0 ? 0 : t->count;
                if (s && s->kind != SY_FUNC) cc_error(c, pos, "'%s' redeclared as a function", name);
                if (!s) {
                    s = add_sym(c, name, SY_FUNC, t, pos);
                    s->func = cc_alloc(c, sizeof *s->func);
                    s->func->sym = s;
                    s->func->pos = pos;
                    CC_PUSH(c, c->funcs, c->nfuncs, c->capfuncs, s->func);
                } else if (s->type->nmembers != t->nmembers)
                    cc_error(c, pos, "'%s' declared with %d parameters here, %d before", name, t->nmembers, s->type->nmembers);
                if (is_p(c, "{")) {
                    s->type = t;
                    s->pos = pos;
                    function_def(c, s, ds.interrupt);
                    goto next_decl;
                }
                if (ds.interrupt) s->func->interrupt = true;
                continue;
            }
            if (t->kind == TY_VOID) cc_error(c, pos, "variable '%s' of type void", name);
            if (s) {
                if (s->kind == SY_GLOBAL && ds.storage == ST_EXTERN) continue;
                cc_error(c, pos, "'%s' defined twice", name);
            }
            t = size_from_initializer(c, t, name, pos);
            if (t->kind == TY_ARRAY && !t->complete) cc_error(c, pos, "give the size of array '%s'", name);
            if (!t->complete) cc_error(c, pos, "'%s' has an incomplete type", name);
            s = add_sym(c, name, SY_GLOBAL, t, pos);
            s->addr = alloc_global(c, t->size, pos);
            CC_PUSH(c, c->globals, c->nglobals, c->capglobals, s);
            if (accept(c, "=")) global_init(c, t, s->addr, pos);
        } while (accept(c, ","));
        expect(c, ";");
    next_decl:;
    }
    bool main_found = false;
    for (int i = 0; i < c->nfuncs; i++) main_found |= !strcmp(c->funcs[i]->sym->name, "main") && c->funcs[i]->body;
    if (!main_found) cc_error(c, peek(c)->pos, "no function 'main' is defined");
}
