#include "observe/vcd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A value, and whether it is queued for writing (at the current time, or the next). */
typedef struct vcd_val {
    uint64_t value;
    bool x, queued;
} vcd_val;

typedef struct vcd_var {
    vcd_val written;                  /* as dumped last */
    vcd_val at[2];                    /* set for the current time [0] and for the next [1] */
    int width;
} vcd_var;

struct isk_vcd {
    FILE *f;
    vcd_var *vars;
    int nvars, cap;
    int *queue[2], nqueue[2];         /* the variables set for the current and the next time */
    uint64_t now;
    bool time_written;
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

/* Blanks would end the name, and viewers (GTKWave) split a name at dots into scopes: a display
 * name like "t1.r0" is one variable, so its dots become '_' too (the scopes are written as
 * $scope, deliberately). */
static void put_name(FILE *f, const char *name)
{
    for (const char *p = name; *p; p++) fputc((unsigned char)*p <= ' ' || *p == '.' ? '_' : *p, f);
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
        if (vars) v->vars = vars;
        for (int q = 0; q < 2 && vars; q++) {
            int *queue = realloc(v->queue[q], (size_t)cap * sizeof *queue);
            if (queue) v->queue[q] = queue;
            else vars = NULL;
        }
        if (!vars) {
            fprintf(stderr, "isekit: out of memory\n");
            abort();
        }
        v->cap = cap;
    }
    int n = v->nvars++;
    v->vars[n] = (vcd_var){.written = {.value = initial}, .width = width < 1 ? 1 : width > 64 ? 64 : width};
    char id[12];
    fprintf(v->f, "$var wire %d %s ", v->vars[n].width, isk_vcd_id((uint64_t)n, id));
    put_name(v->f, name);
    fputs(" $end\n", v->f);
    return n;
}

void isk_vcd_init_x(isk_vcd *v, int var) { v->vars[var].written.x = true; }

static void dump(isk_vcd *v, int n, uint64_t value, bool x)
{
    char text[72], id[12];
    fprintf(v->f, "%s%s\n", isk_vcd_value_text(value, x, v->vars[n].width, text), isk_vcd_id((uint64_t)n, id));
}

void isk_vcd_begin(isk_vcd *v)
{
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", v->f);
    for (int n = 0; n < v->nvars; n++) dump(v, n, v->vars[n].written.value, v->vars[n].written.x);
    fputs("$end\n", v->f);
    v->time_written = true;
}

/* Write the changes of the current time. */
static void flush(isk_vcd *v)
{
    for (int i = 0; i < v->nqueue[0]; i++) {
        vcd_var *x = &v->vars[v->queue[0][i]];
        vcd_val *p = &x->at[0];
        p->queued = false;
        if (p->x == x->written.x && (p->x || p->value == x->written.value)) continue;
        if (!v->time_written) fprintf(v->f, "#%" PRIu64 "\n", v->now);
        v->time_written = true;
        dump(v, v->queue[0][i], p->value, p->x);
        x->written = *p;
    }
    v->nqueue[0] = 0;
}

/* Set var at the current time (when 0) or the next (1). */
static void set(isk_vcd *v, int when, int var, uint64_t value, bool x)
{
    vcd_val *p = &v->vars[var].at[when];
    p->value = value;
    p->x = x;
    if (!p->queued) v->queue[when][v->nqueue[when]++] = var;
    p->queued = true;
}

void isk_vcd_time(isk_vcd *v, uint64_t t)
{
    if (t <= v->now) return;
    flush(v);
    if (v->nqueue[1]) {
        v->now++;
        v->time_written = false;
        for (int i = 0; i < v->nqueue[1]; i++) {
            vcd_val *p = &v->vars[v->queue[1][i]].at[1];
            p->queued = false;
            set(v, 0, v->queue[1][i], p->value, p->x);
        }
        v->nqueue[1] = 0;
        if (t == v->now) return;
        flush(v);
    }
    v->now = t;
    v->time_written = false;
}

uint64_t isk_vcd_now(const isk_vcd *v) { return v->now; }

void isk_vcd_set(isk_vcd *v, int var, uint64_t value) { set(v, 0, var, value, false); }
void isk_vcd_set_x(isk_vcd *v, int var) { set(v, 0, var, 0, true); }
void isk_vcd_set_next(isk_vcd *v, int var, uint64_t value) { set(v, 1, var, value, false); }
void isk_vcd_set_next_x(isk_vcd *v, int var) { set(v, 1, var, 0, true); }

void isk_vcd_free(isk_vcd *v)
{
    if (!v) return;
    free(v->vars);
    free(v->queue[0]);
    free(v->queue[1]);
    free(v);
}

bool isk_vcd_finish(isk_vcd *v, uint64_t end)
{
    /* what was set for the next time unit still shows */
    uint64_t last = v->nqueue[1] && end <= v->now ? v->now + 1 : end;
    isk_vcd_time(v, last);
    flush(v);
    /* the last time, so that a viewer shows the final values for a clock */
    if (!v->time_written) fprintf(v->f, "#%" PRIu64 "\n", v->now);
    bool ok = fflush(v->f) == 0 && !ferror(v->f);
    isk_vcd_free(v);
    return ok;
}
