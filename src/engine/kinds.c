/* Operand kinds: how an operand is written in assembly. The engine keeps the tables because
 * the decoder needs them too: a register field whose value has no register name (e.g. 24..31
 * in a slot that only admits r0..r23) means the word is some other instruction. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/model_desc.h"

static bool parse_int(const char *s, const char **end, int64_t *v)
{
    char *e;
    long long x = strtoll(s, &e, 0);
    if (e == s) return false;
    *end = e;
    *v = x;
    return true;
}

/* Split "r0" into prefix "r" and number 0. */
static bool split_numbered(const char *s, size_t len, size_t *prefix_len, long *num)
{
    size_t i = len;
    while (i > 0 && isdigit((unsigned char)s[i - 1])) i--;
    if (i == len) return false;
    *prefix_len = i;
    *num = strtol(s + i, NULL, 10);
    return true;
}

static void add_name(isk_kind *k, const char *name, size_t len, int64_t value)
{
    VEC_PUSH(&k->names, ((isk_name){ isk_xstrndup(name, len), value }));
}

/* One item of a NAMES table: "zero=24", "r0..r23=0" or "d0..d22/2=0". */
static bool parse_item(isk_kind *k, const char *item, size_t len, isk_diag *diag)
{
    const char *eq = memchr(item, '=', len);
    if (!eq) {
        isk_error(diag, NULL, "operand kind '%s': item '%.*s' needs '=value'", k->d.name, (int)len, item);
        return false;
    }
    const char *end;
    int64_t value;
    if (!parse_int(eq + 1, &end, &value) || end != item + len) {
        isk_error(diag, NULL, "operand kind '%s': bad value in '%.*s'", k->d.name, (int)len, item);
        return false;
    }
    size_t lhs_len = (size_t)(eq - item);
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < lhs_len; i++)
        if (item[i] == '.' && item[i + 1] == '.') { dots = item + i; break; }
    if (!dots) {
        add_name(k, item, lhs_len, value);
        return true;
    }
    const char *hi = dots + 2;
    size_t lo_len = (size_t)(dots - item), hi_len = lhs_len - lo_len - 2;
    long step = 1;
    const char *slash = memchr(hi, '/', hi_len);
    if (slash) {
        step = strtol(slash + 1, NULL, 10);
        hi_len = (size_t)(slash - hi);
    }
    size_t p1, p2;
    long n1, n2;
    if (!split_numbered(item, lo_len, &p1, &n1) || !split_numbered(hi, hi_len, &p2, &n2) || p1 != p2 ||
        strncmp(item, hi, p1) != 0 || n2 < n1 || step < 1 || (n2 - n1) / step > 4096) {
        isk_error(diag, NULL, "operand kind '%s': bad range '%.*s' (write e.g. r0..r23=0 or d0..d22/2=0)",
                  k->d.name, (int)lhs_len, item);
        return false;
    }
    for (long n = n1; n <= n2; n += step) {
        char name[64];
        int l = snprintf(name, sizeof name, "%.*s%ld", (int)p1, item, n);
        add_name(k, name, (size_t)l, value + (n - n1));
    }
    return true;
}

bool isk_kind_add(isk_model *m, const isk_kind_decl *d, isk_diag *diag)
{
    if (!d->name || !*d->name) {
        isk_error(diag, NULL, "model '%s': an operand kind without a name", m->name);
        return false;
    }
    if (isk_kind_find(m, d->name) >= 0) {
        isk_error(diag, NULL, "model '%s': operand kind '%s' declared twice", m->name, d->name);
        return false;
    }
    isk_kind k = { .d = *d };
    k.d.name = isk_xstrdup(d->name);
    k.d.names = d->names ? isk_xstrdup(d->names) : NULL;
    k.d.reloc = d->reloc ? isk_xstrdup(d->reloc) : NULL;
    bool ok = true;
    if (d->type == ISK_KIND_NAMES) {
        const char *s = d->names ? d->names : "";
        while (*s) {
            while (isspace((unsigned char)*s)) s++;
            const char *start = s;
            while (*s && !isspace((unsigned char)*s)) s++;
            if (s > start) ok &= parse_item(&k, start, (size_t)(s - start), diag);
        }
        if (ok && !k.names.len) {
            isk_error(diag, NULL, "operand kind '%s' has no names", d->name);
            ok = false;
        }
        k.has_domain = true;
        for (size_t i = 0; i < k.names.len; i++) {
            int64_t v = k.names.data[i].value;
            if (v < 0 || v >= 256) { k.has_domain = false; break; }
            k.domain[v >> 6] |= UINT64_C(1) << (v & 63);
        }
    }
    VEC_PUSH(&m->kinds, k);
    return ok;
}

int isk_kind_find(const isk_model *m, const char *name)
{
    /* the first characters compared inline: loading a model looks up every syntax operand's
       kind, and most kinds differ there */
    for (size_t i = 0; i < m->kinds.len; i++)
        if (m->kinds.data[i].d.name[0] == name[0] && strcmp(m->kinds.data[i].d.name, name) == 0) return (int)i;
    return -1;
}

const char *isk_kind_name_of(const isk_kind *k, int64_t v)
{
    for (size_t i = 0; i < k->names.len; i++)
        if (k->names.data[i].value == v) return k->names.data[i].name;
    return NULL;
}

bool isk_kind_lookup(const isk_kind *k, const char *name, size_t len, int64_t *v)
{
    for (size_t i = 0; i < k->names.len; i++) {
        const char *n = k->names.data[i].name;
        if (strlen(n) != len) continue;
        if (k->d.exact_case ? strncmp(n, name, len) == 0 : strncasecmp(n, name, len) == 0) {
            *v = k->names.data[i].value;
            return true;
        }
    }
    return false;
}
