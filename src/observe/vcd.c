#include "observe/vcd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct vcd_var {
    uint64_t written, pending, next;  /* dumped; set at the current time; set for the next */
    int width;
    bool written_x, pending_x, next_x, dirty, has_next;
} vcd_var;

struct isk_vcd {
    FILE *f;
    vcd_var *vars;
    int nvars, cap;
    int *dirty, ndirty;               /* variables set at the current time */
    int *nexts, nnexts;               /* variables set for the next time unit */
    uint64_t now;
    bool begun, time_written;
};

char *isk_vcd_id(uint64_t n, char *out)
{
    int len = 0;
    char rev[12];
    do {
        rev[len++] = (char)('!' + n % 94);
        n /= 94;
    } while (n-- > 0 && len < 11);
    /* bijective base 94: "!" .. "~", then "!!": so every code is as short as it can be */
    for (int i = 0; i < len; i++) out[i] = rev[len - 1 - i];
    out[len] = 0;
    return out;
}

char *isk_vcd_value_text(uint64_t value, bool unknown, int width, char *out)
{
    if (width == 1) {
        out[0] = unknown ? 'x' : (char)('0' + (value & 1));
        out[1] = 0;
        return out;
    }
    char *p = out;
    *p++ = 'b';
    if (unknown) {
        *p++ = 'x';
    } else {
        if (width < 64) value &= (UINT64_C(1) << width) - 1;
        int top = 63;
        while (top > 0 && !(value >> top & 1)) top--;
        for (int b = top; b >= 0; b--) *p++ = (char)('0' + (value >> b & 1));
    }
    *p++ = ' ';
    *p = 0;
    return out;
}

isk_vcd *isk_vcd_new(FILE *f, const char *timescale)
{
    isk_vcd *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->f = f;
    fprintf(f, "$comment isekit $end\n$timescale %s $end\n", timescale);
    return v;
}

static void put_name(FILE *f, const char *name)
{
    for (const char *p = name; *p; p++) fputc((unsigned char)*p <= ' ' ? '_' : *p, f);
}

void isk_vcd_scope(isk_vcd *v, const char *name)
{
    fputs("$scope module ", v->f);
    put_name(v->f, name);
    fputs(" $end\n", v->f);
}

void isk_vcd_upscope(isk_vcd *v) { fputs("$upscope $end\n", v->f); }

int isk_vcd_var(isk_vcd *v, const char *name, int width, uint64_t initial)
{
    if (v->nvars == v->cap) {
        int cap = v->cap ? v->cap * 2 : 64;
        vcd_var *vars = realloc(v->vars, (size_t)cap * sizeof *vars);
        int *dirty = realloc(v->dirty, (size_t)cap * sizeof *dirty);
        if (dirty) v->dirty = dirty;
        int *nexts = dirty ? realloc(v->nexts, (size_t)cap * sizeof *nexts) : NULL;
        if (vars) v->vars = vars;
        if (nexts) v->nexts = nexts;
        if (!vars || !dirty || !nexts) {
            fprintf(stderr, "isekit: out of memory\n");
            abort();
        }
        v->cap = cap;
    }
    int n = v->nvars++;
    v->vars[n] = (vcd_var){.written = initial, .pending = initial, .width = width < 1 ? 1 : width > 64 ? 64 : width};
    char id[12];
    fprintf(v->f, "$var wire %d %s ", v->vars[n].width, isk_vcd_id((uint64_t)n, id));
    put_name(v->f, name);
    fputs(" $end\n", v->f);
    return n;
}

void isk_vcd_init_x(isk_vcd *v, int var) { v->vars[var].written_x = v->vars[var].pending_x = true; }

static void dump(isk_vcd *v, int n, uint64_t value, bool x)
{
    char text[72], id[12];
    fprintf(v->f, "%s%s\n", isk_vcd_value_text(value, x, v->vars[n].width, text), isk_vcd_id((uint64_t)n, id));
}

void isk_vcd_begin(isk_vcd *v)
{
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", v->f);
    for (int n = 0; n < v->nvars; n++) dump(v, n, v->vars[n].written, v->vars[n].written_x);
    fputs("$end\n", v->f);
    v->begun = v->time_written = true;
}

/* Write the changes of the current time. */
static void flush(isk_vcd *v)
{
    for (int i = 0; i < v->ndirty; i++) {
        vcd_var *x = &v->vars[v->dirty[i]];
        x->dirty = false;
        if (x->pending_x == x->written_x && (x->pending_x || x->pending == x->written)) continue;
        if (!v->time_written) fprintf(v->f, "#%" PRIu64 "\n", v->now);
        v->time_written = true;
        dump(v, v->dirty[i], x->pending, x->pending_x);
        x->written = x->pending;
        x->written_x = x->pending_x;
    }
    v->ndirty = 0;
}

static void set(isk_vcd *v, int var, uint64_t value, bool x)
{
    vcd_var *p = &v->vars[var];
    p->pending = value;
    p->pending_x = x;
    if (!p->dirty) v->dirty[v->ndirty++] = var;
    p->dirty = true;
}

void isk_vcd_time(isk_vcd *v, uint64_t t)
{
    if (t <= v->now) return;
    flush(v);
    if (v->nnexts) {
        v->now++;
        v->time_written = false;
        for (int i = 0; i < v->nnexts; i++) {
            vcd_var *p = &v->vars[v->nexts[i]];
            p->has_next = false;
            set(v, v->nexts[i], p->next, p->next_x);
        }
        v->nnexts = 0;
        if (t == v->now) return;
        flush(v);
    }
    v->now = t;
    v->time_written = false;
}

uint64_t isk_vcd_now(const isk_vcd *v) { return v->now; }

void isk_vcd_set(isk_vcd *v, int var, uint64_t value) { set(v, var, value, false); }
void isk_vcd_set_x(isk_vcd *v, int var) { set(v, var, 0, true); }

static void set_next(isk_vcd *v, int var, uint64_t value, bool x)
{
    vcd_var *p = &v->vars[var];
    p->next = value;
    p->next_x = x;
    if (!p->has_next) v->nexts[v->nnexts++] = var;
    p->has_next = true;
}

void isk_vcd_set_next(isk_vcd *v, int var, uint64_t value) { set_next(v, var, value, false); }
void isk_vcd_set_next_x(isk_vcd *v, int var) { set_next(v, var, 0, true); }

void isk_vcd_free(isk_vcd *v)
{
    if (!v) return;
    free(v->vars);
    free(v->dirty);
    free(v->nexts);
    free(v);
}

bool isk_vcd_finish(isk_vcd *v, uint64_t end)
{
    /* what was set for the next time unit still shows */
    uint64_t last = v->nnexts && end <= v->now ? v->now + 1 : end;
    isk_vcd_time(v, last);
    flush(v);
    /* the last time, so that a viewer shows the final values for a clock */
    if (!v->time_written) fprintf(v->f, "#%" PRIu64 "\n", v->now);
    bool ok = fflush(v->f) == 0 && !ferror(v->f);
    isk_vcd_free(v);
    return ok;
}
