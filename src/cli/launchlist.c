#include "cli/launchlist.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/disasm.h"
#include "asm/syntax.h"
#include "base/file.h"
#include "base/num.h"
#include "base/str.h"
#include "base/vec.h"

enum step_kind { LAUNCH, WAIT_IRQ, WAIT_FLAG, WAIT_IDLE, WAIT_CLOCKS, WRITE, EXPECT, EXPECT_CLOCK };
enum compare { EQ, NE, LT, LE, GT, GE };

typedef struct step {
    int kind;
    int line;
    int file;                /* index into files (0: the list's own file) */
    int64_t at;              /* LAUNCH: the clock it must start in, or -1 */
    uint64_t word;           /* LAUNCH */
    isk_ref ref;             /* WAIT_FLAG, WRITE, EXPECT */
    int cmp;
    int64_t value;           /* compared with, written, or clocks to wait */
    char *text;              /* for messages */
} step;

typedef struct init_values { isk_ref ref; VEC(int64_t) values; } init_values;
typedef struct label { char *name; size_t step; } label;

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
    uint64_t limit;          /* the clock limit of the run, for waits that would pass it */
    const step *beyond;      /* the step that waits past the limit with nothing active */
    /* for a debugger (launch_list_set_before_line): asked once per step, before it acts */
    launch_list_hook before_line;
    void *before_line_user;
    size_t asked;            /* the step last asked about, + 1 (0: none yet) */
    VEC(char *) files;       /* the source files of steps: [0] is path */
    VEC(label) labels;       /* a launch program's labels */
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

