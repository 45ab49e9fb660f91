#include "cli/launchlist.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/syntax.h"
#include "base/str.h"
#include "base/vec.h"

enum step_kind { LAUNCH, WAIT_IRQ, WAIT_FLAG, WAIT_IDLE, WAIT_CLOCKS, WRITE, EXPECT, EXPECT_CLOCK };
enum compare { EQ, NE, LT, LE, GT, GE };

typedef struct step {
    int kind;
    int line;
    int64_t at;              /* LAUNCH: the clock it must start in, or -1 */
    uint64_t word;           /* LAUNCH */
    isk_ref ref;             /* WAIT_FLAG, WRITE, EXPECT */
    int cmp;
    int64_t value;           /* compared with, written, or clocks to wait */
    char *text;              /* for messages */
} step;

typedef struct init_values { isk_ref ref; VEC(int64_t) values; } init_values;

struct launch_list {
    char *path;
    isk_system *sys;
    isk_inst *acc;
    isk_diag *diag;
    VEC(step) steps;
    VEC(init_values) inits;
    const char *base;        /* the line being parsed (comment cut off) */
    size_t next;
    uint64_t wait_until;     /* WAIT_CLOCKS in progress: the clock it ends, or 0 */
    bool waiting;
    int failures;
};

/* Report at `at`, a pointer into the parsed copy of the line (l->base), shown with `text`. */
static void error_at(launch_list *l, int line, const char *text, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void error_at(launch_list *l, int line, const char *text, const char *at, const char *fmt, ...)
{
    isk_loc loc = { l->path, line, at ? (int)(at - l->base) + 1 : 0, text, -1 };
    va_list ap;
    va_start(ap, fmt);
    isk_diag_vreport(l->diag, ISK_ERROR, &loc, fmt, ap);
    va_end(ap);
}

static bool parse_number(const char **p, int64_t *v)
{
    const char *s = isk_skip_blanks(*p);
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (end == s || errno) return false;
    *v = x;
    *p = end;
    return true;
}

/* "NAME[idx] op value" or "NAME = value": the name runs up to the operator. */
static bool parse_ref(launch_list *l, int line, const char *text, const char *s, const char *end, isk_ref *ref)
{
    while (end > s && isspace((unsigned char)end[-1])) end--;
    char name[128], msg[200];
    snprintf(name, sizeof name, "%.*s", (int)(end - s), s);
    if (isk_resolve(l->acc, name, ref, msg, sizeof msg) != ISK_OK) {
        error_at(l, line, text, s, "%s", msg);
        return false;
    }
    return true;
}

static const char *find_operator(const char *s, int *cmp, int *len)
{
    static const struct { const char *op; int cmp; } ops[] = {
        { "==", EQ }, { "!=", NE }, { "<=", LE }, { ">=", GE }, { "<", LT }, { ">", GT },
    };
    for (const char *p = s; *p; p++)
        for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
            if (strncmp(p, ops[i].op, strlen(ops[i].op)) == 0) {
                *cmp = ops[i].cmp;
                *len = (int)strlen(ops[i].op);
                return p;
            }
    return NULL;
}

static bool compare(int cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case EQ: return a == b;
    case NE: return a != b;
    case LT: return a < b;
    case LE: return a <= b;
    case GT: return a > b;
    default: return a >= b;
    }
}

static bool parse_condition(launch_list *l, int line, const char *text, const char *s, step *st)
{
    int len;
    const char *op = find_operator(s, &st->cmp, &len);
    if (!op) {
        error_at(l, line, text, s, "expected a comparison: NAME == value (or !=, <, <=, >, >=)");
        return false;
    }
    const char *v = op + len;
    if (!parse_number(&v, &st->value) || *isk_skip_blanks(v)) {
        error_at(l, line, text, op + len, "expected a number after the comparison");
        return false;
    }
    const char *name = isk_skip_blanks(s);
    const char *name_end = op;
    while (name_end > name && isspace((unsigned char)name_end[-1])) name_end--;
    if (st->kind == EXPECT && name_end - name == 5 && strncmp(name, "clock", 5) == 0) {
        st->kind = EXPECT_CLOCK;
        return true;
    }
    return parse_ref(l, line, text, name, op, &st->ref);
}

