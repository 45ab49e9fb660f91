/* The Xilinx PicoBlaze assembly dialects (.psm, as read by KCPSM3.EXE, the KCPSM6 assembler and
 * opbasm), as a front end over isekit's instruction syntax: the model (kcpsm3 or kcpsm6) supplies
 * the instruction set through its syntax templates; this front end supplies what .psm adds:
 *
 *   [label:] [instruction | directive] [; comment]
 *   directives  CONSTANT name, value     NAMEREG sX, name      ADDRESS aaa | label
 *               INCLUDE "file.psm"       STRING name$, "text"  TABLE name#, [v, v, ...]['d|'b]
 *               INST hhhhh               DEFAULT_JUMP target
 *   values      hex by default (any number of digits: "5" = 05), nnn'd, bbbbbbbb'b, "c", ~value,
 *               label'upper / label'lower, %ENV (an environment variable), named constants and the
 *               predefined NUL BEL BS HT LF VT CR ESC DEL DCS ST, timestamp_hours/_minutes/_seconds,
 *               datestamp_year/_month/_day; strings timestamp$ and datestamp$
 *   expansion   OUTPUTK name$|name#, p and LOAD&RETURN sX, name$|name# give one instruction per
 *               character or element
 *
 * The digit-count rules of KCPSM3.EXE (exactly 2 hex digits for a constant, 3 for an address) are
 * relaxed as opbasm relaxes them; everything KCPSM3.EXE and the KCPSM6 assembler accept is
 * accepted and gives their words. Errors go to an isk_diag as file:line:column with the source
 * line and a caret; assembly goes on to report every error it can.
 */
#ifndef ISK_ASM_PSM_H
#define ISK_ASM_PSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/vec.h"
#include "elf/obj.h"
#include "isekit/diag.h"
#include "isekit/sim.h"

/* A file held in memory that INCLUDE may name (e.g. the pbbcelib library built into isekit). */
typedef struct psm_file { const char *name, *text; } psm_file;
/* A file built into the program, which INCLUDE finds after the include directories and the
 * options' files: a model folder's code registers it (the EdkDSP its firmware library) by
 * PSM_BUILTIN_FILE(id, "name.psm", text) at file scope; linking that file is all it takes. */
#define PSM_BUILTIN_FILE(id, fname, ftext) \
    static const psm_file psm_builtin_##id = { (fname), (ftext) }; \
    __attribute__((used, section("isk_psm_files"))) static const psm_file *const psm_builtin_at_##id = &psm_builtin_##id

typedef struct psm_options {
    const isk_model *model;          /* kcpsm3, kcpsm6, or a model with the same templates */
    const char *const *include_dirs; /* INCLUDE: the including file's directory, then these, */
    size_t ninclude_dirs;
    const psm_file *files;           /* then these in-memory files */
    size_t nfiles;
    unsigned scratchpad_size;        /* direct STORE/FETCH addresses must be below it; 0 = 256 */
    int64_t timestamp;               /* for timestamp_* and datestamp_*: seconds since 1970; -1 =
                                        $SOURCE_DATE_EPOCH if set, else the current time */
    const isk_model *hint_model;     /* a line `model` refuses but this one takes gets `hint` added */
    const char *hint;                /* to its error (KCPSM6 code assembled as KCPSM3: "use -6") */
    bool listing;                    /* keep psm_program.listing (for psm_write_log) */
} psm_options;

enum psm_symbol_kind { PSM_LABEL, PSM_CONSTANT, PSM_STRING, PSM_TABLE };

typedef struct psm_symbol {
    char *name;
    int kind;                        /* enum psm_symbol_kind */
    int64_t value;                   /* labels and constants */
    VEC(uint8_t) bytes;              /* strings and tables */
    const char *file;                /* where it was defined */
    int line;
    bool invalid;                    /* its definition failed (reported): uses stay silent */
} psm_symbol;

/* Where each word came from, for listings and the debugger. */
typedef struct psm_origin { uint32_t address; const char *file; int line; } psm_origin;

/* One source line as the .log lists it (blank lines and INCLUDE lines are not listed). */
typedef struct psm_listed {
    const char *file;
    int line;
    uint32_t address;                /* its first word, or the address after a directive */
    uint32_t nwords;                 /* words it placed (0: directive, label or comment only) */
    char *label, *statement, *comment;  /* statement with operands resolved: sX[name], 12[name] */
} psm_listed;

typedef struct psm_program {
    uint32_t *words;                 /* the whole program space (unused words 0 or DEFAULT_JUMP) */
    uint8_t *used;                   /* 1 where the source placed a word */
    size_t size;                     /* words in the program space (the model's code memory) */
    size_t end;                      /* last used address + 1 */
    size_t count;                    /* words the source placed */
    bool has_default_jump;
    VEC(psm_symbol) symbols;
    VEC(psm_origin) origins;
    VEC(char *) files;               /* every file read (owned) */
    VEC(psm_listed) listing;         /* with psm_options.listing */
    int64_t timestamp;               /* the assembly time (seconds since 1970) */
} psm_program;

void psm_options_init(psm_options *o, const isk_model *model);

