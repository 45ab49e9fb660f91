/* isekit cc: the types of the subset and C's integer conversions at PicoBlaze sizes
 * (char 8, short/int 16, long 32 bits; pointers are 8-bit scratchpad addresses). */
#include <stdio.h>
#include <string.h>

#include "cc.h"

cc_type *cc_new_type(cc_ctx *c, int kind, int size)
{
    cc_type *t = cc_alloc(c, sizeof *t);
    t->kind = kind;
    t->size = size;
    t->complete = true;
    return t;
}

cc_type *cc_int_type(cc_ctx *c, int size, bool is_unsigned)
{
    cc_type *t = cc_new_type(c, TY_INT, size);
    t->is_unsigned = is_unsigned;
    return t;
}

cc_type *cc_ptr_to(cc_ctx *c, cc_type *base)
{
    cc_type *t = cc_new_type(c, TY_PTR, 1);
    t->is_unsigned = true;
    t->base = base;
    return t;
}

bool cc_is_int(const cc_type *t) { return t->kind == TY_INT || t->kind == TY_BOOL; }
bool cc_is_scalar(const cc_type *t) { return cc_is_int(t) || t->kind == TY_PTR; }

/* Integer promotion: anything narrower than int becomes int (all of char's values fit). */
cc_type *cc_promote(cc_ctx *c, cc_type *t)
{
    if (cc_is_int(t) && t->size < 2) return cc_int_type(c, 2, false);
    return t;
}

/* The usual arithmetic conversions. */
cc_type *cc_arith(cc_ctx *c, cc_type *a, cc_type *b)
{
    a = cc_promote(c, a);
    b = cc_promote(c, b);
    int size = a->size > b->size ? a->size : b->size;
    bool u = (a->size == size && a->is_unsigned) || (b->size == size && b->is_unsigned);
    return cc_int_type(c, size, u);
}

const char *cc_type_name(const cc_type *t, char *buf, size_t cap)
{
    char inner[96];
    switch (t->kind) {
    case TY_VOID: snprintf(buf, cap, "void"); break;
    case TY_BOOL: snprintf(buf, cap, "_Bool"); break;
    case TY_INT:
        snprintf(buf, cap, "%s%s", t->is_unsigned ? "unsigned " : "",
                 t->size == 1 ? "char" : t->size == 2 ? "int" : "long");
        break;
    case TY_PTR: snprintf(buf, cap, "%s *", cc_type_name(t->base, inner, sizeof inner)); break;
    case TY_ARRAY: snprintf(buf, cap, "%s[%d]", cc_type_name(t->base, inner, sizeof inner), t->count); break;
    case TY_STRUCT: snprintf(buf, cap, "struct %s", t->tag ? t->tag : "(anonymous)"); break;
    default: snprintf(buf, cap, "%s()", cc_type_name(t->base, inner, sizeof inner)); break;
    }
    return buf;
}