/* A number (the strict parser: 0x, 0b, '_' separators) up to the next blank or comma. */
static bool parse_number(launch_list *l, int line, const char *text, const char **p, int64_t min, int64_t *v,
                         const char *what)
{
    const char *s = isk_skip_blanks(*p);
    const char *end = s;
    while (*end && !isspace((unsigned char)*end) && *end != ',') end++;
    char token[80], why[200] = "";
    if (end - s >= (ptrdiff_t)sizeof token) {
        snprintf(why, sizeof why, "'%.20s...' is not a number", s);
    } else if (end > s) {
        snprintf(token, sizeof token, "%.*s", (int)(end - s), s);
        if (isk_parse_i64(token, min, INT64_MAX, ISK_UNIT_NONE, v, why, sizeof why)) {
            *p = end;
            return true;
        }
    }
    error_at(l, line, text, s, "expected %s%s%s", what, *why ? ": " : "", why);
    return false;
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
    if (!parse_number(l, line, text, &v, INT64_MIN, &st->value, "a number after the comparison")) return false;
    if (*isk_skip_blanks(v)) {
        error_at(l, line, text, isk_skip_blanks(v), "unexpected text after the number");
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
        if (!parse_number(l, line, text, &p, INT64_MIN, &v, "a number")) {
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
            if (!isdigit((unsigned char)*rest)) {
                error_at(l, line, text, rest, "expected 'wait irq', 'wait idle', 'wait flag NAME == value' "
                                              "or 'wait CLOCKS'");
                return false;
            }
            if (!parse_number(l, line, text, &p, 0, &st.value, "a number of clocks")) return false;
            if (*isk_skip_blanks(p)) {
                error_at(l, line, text, isk_skip_blanks(p), "unexpected text after the number of clocks");
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
        if (!eq) {
            error_at(l, line, text, rest, "expected NAME[index] = value");
            return false;
        }
        if (!parse_number(l, line, text, &v, INT64_MIN, &st.value, "a value to write")) return false;
        if (*isk_skip_blanks(v)) {
            error_at(l, line, text, isk_skip_blanks(v), "unexpected text after the value");
            return false;
        }
        if (!parse_ref(l, line, text, rest, eq, &st.ref)) return false;
    } else {
        st.kind = LAUNCH;
        if (starts_word(s, "word", &rest)) {
            const char *p = rest;
            int64_t w;
            if (!parse_number(l, line, text, &p, 0, &w, "an instruction word after 'word'")) return false;
            if (*isk_skip_blanks(p)) {
                error_at(l, line, text, isk_skip_blanks(p), "unexpected text after the instruction word");
                return false;
            }
            st.word = (uint64_t)w;
            st.text = isk_xstrdup(s);
            VEC_PUSH(&l->steps, st);
            return true;
        }
        if (*s == '@') {
            const char *p = s + 1;
            if (!parse_number(l, line, text, &p, 0, &st.at, "a clock number after '@'")) return false;
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

static launch_list *new_list(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag)
{
    launch_list *l = isk_xcalloc(1, sizeof *l);
    l->path = isk_xstrdup(path);
    l->sys = sys;
    l->acc = acc;
    l->diag = diag;
    l->limit = UINT64_MAX;
    VEC_PUSH(&l->files, isk_xstrdup(path));
    return l;
}

launch_list *launch_list_load(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag)
{
    char *data;
    size_t size;
    if (isk_file_read_text(path, &data, &size, diag) != 0) return NULL;
    launch_list *l = new_list(path, sys, acc, diag);
    int line = 0, errors = diag->errors;
    isk_diag_file outer = isk_diag_begin_file(diag, l->path);
    /* Read up to the cap of this file ("too many errors in this file") or of the run. */
    for (char *p = data; *p && !isk_diag_file_stopped(diag);) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (nl && nl > p && nl[-1] == '\r') nl[-1] = 0;     /* CRLF line ends */
        line++;
        /* Parse a copy cut at the comment (and a CR); offsets into it are columns of the original. */
        char *buf = isk_xstrdup(p);
        strip_comment(buf);
        const char *s = isk_skip_blanks(buf);
        if (*s) parse_line(l, line, p, buf, s);
        free(buf);
        if (!nl) break;
        p = nl + 1;
    }
    isk_diag_end_file(diag, outer);
    free(data);
    if (diag->errors != errors) {
        launch_list_free(l);
        return NULL;
    }
    return l;
}

launch_list *launch_list_from_words(const char *path, isk_system *sys, isk_inst *acc, const uint64_t *words,
                                    size_t n, isk_diag *diag)
{
    launch_list *l = new_list(path, sys, acc, diag);
    for (size_t i = 0; i < n; i++) {
        step st = { .kind = LAUNCH, .at = -1, .word = words[i] };
        char text[200];
        isk_disasm_word(isk_inst_model(acc), words[i], i, text, sizeof text);   /* as a debugger shows it */
        st.text = isk_xstrdup(text);
        VEC_PUSH(&l->steps, st);
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
    for (size_t i = 0; i < l->files.len; i++) free(l->files.data[i]);
    VEC_FREE(&l->files);
    for (size_t i = 0; i < l->labels.len; i++) free(l->labels.data[i].name);
    VEC_FREE(&l->labels);
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

/* Nothing in the system can change by itself: a wait that does not hold now never will. */
static bool quiescent(launch_list *l)
{
    char what[256];
    return isk_describe_activity(l->sys, what, sizeof what) == 0;
}

/* A wait that can never end: report it and abandon the list (the run then ends at once). */
static int deadlock(launch_list *l, const step *st, const char *why)
{
    fail(l, st, "deadlock: %s, and nothing in the system is active (no command running, no write "
                "pending), so the wait can never end", why);
    return 1;
}

/* Idle until clock `until`: past the run's limit, say so at once instead of idling there. */
static int idle_until(launch_list *l, const step *st, uint64_t until)
{
    if (until >= l->limit && quiescent(l)) {
        l->beyond = st;
        return 1;
    }
    isk_driver_wait_until(l->sys, until);
    return 0;
}

/* A debugger's hook, once per step when the list comes to it (a launch at @CLOCK: in that
 * clock): true to stop the run before this clock. The step then acts when the run goes on. */
static bool break_before(launch_list *l)
{
    if (l->asked == l->next + 1) return false;
    l->asked = l->next + 1;
    return l->before_line(l->before_line_user, l, l->next) != 0;
}

/* The driver: runs at the start of every clock and plays the main processor. */
static int drive(void *user, isk_system *sys)
{
    launch_list *l = user;
    uint64_t now = isk_clock(sys);
    while (l->next < l->steps.len) {
        step *st = &l->steps.data[l->next];
        if (st->kind == LAUNCH && st->at >= 0 && (uint64_t)st->at > now) return idle_until(l, st, (uint64_t)st->at);
        if (ISK_UNLIKELY(l->before_line != NULL) && break_before(l)) return ISK_DRIVER_BREAK;
        switch (st->kind) {
        case LAUNCH:
            if (st->at >= 0 && (uint64_t)st->at < now) {
                fail(l, st, "clock %lld has already passed", (long long)st->at);
                return -1;
            }
            l->next++;
            if (isk_launch(sys, l->acc, st->word) != ISK_OK) return -1;
            return l->next == l->steps.len;   /* the last step: the list has finished */
        case WAIT_IRQ:
            if (!isk_interrupts(sys, 1, NULL))
                return quiescent(l) ? deadlock(l, st, "no interrupt is pending") : 0;
            break;
        case WAIT_FLAG:
            if (!compare(st->cmp, isk_ref_read(&st->ref), st->value))
                return quiescent(l) ? deadlock(l, st, "the condition does not hold") : 0;
            break;
        case WAIT_IDLE:
            if (isk_busy_slots(l->acc)) return 0;
            break;
        case WAIT_CLOCKS:
            if (!l->waiting) {
                l->waiting = true;
                l->wait_until = (uint64_t)st->value > UINT64_MAX - now ? UINT64_MAX : now + (uint64_t)st->value;
            }
            if (now < l->wait_until) return idle_until(l, st, l->wait_until);
            l->waiting = false;
            break;
        case WRITE:
            isk_ref_write(&st->ref, st->value);
            l->next++;
            return l->next == l->steps.len;
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

isk_status launch_list_start(launch_list *l, uint64_t limit)
{
    l->limit = limit;
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

bool launch_list_where(const launch_list *l, char *buf, size_t cap)
{
    const step *st = l->beyond ? l->beyond : l->next < l->steps.len ? &l->steps.data[l->next] : NULL;
    if (!st) return false;
    if (st->kind == LAUNCH && st->at >= 0)
        snprintf(buf, cap, "the launch list waits at %s:%d for clock %lld: %s", l->path, st->line,
                 (long long)st->at, st->text);
    else if (st->kind == WAIT_CLOCKS)
        snprintf(buf, cap, "the launch list waits at %s:%d until clock %llu: %s", l->path, st->line,
                 (unsigned long long)l->wait_until, st->text);
    else if (st->line)
        snprintf(buf, cap, "the launch list is at %s:%d: %s", l->path, st->line, st->text);
    else
        snprintf(buf, cap, "the launch list is at %s: %s", l->path, st->text);
    return true;
}

bool launch_list_beyond_limit(const launch_list *l) { return l->beyond != NULL; }

void launch_list_set_before_line(launch_list *l, launch_list_hook fn, void *user)
{
    l->before_line = fn;
    l->before_line_user = user;
    l->asked = 0;
}

void launch_list_set_source(launch_list *l, size_t step, const char *file, int line)
{
    if (step >= l->steps.len) return;
    size_t f = 0;
    while (f < l->files.len && strcmp(l->files.data[f], file) != 0) f++;
    if (f == l->files.len) VEC_PUSH(&l->files, isk_xstrdup(file));
    l->steps.data[step].file = (int)f;
    l->steps.data[step].line = line;
}

void launch_list_add_label(launch_list *l, const char *name, size_t step)
{
    VEC_PUSH(&l->labels, ((label){ isk_xstrdup(name), step }));
}

size_t launch_list_steps(const launch_list *l) { return l->steps.len; }
size_t launch_list_next(const launch_list *l) { return l->next; }

bool launch_list_step_source(const launch_list *l, size_t step, const char **file, int *line, const char **text)
{
    if (step >= l->steps.len) return false;
    const struct step *st = &l->steps.data[step];
    *file = l->files.data[st->file];
    *line = st->line;
    *text = st->text;
    return true;
}

/* `name` is the file or its last components ("demo.ll" for "models/x/demo.ll"). */
static bool same_file(const char *path, const char *name)
{
    size_t n = strlen(path), k = strlen(name);
    return strcmp(path, name) == 0 || (n > k && path[n - k - 1] == '/' && strcmp(path + n - k, name) == 0);
}

int launch_list_line_steps(const launch_list *l, const char *file, int line, size_t *steps, int cap)
{
    int n = 0;
    for (size_t i = 0; i < l->steps.len; i++) {
        const step *st = &l->steps.data[i];
        if (st->line != line || (file && !same_file(l->files.data[st->file], file))) continue;
        if (i && l->steps.data[i - 1].line == line && l->steps.data[i - 1].file == st->file) continue;  /* one line's words: its first */
        if (n < cap) steps[n] = i;
        n++;
    }
    return n;
}

bool launch_list_label(const launch_list *l, const char *name, size_t *step)
{
    for (size_t i = 0; i < l->labels.len; i++)
        if (strcmp(l->labels.data[i].name, name) == 0 && l->labels.data[i].step < l->steps.len) {
            *step = l->labels.data[i].step;
            return true;
        }
    return false;
}