/* Does the model take .psm? It declares so (PARAM_ENUM "syntax" of value "psm") and is a
 * processor with 18-bit words; else an error naming the model and `name` (the file or core). */
bool psm_model_ok(const isk_model *m, const char *name, isk_diag *diag);

/* Assemble a file, or source text under a file name. NULL after reporting errors to diag. */
psm_program *psm_assemble_file(const char *path, const psm_options *o, isk_diag *diag);
psm_program *psm_assemble_text(const char *name, const char *text, const psm_options *o, isk_diag *diag);
void psm_program_free(psm_program *p);

const psm_symbol *psm_find_symbol(const psm_program *p, const char *name);

/* Disassemble one word in the dialect's canonical spelling: upper-case mnemonics, registers sX,
 * 2-digit hex constants, 3-digit hex addresses ("JUMP NZ, 1B3", "OUTPUT s2, (sC)"). A word no
 * instruction accepts, or one with ignored bits set that the canonical form would not give back,
 * prints as "INST hhhhh" (with the nearest instruction as a comment in the second case); the
 * result then is false. */
bool psm_disassemble(const isk_model *m, uint32_t word, char *out, size_t cap);

/* ---- for the tools after loading (psm_obj.c) ------------------------------------------------ */

/* The program's labels as symbols and each word's source file:line as DWARF .debug_line, in an
 * executable named path that holds no code: what asm/loaded.h keeps of an assembled program. */
isk_obj *psm_program_obj(const psm_program *p, const isk_model *m, const char *path);
/* Keep that with inst (isk_loaded_keep): `break LABEL`, `break FILE.psm:LINE`, a profile's
 * functions. */
void psm_keep_loaded(isk_inst *inst, const char *path, const psm_program *p, isk_diag *diag);

/* ---- images (psm_image.c) ------------------------------------------------------------------ */

enum psm_image_format { PSM_HEX, PSM_MEM, PSM_DEC, PSM_BIN, PSM_C_HEADER };

/* The format a file name implies (.hex .mem .dec .bin .h), or -1. */
int psm_image_format_of(const char *path);

/* Write n words (n = the program space: 1024 or 4096 lines, as the Xilinx tools do):
 *   PSM_HEX  one word per line, 5 upper-case hex digits
 *   PSM_MEM  "@00000000", then the .hex lines
 *   PSM_DEC  one word per line in decimal between single spaces (KCPSM3 .dec)
 *   PSM_BIN  4 bytes per word, little-endian (what pblaze-bincopy reads)
 *   PSM_C_HEADER  a C header with `static const uint32_t <name>[]` holding the words up to the
 *            last used one and `<NAME>_WORDS` (what the EdkDSP SDK's `pbcc ... -o fw.h` gives a
 *            host program); `name` is the array's name, `source` the file named in the comment
 * `crlf` ends text lines with CR LF (KCPSM3.EXE) instead of LF (opbasm, KCPSM6). */
int psm_write_image(FILE *out, int format, const uint32_t *words, size_t n, size_t used_end, const char *name,
                    const char *source, bool crlf);

/* Fill a ROM template as the Xilinx assemblers do (ROM_form.vhd / ROM_form.v, or one of the
 * user's): the text after the line holding "{begin template}" (all of it without one), with
 * {name}, {timestamp}, {INIT_00}.. (64 hex digits: the low 16 bits of 16 words, the highest
 * leftmost) and {INITP_00}.. (bits 17:16 of 128 words, the first in bits 1:0) filled in from the n
 * words; any other {text} is copied. 0, or -1 on a write error. */
int psm_write_template(FILE *out, const char *template_text, const uint32_t *words, size_t n, const char *name,
                       const char *timestamp);

/* Read an image: .hex / .mem (lines of hex words; "@addr" sets the address), .dec, or raw .bin
 * (4 bytes per word, little-endian). The format comes from the name, else from the content.
 * Words are placed into words[0..capacity); *loaded gets 1 + the highest address written.
 * Errors give file:line:column. Returns 0, or -1 after reporting. */
int psm_read_image(const char *path, uint32_t *words, size_t capacity, size_t *loaded, isk_diag *diag);
int psm_read_image_text(const char *name, const char *text, size_t len, int format, uint32_t *words,
                        size_t capacity, size_t *loaded, isk_diag *diag);

/* ---- listings (psm_listing.c) --------------------------------------------------------------- */

/* The KCPSM6-style log of a program assembled with psm_options.listing: a header (time stamp,
 * last occupied address, nominal memory size), "Addr Code Instruction" lines with resolved
 * operands, then the files, constants, tables, strings and labels with the file defining each.
 * `title` names the assembler ("KCPSM6"). 0, or -1 on a write error. */
int psm_write_log(FILE *out, const psm_program *p, const char *source, const char *title, bool crlf);
/* The source `text` (the file `name`, which p was assembled from) formatted as the Xilinx
 * assemblers' .fmt: upper-case mnemonics and hex, registers sX, ", " between operands, labels
 * right-aligned to the longest, comments in one column after the longest statement; blank lines
 * dropped, comment-only lines kept at the left margin. 0, or -1 on a write error. */
int psm_write_fmt(FILE *out, const char *name, const char *text, const psm_program *p, bool crlf);

#endif
