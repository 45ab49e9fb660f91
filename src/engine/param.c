/* Model parameters: the declarations a description makes (PARAM_INT, PARAM_ENUM, PARAM_BOOL,
 * PARAM_TEXT), the one parser and check of their values, and their listing. A model reads
 * values the engine has already checked (GET_PARAM, PARAM_VALUE), so no model parses text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/num.h"
#include "engine/model_desc.h"

static const char *const type_names[] = { "text", "integer", "enumeration", "boolean" };

/* The spellings a boolean accepts, true ones at even indexes. */
static const char *const bool_words[] = { "yes", "no", "true", "false", "on", "off", "1", "0" };

static char *format_int(const isk_param_decl *d, int64_t v)
{
    if (d->hex && v >= 0) return isk_xasprintf("0x%" PRIX64, (uint64_t)v);
    return isk_xasprintf("%" PRId64, v);
}

/* "an integer from 1 to 1000", "one of: fp32, int32", ... (what the error messages say). */
static char *describe_accepts(const isk_param *p)
{
    const isk_param_decl *d = &p->d;
    switch (d->type) {
    case ISK_PARAM_INT: {
        char *lo = format_int(d, d->min), *hi = format_int(d, d->max);
        char *s = d->min == d->max ? isk_xasprintf("the integer %s", lo)
                                   : isk_xasprintf("%s from %s to %s", d->pow2 ? "a power of two" : "an integer", lo, hi);
        free(lo);
        free(hi);
        return s;
    }
    case ISK_PARAM_ENUM: {
        size_t len = 0;
        for (int i = 0; i < p->nwords; i++) len += strlen(p->words[i]) + 2;
        char *s = isk_xcalloc(len + 16, 1);
        strcpy(s, p->nwords == 1 ? "the word " : "one of: ");
        for (int i = 0; i < p->nwords; i++) {
            if (i) strcat(s, ", ");
            strcat(s, p->words[i]);
        }
        return s;
    }
    case ISK_PARAM_BOOL: return isk_xstrdup("yes or no (or true/false, on/off, 1/0)");
    default: return isk_xstrdup("any text");
    }
}

static void split_words(isk_param *p)
{
    const char *s = p->d.words ? p->d.words : "";
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        size_t n = strcspn(s, " \t");
        p->words = realloc(p->words, sizeof *p->words * (size_t)(p->nwords + 1));
        if (!p->words) abort();
        p->words[p->nwords++] = isk_xstrndup(s, n);
        s += n;
    }
}

int isk_model_find_param(const isk_model *m, const char *key)
{
    for (size_t i = 0; i < m->params.len; i++)
        if (strcmp(m->params.data[i].d.name, key) == 0) return (int)i;
    return -1;
}

bool isk_param_parse(const isk_param *p, const char *value, int64_t *number, const char **text, char *why,
                     size_t cap)
{
    const isk_param_decl *d = &p->d;
    *text = value;
    *number = 0;
    switch (d->type) {
    case ISK_PARAM_INT: {
        char detail[160];
        int64_t v;
        if (isk_parse_i64(value, d->min, d->max, ISK_UNIT_NONE, &v, detail, sizeof detail) &&
            (!d->pow2 || (v > 0 && !(v & (v - 1))))) {
            *number = v;
            return true;
        }
        break;
    }
    case ISK_PARAM_ENUM:
        for (int i = 0; i < p->nwords; i++)
            if (strcasecmp(value, p->words[i]) == 0) {
                *number = i;
                *text = p->words[i];
                return true;
            }
        break;
    case ISK_PARAM_BOOL:
        for (size_t i = 0; i < sizeof bool_words / sizeof *bool_words; i++)
            if (strcasecmp(value, bool_words[i]) == 0) {
                *number = i % 2 == 0;
                *text = *number ? "yes" : "no";
                return true;
            }
        break;
    default: return true;
    }
    snprintf(why, cap, "'%s' is %s", d->name, p->info.accepts);
    return false;
}

