/* Internal state of one isk_link call, shared by link.c (inputs, symbols), link_layout.c
 * (output sections, addresses) and link_output.c (relocation, the executable). */
#ifndef ISK_ELF_LINK_INT_H
#define ISK_ELF_LINK_INT_H

#include "elf/link.h"

/* One input file: an object given by the caller, an archive member, or the linker's own
 * object holding the COMMON symbols. */
typedef struct lfile {
    const isk_obj *obj;
    isk_obj *owned;          /* freed at the end (archive members, the common object) */
    uint32_t *osec;          /* per input section: output section index + 1, 0 = dropped */
    uint64_t *ooff;          /* per input section: its offset in the output section */
    int32_t *gsym;           /* per input symbol: global symbol index, -1 = local */
} lfile;

enum { G_UNDEF, G_DEF, G_WEAK, G_COMMON, G_LINKER };

typedef struct gsym {
    const char *name;        /* owned by the defining or first referencing object, or the target */
    int state;
    uint32_t file, sym;      /* the winning definition (G_DEF, G_WEAK, G_COMMON) */
    int strong_ref;          /* referenced by a non-weak undefined symbol (or the entry) */
    uint32_t ref_file;       /* first file that references it (UINT32_MAX = the entry point) */
    uint64_t common_size, common_align;
    uint32_t symdef;         /* G_LINKER: index into target->symbols */
    int computed;            /* G_LINKER: value is set */
    uint64_t value;          /* G_LINKER */
    uint32_t osec;           /* G_LINKER: output section index + 1, 0 = absolute */
} gsym;

typedef struct contrib { uint32_t file, sec; size_t key, seq; } contrib;

typedef struct osec {
    char *name;
    uint32_t type, info;
    uint64_t flags, align, size, addr;
    size_t seq;              /* order of first appearance */
    size_t key;              /* placement key: pattern index in its region */
    long region;             /* -1 = not placed (non-allocated, or empty and unmatched) */
    int keep_first;          /* processor-specific non-allocated: the first input only */
    VEC(contrib) parts;
    uint8_t *data;
    uint32_t out;            /* index in the output object, 0 = not emitted */
} osec;

struct isk_link_ctx {
    const isk_link_target *t;
    isk_diag *d;
    VEC(lfile) files;
    VEC(gsym) syms;
    uint32_t *hash;          /* name -> gsym index + 1 */
    size_t hash_cap;
    VEC(osec) osecs;
    uint64_t *region_end;    /* first free address of each region after placement */
    uint32_t flags;
};

/* link.c */
long isk_link_find(const isk_link_ctx *c, const char *name);
const char *isk_link_file_name(const isk_link_ctx *c, uint32_t file);
/* Address of symbol k of file f (resolving globals); *osec gets the output section index + 1
 * (0 = absolute or undefined). */
uint64_t isk_link_sym_addr(const isk_link_ctx *c, uint32_t f, uint32_t k, uint32_t *out_osec);
int isk_link_glob_match(const char *patterns, const char *name, size_t *index);

/* link_layout.c */
int isk_link_build_sections(isk_link_ctx *c);
int isk_link_place(isk_link_ctx *c);
int isk_link_define_symbols(isk_link_ctx *c);

/* link_output.c */
int isk_link_relocate(isk_link_ctx *c);
isk_obj *isk_link_make_output(isk_link_ctx *c, const char *name);

#endif
