/* The symbol table: labels, .set symbols, numeric local labels.
 *
 * Numeric local labels ("1:") may be defined any number of times; each definition is a new
 * hidden symbol named "<digits>\002<n>" (n counts the definitions), "1b" refers to the latest
 * and "1f" to the next one. Such symbols and those whose names start with ".L" never reach the
 * object's symbol table (relocations use the section symbol instead). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "asm/asm_int.h"

size_t asm_parse_name(const char **p, const char **start)
{
    const char *s = *p;
    *start = s;
    if (!(isalpha((unsigned char)*s) || *s == '_' || *s == '.' || *s == '$')) return 0;
    while (isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '$') s++;
    *p = s;
    return (size_t)(s - *start);
}

static bool is_temp_name(const char *name, size_t len)
{
    return (len >= 2 && name[0] == '.' && name[1] == 'L') || memchr(name, '\002', len) != NULL;
}

uint32_t asm_sym_find(const isk_asm *a, const char *name, size_t len)
{
    int i;
    return asm_map_get(&a->sym_map, name, len, &i) ? (uint32_t)i : 0;
}

uint32_t asm_sym_ref(isk_asm *a, const char *name, size_t len)
{
    uint32_t i = asm_sym_find(a, name, len);
    if (i) return i;
    asm_sym s = { .name = isk_xstrndup(name, len), .expr = -1, .bind = STB_LOCAL, .temp = is_temp_name(name, len),
                  .pos = { a->pos.file, a->pos.line, NULL, 0, -1 } };
    VEC_PUSH(&a->syms, s);
    i = (uint32_t)(a->syms.len - 1);
    asm_map_put(&a->sym_map, name, len, (int)i);
    return i;
}

const char *asm_sym_display(const asm_sym *s, char *buf, size_t cap)
{
    const char *mark = strchr(s->name, '\002');
    if (!mark) return s->name;
    snprintf(buf, cap, "%.*s (a numeric local label)", (int)(mark - s->name), s->name);
    return buf;
}

static void already_defined(isk_asm *a, const asm_sym *s, const char *at)
{
    char buf[128];
    if (s->pos.file)
        asm_error(a, at, "symbol '%s' is already defined (at %s:%d)", asm_sym_display(s, buf, sizeof buf),
                  s->pos.file, s->pos.line);
    else
        asm_error(a, at, "symbol '%s' is already defined", asm_sym_display(s, buf, sizeof buf));
}

static uint32_t numeric_label(isk_asm *a, const char *digits, size_t len, int instance)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s\002%d", (int)(len < 32 ? len : 32), digits, instance);
    return asm_sym_ref(a, name, strlen(name));
}

uint32_t asm_local_ref(isk_asm *a, const char *digits, size_t len, bool forward, bool quiet)
{
    int count = 0;
    asm_map_get(&a->local_counts, digits, len, &count);
    if (!forward && count == 0) {
        if (!quiet) {
            asm_error(a, digits, "'%.*sb' refers back to local label %.*s, which is not defined before", (int)len,
                      digits, (int)len, digits);
            return 0;
        }
        /* In an operand, let the template match: the never-defined instance 0 is reported
         * when the operand is resolved. */
        return numeric_label(a, digits, len, 0);
    }
    return numeric_label(a, digits, len, forward ? count + 1 : count);
}

bool asm_define_label(isk_asm *a, const char *name, size_t len, const char *at)
{
    uint32_t i;
    bool numeric = true;
    for (size_t k = 0; k < len; k++) numeric &= isdigit((unsigned char)name[k]) != 0;
    if (numeric && len > 18) {
        asm_error(a, at, "numeric local label too long");
        return false;
    }
    if (numeric) {
        int count = 0;
        asm_map_get(&a->local_counts, name, len, &count);
        asm_map_put(&a->local_counts, name, len, count + 1);
        i = numeric_label(a, name, len, count + 1);
    } else {
        i = asm_sym_ref(a, name, len);
    }
    asm_sym *s = &a->syms.data[i];
    if (s->defined || s->common) {
        already_defined(a, s, at);
        return false;
    }
    s->defined = true;
    s->sec = a->sec;
    s->value = (int64_t)asm_offset(a);
    s->expr = -1;
    s->pos = (asm_pos){ a->pos.file, a->pos.line, NULL, 0, -1 };
    return true;
}

void asm_define_set(isk_asm *a, const char *name, size_t len, const char *expr_at, bool equiv)
{
    const char *p = asm_skip(expr_at);
    int32_t e = asm_expr_parse(a, &p, false);
    if (e < 0) return;
    if (!asm_at_end(p)) {
        asm_error(a, p, "unexpected text after the expression");
        return;
    }
    uint32_t i = asm_sym_ref(a, name, len);
    asm_sym *s = &a->syms.data[i];
    if ((s->defined && (!s->is_set || equiv)) || s->common) {
        already_defined(a, s, name);
        return;
    }
    asm_value v;
    char err[200];
    int st = asm_expr_eval(a, e, false, &v, err, sizeof err);
    s = &a->syms.data[i];
    if (st == EV_ERROR) {
        asm_error(a, expr_at, "%s", err);
        return;
    }
    s->defined = true;
    s->is_set = true;
    s->pos = (asm_pos){ a->pos.file, a->pos.line, NULL, 0, -1 };
    if (st == EV_PENDING) {
        s->expr = e;         /* a forward reference: evaluated when used, or at the end */
        return;
    }
    s->expr = -1;
    if (v.kind == VAL_ABS) {
        s->sec = ISK_SHN_ABS;
        s->value = v.k;
    } else if (v.kind == VAL_SEC) {
        s->sec = v.sec;
        s->value = v.k;
    } else {
        s->expr = e;
    }
}
