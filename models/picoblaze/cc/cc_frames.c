/* isekit cc: the call graph. The PicoBlaze has no data stack, so every function's parameters,
 * locals and temporaries live at a fixed scratchpad address (its frame), as small-target
 * compilers do: two functions share bytes only when no call chain holds both, i.e. a callee's
 * frame starts after every caller's. Recursion would need a stack and is an error naming the
 * cycle; so is a function reachable from both main and the interrupt handler (its frame would be
 * overwritten by the interrupt). The interrupt handler's tree is placed after main's. */
#include <stdio.h>
#include <string.h>

#include "cc.h"

static void walk(cc_ctx *c, cc_func *f, cc_func **path, int depth, int tree)
{
    if (f->state == 1) {
        char chain[512] = "";
        int start = depth - 1;
        while (start > 0 && path[start] != f) start--;
        for (int i = start; i < depth; i++) {
            strncat(chain, path[i]->sym->name, sizeof chain - strlen(chain) - 1);
            strncat(chain, " -> ", sizeof chain - strlen(chain) - 1);
        }
        strncat(chain, f->sym->name, sizeof chain - strlen(chain) - 1);
        cc_error(c, f->pos, "recursion (%s) is outside the subset: frames are static", chain);
    }
    if (f->tree && f->tree != tree && f->body)
        cc_error(c, f->pos, "'%s' is called from both main and the interrupt handler: its static frame would be overwritten",
                 f->sym->name);
    f->tree = tree;
    if (f->state == 2) return;
    f->state = 1;
    path[depth] = f;
    int d = f->rtdepth;
    for (int i = 0; i < f->ncallees; i++) {
        cc_func *g = f->callees[i];
        if (!g->body) {            /* a .psm routine: its CALL plus pbbcelib's one level */
            if (d < 2) d = 2;
            continue;
        }
        walk(c, g, path, depth + 1, tree);
        if (g->depth > d) d = g->depth;
    }
    f->depth = d + 1;
    f->state = 2;
}

/* Place f's callees after f (and after every other caller already placed). Runs in an order
 * where callers come first: repeat until nothing moves (the graph is acyclic and small). */
static int place(cc_ctx *c, int tree, int start)
{
    int end = start;
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->body && c->funcs[i]->tree == tree) c->funcs[i]->base = start;
    for (bool moved = true; moved;) {
        moved = false;
        for (int i = 0; i < c->nfuncs; i++) {
            cc_func *f = c->funcs[i];
            if (!f->body || f->tree != tree) continue;
            for (int j = 0; j < f->ncallees; j++) {
                cc_func *g = f->callees[j];
                if (g->body && g->base < f->base + f->frame) {
                    g->base = f->base + f->frame;
                    moved = true;
                }
            }
        }
    }
    for (int i = 0; i < c->nfuncs; i++) {
        cc_func *f = c->funcs[i];
        if (f->body && f->tree == tree && f->base + f->frame > end) end = f->base + f->frame;
    }
    return end;
}

void cc_frames(cc_ctx *c)
{
    cc_func **path = cc_alloc(c, sizeof *path * (size_t)(c->nfuncs + 1));
    cc_func *main_f = NULL;
    for (int i = 0; i < c->nfuncs; i++)
        if (!strcmp(c->funcs[i]->sym->name, "main")) main_f = c->funcs[i];
    walk(c, main_f, path, 0, 1);
    int ntrees = 0;
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->interrupt && c->funcs[i]->body) {
            if (++ntrees > 1) cc_error(c, c->funcs[i]->pos, "a second __interrupt handler: the PicoBlaze has one interrupt vector");
            walk(c, c->funcs[i], path, 0, 2);
        }
    for (int i = 0; i < c->nfuncs; i++)   /* never called: still compiled, placed with main's */
        if (c->funcs[i]->body && !c->funcs[i]->tree) walk(c, c->funcs[i], path, 0, 1);
    int end = place(c, 1, c->gsize);
    int iend = place(c, 2, end);
    if (iend > (int)c->scratchpad)
        cc_error(c, main_f->pos, "the program needs %d bytes of scratchpad (globals %d, frames %d); the core has %u",
                 iend, c->gsize, iend - c->gsize, c->scratchpad);
    int depth = main_f->depth + 1;   /* _start's CALL main */
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->interrupt && c->funcs[i]->body) depth += c->funcs[i]->depth;
    if (depth > c->stack_depth)
        cc_error(c, main_f->pos, "calls nest %d deep (with the interrupt handler's); the %s call stack holds %d",
                 depth, c->core == 6 ? "KCPSM6" : "KCPSM3", c->stack_depth);
}
