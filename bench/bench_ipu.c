/* Simulated IPU bundles per host second, on one host core: a worker loop of two bundles and a
 * branch (a 64-bit load with an f32v2add, a count with an fnop) run by the vertex runner
 * (isekit/ipu_vertex.h), as a Vertex on one worker (the supervisor re-issuing `sync 2` in the
 * other five slots) and as a MultiVertex on all six (the supervisor suspended).
 *
 *     bench_ipu [iterations [case]]   default 2 000 000 loop iterations per worker, the best
 *                                     of 3 runs; case 1 (one worker) or 2 (six) runs one only
 * A "bundle" is one issue of a worker: a bundle or a lone instruction; the supervisor's issues
 * are not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isekit/ipu_vertex.h"

static const char loop[] =
    "  .globl L\nL:\n  ld32 $m0, $mvertex_base, $mzero, 0\n  ld32 $m3, $mvertex_base, $mzero, 1\n"
    "1:\n  { ld64 $a0:1, $m0, $mzero, 0 ; f32v2add $a2:3, $a2:3, $a0:1 }\n"
    "  { add $m3, $m3, -1 ; fnop }\n  brnz $m3, 1b\n  exitz $mzero\n";

static int bench(isk_model *m, const ipu_program *p, bool six, unsigned iterations)
{
    char text[400];
    snprintf(text, sizeof text,
             "vertex = \"L\"\nkind = \"%s\"\n[tensor.x]\ntype = \"f32\"\nvalues = [1.5, 2.5]\n"
             "[[field]]\nkind = \"one_ptr\"\ntensor = \"x\"\n[[field]]\nkind = \"u32\"\nvalue = %u\n",
             six ? "MultiVertex" : "Vertex", iterations);
    isk_diag diag;
    isk_diag_init(&diag);
    ipu_state_desc *d = ipu_state_parse("bench.toml", text, strlen(text), &diag);
    if (!d) return 1;
    double best = 1e30;
    ipu_run_result r;
    for (int round = 0; round < 3; round++) {
        double t0 = bench_now();
        if (ipu_vertex_run(m, p, d, NULL, &r, &diag) != 0 || !r.ok) {
            fprintf(stderr, "bench_ipu: the vertex failed\n");
            ipu_state_free(d);
            return 1;
        }
        double t = bench_now() - t0;
        if (t < best) best = t;
    }
    const unsigned long long bundles = (unsigned long long)(six ? 6 : 1) * (3ull * iterations + 3);
    printf("ipu %s: %.2f M bundles/s (%llu bundles in %llu tile cycles, %.3f s; %.1f M tile cycles/s)\n",
           six ? "six workers" : "one worker", (double)bundles / best * 1e-6, bundles, (unsigned long long)r.clocks,
           best, (double)r.clocks / best * 1e-6);
    ipu_state_free(d);
    return 0;
}

int main(int argc, char **argv)
{
    const unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2000000u;
    const int only = argc > 2 ? atoi(argv[2]) : 0;
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("ipu", &diag);
    ipu_program *p = m ? ipu_program_from_text(m, "bench.s", loop, "ipu2", &diag) : NULL;
    int rc = !p;
    if (p && (!only || only == 1)) rc |= bench(m, p, false, iterations);
    if (p && (!only || only == 2)) rc |= bench(m, p, true, iterations);
    ipu_program_free(p);
    isk_model_release(m);
    return rc;
}
