/* Running one IPU vertex on a simulated tile, from C (models/ipu/README.md, "Running a vertex";
 * `isekit run ipu` is this API's command line):
 *
 *     ipu_state_desc *d = ipu_state_read("state.toml", &diag);     // what the vertex gets
 *     ipu_state_load_tensors(d, "state-dir", &diag);               // tensors from their files
 *     ipu_program *p = ipu_program_build(m, paths, n, "ipu2", NULL, &diag);  // .S/.s/.o/.elf
 *     ipu_run_result r;
 *     ipu_vertex_run(m, p, d, &(ipu_run_options){ 0 }, &r, &diag); // lays out, runs, reads back
 *     ipu_state_write_outputs(d, "out-dir", &diag);                // tensors with `output`
 *
 * The tile: the program's code from the start of region 0, then a trampoline the runner writes
 * (it starts the vertex with run, runall or call, waits with `sync 2`, and ends on a
 * self-branch where the run stops); the vertex state and the tensors where the description puts them (region 1 by
 * default); the six worker stacks at the top of memory. Nothing here is global: runs on
 * different threads share only the model. */
#ifndef ISEKIT_IPU_VERTEX_H
#define ISEKIT_IPU_VERTEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isekit/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ipu_dtype { IPU_F32, IPU_F16, IPU_I32, IPU_U32, IPU_I16, IPU_U16, IPU_I8, IPU_U8, IPU_BOOL, IPU_NDTYPES } ipu_dtype;
typedef enum ipu_vertex_kind { IPU_VERTEX, IPU_MULTI_VERTEX, IPU_SUPERVISOR_VERTEX } ipu_vertex_kind;
/* The field kinds of a vertex state (architecture.md 11): scalars (or arrays of them, inline),
 * pointers to tensors, and a vector of pointers (an array of ONE_PTRs, SPANs or SHORT_SPANs laid
 * out after the state, the field a SPAN of it (pointer, entries) or, `counted = false`, a
 * ONE_PTR). */
typedef enum ipu_field_kind {
    IPU_FIELD_U32, IPU_FIELD_I32, IPU_FIELD_U16, IPU_FIELD_I16, IPU_FIELD_U8, IPU_FIELD_I8, IPU_FIELD_F32, IPU_FIELD_F16,
    IPU_FIELD_ONE_PTR, IPU_FIELD_SPAN, IPU_FIELD_SHORT_SPAN, IPU_FIELD_SCALED_PTR32, IPU_FIELD_SCALED_PTR64,
    IPU_FIELD_VECTOR, IPU_NFIELD_KINDS
} ipu_field_kind;

const char *ipu_dtype_name(ipu_dtype t);          /* "f32", ... */
unsigned ipu_dtype_size(ipu_dtype t);             /* bytes per element */
const char *ipu_field_kind_name(ipu_field_kind k);/* "u32", "one_ptr", ... */

typedef struct ipu_tensor {
    char *name;
    ipu_dtype type;
    uint64_t count;            /* elements */
    int region;                /* 0 or 1 (default 1, the interleaved one) */
    uint32_t align;            /* bytes, a power of two (default 8) */
    int element;               /* region 1: the 32 KiB element to place it in, -1 = any */
    int64_t address;           /* a fixed byte address, or -1 = placed by the runner */
    uint8_t *data;             /* count * size bytes, little-endian (zero unless given) */
    char *input, *output;      /* file paths as written (raw, .npy or .csv), or NULL */
    bool has_values;           /* `values` or `fill` gave the contents */
    uint32_t placed;           /* its address, once ipu_vertex_run laid it out */
    int line, col;             /* its section in the description */
} ipu_tensor;

typedef struct ipu_field {
    ipu_field_kind kind;
    ipu_field_kind of;         /* VECTOR: IPU_FIELD_ONE_PTR, _SPAN or _SHORT_SPAN entries */
    bool counted;              /* VECTOR: the field is (pointer, entries), else a pointer */
    size_t *tensors;           /* pointer kinds: one tensor index; VECTOR: its entries */
    size_t ntensors;
    double *fvalues;           /* scalar kinds: the value(s); more than one is an inline array */
    int64_t *ivalues;
    size_t nvalues;
    int64_t count;             /* SPAN, SHORT_SPAN: the count stored (-1 = the tensor's elements) */
    uint32_t offset;           /* its byte offset in the state, once laid out */
    int line, col;
} ipu_field;

typedef struct ipu_state_desc {
    char *file;                /* the description's name, for messages */
    char *vertex;              /* entry symbol, or NULL (then the caller's) */
    ipu_vertex_kind kind;
    bool has_kind;
    char *chip;                /* "ipu1", "ipu2" or NULL */
    uint32_t stack;            /* bytes of stack per worker below $WORKER_BASE (default 2048) */
    ipu_tensor *tensors;
    size_t ntensors;
    ipu_field *fields;
    size_t nfields;
} ipu_state_desc;

/* The description (a TOML subset: `key = value`, [tensor.NAME] sections, [[field]] entries;
 * see docs/ipu-vertex.md). Strict: anything unknown or malformed is an error at
 * file:line:column. Inline `values` fill the tensors; files are read by
 * ipu_state_load_tensors. NULL after reporting errors. */
ipu_state_desc *ipu_state_parse(const char *file, const char *text, size_t len, isk_diag *diag);
ipu_state_desc *ipu_state_read(const char *path, isk_diag *diag);
void ipu_state_free(ipu_state_desc *d);
/* Read every tensor's `file` (relative paths from dir; NULL = as written): 0, or -1 after
 * errors (a dtype or size that does not match, a bad number). */