static bool starts_word(const char *s, const char *word, const char **rest)
{
    size_t n = strlen(word);
    if (strncmp(s, word, n) != 0 || (s[n] && !isspace((unsigned char)s[n]))) return false;
    *rest = isk_skip_blanks(s + n);
    return true;
}

static bool parse_init(launch_list *l, int line, const char *text, const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq) {
        error_at(l, line, text, s, "expected NAME[index] = value, value, ...");
        return false;
    }
    init_values iv = { 0 };
    if (!parse_ref(l, line, text, s, eq, &iv.ref)) return false;
    const char *p = eq + 1;
    for (;;) {
        int64_t v;
        if (!parse_number(&p, &v)) {
            error_at(l, line, text, p, "expected a number");
            VEC_FREE(&iv.values);
            return false;
        }
        VEC_PUSH(&iv.values, v);
        p = isk_skip_blanks(p);
        if (*p != ',') break;
        p++;
    }
    if (*p) {
        error_at(l, line, text, p, "unexpected text after the values");
        VEC_FREE(&iv.values);
        return false;
    }
    VEC_PUSH(&l->inits, iv);
    return true;
}

static bool parse_line(launch_list *l, int line, const char *text, const char *base, const char *s)
{
    step st = { .line = line, .at = -1 };
    const char *rest;
    l->base = base;
    if (starts_word(s, "init", &rest)) return parse_init(l, line, text, rest);
    if (starts_word(s, "wait", &rest)) {
        const char *cond;
        if (starts_word(rest, "irq", &cond) && !*cond) st.kind = WAIT_IRQ;
        else if (starts_word(rest, "idle", &cond) && !*cond) st.kind = WAIT_IDLE;
        else if (starts_word(rest, "flag", &cond)) {
            st.kind = WAIT_FLAG;
            if (!parse_condition(l, line, text, cond, &st)) return false;
        } else {
            const char *p = rest;
            if (!parse_number(&p, &st.value) || st.value < 0 || *isk_skip_blanks(p)) {
                error_at(l, line, text, rest, "expected 'wait irq', 'wait idle', 'wait flag NAME == value' "
                                              "or 'wait CLOCKS'");
                return false;
            }
            st.kind = WAIT_CLOCKS;
        }
    } else if (starts_word(s, "expect", &rest)) {
        st.kind = EXPECT;
        if (!parse_condition(l, line, text, rest, &st)) return false;
    } else if (starts_word(s, "write", &rest)) {
        st.kind = WRITE;
        const char *eq = strchr(rest, '=');
        const char *v = eq ? eq + 1 : NULL;
        if (!eq || !parse_number(&v, &st.value) || *isk_skip_blanks(v)) {
            error_at(l, line, text, rest, "expected NAME[index] = value");
            return false;
        }
        if (!parse_ref(l, line, text, rest, eq, &st.ref)) return false;
    } else {
        st.kind = LAUNCH;
        if (starts_word(s, "word", &rest)) {
            const char *p = rest;
            int64_t w;
            if (!parse_number(&p, &w) || *isk_skip_blanks(p)) {
                error_at(l, line, text, rest, "expected an instruction word after 'word'");
                return false;
            }
            st.word = (uint64_t)w;
            st.text = isk_xstrdup(s);
            VEC_PUSH(&l->steps, st);
            return true;
        }
        if (*s == '@') {
            const char *p = s + 1;
            if (!parse_number(&p, &st.at) || st.at < 0) {
                error_at(l, line, text, s, "expected a clock number after '@'");
                return false;
            }
            s = isk_skip_blanks(p);
        }
        isk_encoded enc;
        char err[200];
        int offset;
        if (!isk_syntax_encode(isk_inst_model(l->acc), s, NULL, &enc, err, sizeof err, &offset)) {
            error_at(l, line, text, s + offset, "%s", err);
            return false;
        }
        st.word = enc.word;
    }
    st.text = isk_xstrdup(s);
    VEC_PUSH(&l->steps, st);
    return true;
}

/* Cut a comment ('#', ';', "//") and trailing space off a line, in place. */
static void strip_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' || *p == ';' || (p[0] == '/' && p[1] == '/')) {
            *p = 0;
            break;
        }
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
}