bool isk_param_add(isk_model *m, const isk_param_decl *d, char *why, size_t cap)
{
    if (!d->name || !*d->name || strpbrk(d->name, "= \t")) {
        snprintf(why, cap, "a parameter needs a name without spaces or '='");
        return false;
    }
    if (isk_model_find_param(m, d->name) >= 0) {
        snprintf(why, cap, "parameter '%s' is declared twice", d->name);
        return false;
    }
    if (d->type < ISK_PARAM_TEXT || d->type > ISK_PARAM_BOOL) {
        snprintf(why, cap, "parameter '%s' has an unknown type %d", d->name, d->type);
        return false;
    }
    isk_param p = { .d = *d };
    if (d->type == ISK_PARAM_INT && (d->min > d->max || (d->pow2 && d->max < 1))) {
        snprintf(why, cap, "parameter '%s': its range %" PRId64 " to %" PRId64 " holds no value", d->name, d->min,
                 d->max);
        return false;
    }
    split_words(&p);
    if (d->type == ISK_PARAM_ENUM && !p.nwords) {
        snprintf(why, cap, "parameter '%s' is an enumeration without words", d->name);
        free(p.words);
        return false;
    }
    p.info.accepts = describe_accepts(&p);
    /* the default, written as a user would, goes through the same check as any value */
    bool is_bool = d->type == ISK_PARAM_BOOL && (d->value == 0 || d->value == 1);
    char *def = is_bool ? isk_xstrdup(d->value ? "yes" : "no")
              : d->type == ISK_PARAM_INT || d->type == ISK_PARAM_BOOL ? format_int(d, d->value)
                                                                      : isk_xstrdup(d->text ? d->text : "");
    const char *text;
    char detail[256];
    if (isk_param_parse(&p, def, &p.number, &text, detail, sizeof detail)) {
        p.d.name = isk_xstrdup(d->name);
        p.d.text = NULL;
        p.d.words = NULL;
        p.d.help = NULL;
        p.info.name = p.d.name;
        p.info.type = type_names[d->type];
        p.info.def = isk_xstrdup(text);
        p.info.help = isk_xstrdup(d->help ? d->help : "");
        free(def);
        VEC_PUSH(&m->params, p);
        return true;
    }
    snprintf(why, cap, "parameter '%s': its default %s is refused: %s", d->name, def, detail);
    free(def);
    for (int i = 0; i < p.nwords; i++) free(p.words[i]);
    free(p.words);
    free((char *)p.info.accepts);
    return false;
}

void isk_params_free(isk_model *m)
{
    for (size_t i = 0; i < m->params.len; i++) {
        isk_param *p = &m->params.data[i];
        for (int w = 0; w < p->nwords; w++) free(p->words[w]);
        free(p->words);
        free((char *)p->d.name);
        free((char *)p->info.def);
        free((char *)p->info.accepts);
        free((char *)p->info.help);
    }
    VEC_FREE(&m->params);
}

bool isk_model_check_param(const isk_model *m, const char *key, const char *value, char *why, size_t cap)
{
    int i = isk_model_find_param(m, key);
    if (i < 0) {
        size_t n = (size_t)snprintf(why, cap, "model '%s' has no parameter '%s'", m->name, key);
        for (size_t k = 0; k < m->params.len && n < cap; k++)
            n += (size_t)snprintf(why + n, cap - n, "%s%s", k ? ", " : " (its parameters: ", m->params.data[k].d.name);
        if (n < cap) snprintf(why + n, cap - n, "%s", m->params.len ? ")" : "; it has none");
        return false;
    }
    int64_t number;
    const char *text;
    return isk_param_parse(&m->params.data[i], value, &number, &text, why, cap);
}

int isk_model_parameter_count(const isk_model *m) { return (int)m->params.len; }
const isk_param_info *isk_model_parameter(const isk_model *m, int i) { return &m->params.data[i].info; }