int ipu_state_load_tensors(ipu_state_desc *d, const char *dir, isk_diag *diag);
/* Write every tensor that has an `output` (relative paths into dir; NULL = as written). */
int ipu_state_write_outputs(const ipu_state_desc *d, const char *dir, isk_diag *diag);

/* Tensor files, by extension: .npy (NumPy v1/v2, C order, the dtype of `type`), .csv (numbers
 * separated by commas, blanks or lines; f16 converted from decimal with round-to-nearest-even),
 * anything else raw little-endian. *count: the elements expected (0 = any), then read. */
int ipu_tensor_read(const char *path, ipu_dtype type, uint64_t *count, uint8_t **data, isk_diag *diag);
int ipu_tensor_write(const char *path, ipu_dtype type, uint64_t count, const uint8_t *data, isk_diag *diag);
/* One element as a double (f16 and f32 exactly). */
double ipu_tensor_value(ipu_dtype type, const uint8_t *data, uint64_t i);

/* ---- the program ------------------------------------------------------------------------- */

typedef struct ipu_program ipu_program;
/* Assemble sources (.S through the C preprocessor with the Poplar headers, __IPU_ARCH_VERSION__
 * set for the chip) and link them with objects (.o) for the chip: code from region 0 after the
 * runner's trampoline. Or one executable, used as linked (its sections must lie in the chip's
 * region 0 and leave room for the trampoline). opts adds -I/-D (NULL: none). NULL after reporting errors. */
typedef struct ipu_build_options {
    const char *const *include_dirs;   /* -I for .S sources and .include */
    size_t ninclude_dirs;
    const char *const *defines;        /* -D NAME or NAME=VALUE */
    size_t ndefines;
} ipu_build_options;
ipu_program *ipu_program_build(const isk_model *m, const char *const *paths, size_t n, const char *chip,
                               const ipu_build_options *opts, isk_diag *diag);
/* The same from one source text held in memory (`.s` syntax, no preprocessor). */
ipu_program *ipu_program_from_text(const isk_model *m, const char *name, const char *text, const char *chip,
                                   isk_diag *diag);
void ipu_program_free(ipu_program *p);
/* A global (or any) symbol's address; false if there is none. */
bool ipu_program_symbol(const ipu_program *p, const char *name, uint32_t *addr);
/* The names of the entry points ("__runCodelet_*" first, then other global functions),
 * comma-separated, for "unknown vertex" messages. */
void ipu_program_entries(const ipu_program *p, char *buf, size_t cap);

/* ---- the run ----------------------------------------------------------------------------- */

typedef struct ipu_worker_result {
    bool ran;                  /* the vertex started it */
    int status;                /* 1 exited with success, 0 with failure, -1 did not exit */
    bool excepted;             /* an exception stopped it */
    uint32_t etype;            /* $WSR.ETYPE then */
    uint32_t pc;               /* the byte address of the exit or exception */
    uint64_t cycles;           /* tile cycles from its start to its exit or exception */
    uint64_t clock;            /* the tile clock of the exit or exception */
    char cause[320];           /* the exception's message */
} ipu_worker_result;

typedef struct ipu_run_result {
    ipu_worker_result worker[6];
    bool returned;             /* the supervisor came back to the trampoline's end */
    bool sup_excepted;         /* the supervisor raised (SupervisorVertex, or a bad run) */
    uint32_t sup_pc;
    uint64_t sup_clock;
    char sup_cause[320];
    bool timed_out;            /* max_clocks came first */
    uint64_t cycles;           /* the vertex's tile cycles: the longest worker's (Vertex,
                                  MultiVertex), or call to return (SupervisorVertex) */
    uint64_t clocks;           /* the whole run, trampoline included */
    uint64_t instructions;     /* issued, all contexts (a bundle counts 2) */
    uint32_t entry, state;     /* the vertex's entry and state addresses */
    uint32_t state_bytes;
    bool ok;                   /* returned, no exception, every worker exited with success */
} ipu_run_result;

typedef struct ipu_run_options {
    const char *vertex;        /* entry symbol (overrides the description's) */
    uint64_t max_clocks;       /* 0 = 1e9 */
    /* Called for the run's events (e.g. ISK_EV_ISSUE for a trace) as isk_subscribe does. */
    isk_event_fn trace;
    unsigned trace_kinds;
    void *trace_user;
    /* Called with the system and the tile before the run (parameters, watches), may be NULL. */
    void (*setup)(void *user, isk_system *sys, isk_inst *tile);
    void *setup_user;
    /* Runs the system in place of isk_run(sys, max_clocks) and returns as it would (NULL =
     * isk_run): the command line's run control, e.g. its debugger. The vertex's own before-issue
     * hook (the return, ISK_BREAK) is installed: keep it. */
    isk_status (*run)(void *user, isk_system *sys, uint64_t max_clocks);
    void *run_user;
} ipu_run_options;

/* Lay out the state and tensors, run the vertex, read every tensor back into d (all of them:
 * a vertex may write its inputs). The chip is the program's. 0 when the run took place (r says
 * how it went: r->ok), -1 after reporting an error that kept it from running (an unknown
 * vertex, a layout that does not fit). */
int ipu_vertex_run(isk_model *m, const ipu_program *p, ipu_state_desc *d, const ipu_run_options *opt,
                   ipu_run_result *r, isk_diag *diag);

/* Worker stacks: worker n's $WORKERn_BASE is mem_end - (6 - n) * stack_slot + stack, where
 * stack_slot = stack + IPU_VERTEX_SCRATCH: `stack` bytes below the base (the stack grows
 * down), IPU_VERTEX_SCRATCH bytes of scratch above it. */
#define IPU_VERTEX_SCRATCH 256u

#ifdef __cplusplus
}
#endif
#endif