launch_list *launch_list_load(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        isk_error(diag, NULL, "%s: %s", path, strerror(errno));
        return NULL;
    }
    launch_list *l = isk_xcalloc(1, sizeof *l);
    l->path = isk_xstrdup(path);
    l->sys = sys;
    l->acc = acc;
    l->diag = diag;
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, errors = diag->errors;
    while (getline(&buf, &cap, f) >= 0) {
        line++;
        /* Parse a copy cut at the comment; offsets into it are columns of the original. */
        char *text = isk_xstrdup(buf);
        strip_comment(buf);
        const char *s = isk_skip_blanks(buf);
        if (*s) parse_line(l, line, text, buf, s);
        free(text);
    }
    free(buf);
    fclose(f);
    if (diag->errors != errors) {
        launch_list_free(l);
        return NULL;
    }
    return l;
}

void launch_list_free(launch_list *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->steps.len; i++) free(l->steps.data[i].text);
    VEC_FREE(&l->steps);
    for (size_t i = 0; i < l->inits.len; i++) VEC_FREE(&l->inits.data[i].values);
    VEC_FREE(&l->inits);
    free(l->path);
    free(l);
}

static void fail(launch_list *l, const step *st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(launch_list *l, const step *st, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    isk_loc loc = { l->path, st->line, 0, NULL, 0 };
    isk_error(l->diag, &loc, "clock %llu: %s: %s", (unsigned long long)isk_clock(l->sys), st->text, msg);
    l->failures++;
}

/* The driver: runs at the start of every clock and plays the main processor. */
static int drive(void *user, isk_system *sys)
{
    launch_list *l = user;
    uint64_t now = isk_clock(sys);
    while (l->next < l->steps.len) {
        step *st = &l->steps.data[l->next];
        switch (st->kind) {
        case LAUNCH:
            if (st->at >= 0 && (uint64_t)st->at < now) {
                fail(l, st, "clock %lld has already passed", (long long)st->at);
                return -1;
            }
            if (st->at >= 0 && (uint64_t)st->at > now) return 0;
            l->next++;
            return isk_launch(sys, l->acc, st->word) == ISK_OK ? 0 : -1;
        case WAIT_IRQ:
            if (!isk_interrupts(sys, 1, NULL)) return 0;
            break;
        case WAIT_FLAG:
            if (!compare(st->cmp, isk_ref_read(&st->ref), st->value)) return 0;
            break;
        case WAIT_IDLE:
            if (isk_busy_slots(l->acc)) return 0;
            break;
        case WAIT_CLOCKS:
            if (!l->waiting) {
                l->waiting = true;
                l->wait_until = now + (uint64_t)st->value;
            }
            if (now < l->wait_until) return 0;
            l->waiting = false;
            break;
        case WRITE:
            isk_ref_write(&st->ref, st->value);
            l->next++;
            return 0;
        case EXPECT:
            if (!compare(st->cmp, isk_ref_read(&st->ref), st->value))
                fail(l, st, "the value is %lld", (long long)isk_ref_read(&st->ref));
            break;
        case EXPECT_CLOCK:
            if (!compare(st->cmp, (int64_t)now, st->value)) fail(l, st, "the clock is %llu", (unsigned long long)now);
            break;
        }
        l->next++;
    }
    return 1;
}

isk_status launch_list_start(launch_list *l)
{
    for (size_t i = 0; i < l->inits.len; i++) {
        init_values *iv = &l->inits.data[i];
        for (size_t k = 0; k < iv->values.len; k++) {
            isk_ref r = iv->ref;
            r.index += k;
            const isk_storage_info *s = isk_model_storage(isk_inst_model(l->acc), r.storage);
            if (r.index >= s->count) {
                isk_error(l->diag, NULL, "%s: init of %s goes past its %llu cells", l->path, s->name,
                          (unsigned long long)s->count);
                return ISK_FAILED;
            }
            isk_ref_write(&r, iv->values.data[k]);
        }
    }
    isk_set_driver(l->sys, drive, l);
    return ISK_OK;
}

int launch_list_failures(const launch_list *l) { return l->failures; }
