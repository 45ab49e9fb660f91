/* The directives: one handler per name, looked up by binary search. */
#include <ctype.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "asm/asm_int.h"
#include "base/file.h"
#include "elf/elf_file.h"

typedef void (*handler_fn)(isk_asm *a, const char *args, int arg);
typedef struct directive { const char *name; handler_fn fn; int arg; } directive;

/* ---- argument helpers -------------------------------------------------------------------- */

static bool expect_end(isk_asm *a, const char *p)
{
    p = asm_skip(p);
    if (*p) {
        asm_error(a, p, "unexpected '%.20s'", p);
        return false;
    }
    return true;
}

/* A symbol name (identifier or quoted); advances *p. Reports an error if there is none. */
static size_t expect_name(isk_asm *a, const char **p, const char **name, const char *what)
{
    const char *s = asm_skip(*p);
    size_t n;
    if (*s == '"') {
        const char *e = strchr(s + 1, '"');
        if (!e) {
            asm_error(a, s, "unterminated name");
            return 0;
        }
        *name = s + 1;
        n = (size_t)(e - s - 1);
        *p = e + 1;
    } else {
        n = asm_parse_name(&s, name);
        *p = s;
    }
    if (!n) asm_error(a, s, "expected %s", what);
    return n;
}

static bool expect_comma(isk_asm *a, const char **p)
{
    const char *s = asm_skip(*p);
    if (*s != ',') {
        asm_error(a, s, "expected ','");
        return false;
    }
    *p = s + 1;
    return true;
}

static bool optional_comma(const char **p)
{
    const char *s = asm_skip(*p);
    if (*s != ',') return false;
    *p = s + 1;
    return true;
}

/* A string literal with escapes into out (NUL-terminated); advances *p. */
typedef VEC(char) text_buf;

static bool parse_string(isk_asm *a, const char **p, text_buf *out)
{
    const char *s = asm_skip(*p);
    out->len = 0;
    if (*s != '"') {
        asm_error(a, s, "expected a string in double quotes");
        return false;
    }
    const char *start = s++;
    while (*s && *s != '"') {
        if (*s == '\\' && s[1]) {
            s++;
            VEC_PUSH(out, (char)asm_escape(&s));
        } else {
            VEC_PUSH(out, *s++);
        }
    }
    if (*s != '"') {
        asm_error(a, start, "unterminated string");
        return false;
    }
    VEC_PUSH(out, 0);
    out->len--;
    *p = s + 1;
    return true;
}

/* ---- sections ---------------------------------------------------------------------------- */

static void d_simple_section(isk_asm *a, const char *args, int arg)
{
    static const char *const names[] = { ".text", ".data", ".bss" };
    const char *p = asm_skip(args);
    if (*p) {
        int64_t sub;              /* a subsection number: accepted and ignored */
        if (!asm_expr_absolute(a, &p, &sub)) return;
        if (!expect_end(a, p)) return;
    }
    asm_switch_section(a, names[arg], NULL, NULL, false);
}

static void d_section(isk_asm *a, const char *args, int push)
{
    const char *p = asm_skip(args), *name;
    size_t n;
    if (*p == '"') {
        n = expect_name(a, &p, &name, "a section name");
    } else {
        name = p;
        while (*p && *p != ',' && *p != ' ' && *p != '\t') p++;
        n = (size_t)(p - name);
        if (!n) asm_error(a, p, "expected a section name");
    }
    if (!n) return;
    char *sname = isk_xstrndup(name, n);
    char *flags = NULL, *type = NULL;
    bool have_flags = false;
    if (optional_comma(&p)) {
        text_buf str = { 0 };
        const char *q = asm_skip(p);
        if (*q == '"') {
            if (!parse_string(a, &q, &str)) {
                VEC_FREE(&str);
                goto out;
            }
            flags = isk_xstrdup(str.data);
            have_flags = true;
        } else if (*q == '#' || isalpha((unsigned char)*q)) {
            /* Solaris-style "#alloc,#write": not supported; say so clearly. */
            asm_error(a, q, "expected the section flags as a string, e.g. \"ax\"");
            VEC_FREE(&str);
            goto out;
        }
        VEC_FREE(&str);
        p = q;
        if (optional_comma(&p)) {
            q = asm_skip(p);
            if (*q == '@' || *q == '%') q++;
            const char *t = q;
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            if (q == t) {
                asm_error(a, q, "expected a section type such as @progbits or @nobits");
                goto out;
            }
            type = isk_xstrndup(t, (size_t)(q - t));
            p = q;
            if (optional_comma(&p)) {
                int64_t entsize;
                if (!asm_expr_absolute(a, &p, &entsize)) goto out;
            }
        }
    }
    if (!expect_end(a, p)) goto out;
    if (push) VEC_PUSH(&a->sec_stack, a->sec);
    asm_switch_section(a, sname, flags, type, have_flags);
out:
    free(sname);
    free(flags);
    free(type);
}

static void d_popsection(isk_asm *a, const char *args, int arg)
{
    if (!expect_end(a, args)) return;
    if (!a->sec_stack.len) {
        asm_error(a, NULL, ".popsection without .pushsection");
        return;
    }
    a->prev_sec = a->sec;
    a->sec = a->sec_stack.data[--a->sec_stack.len];
}

static void d_previous(isk_asm *a, const char *args, int arg)
{
    if (!expect_end(a, args)) return;
    uint32_t s = a->sec;
    a->sec = a->prev_sec;
    a->prev_sec = s;
}

/* ---- data -------------------------------------------------------------------------------- */

static void d_data(isk_asm *a, const char *args, int bytes)
{
    const char *p = asm_skip(args);
    if (!*p) return;
    for (;;) {
        p = asm_skip(p);
        const char *at = p;
        size_t mark = a->nodes.len, fixups = a->fixups.len;
        int32_t e = asm_expr_parse(a, &p, false);
        if (e < 0) return;
        asm_emit_data(a, bytes, e, at);
        if (a->fixups.len == fixups) a->nodes.len = mark;   /* resolved: reuse the nodes */
        if (!optional_comma(&p)) break;
    }
    expect_end(a, p);
}

static void d_ascii(isk_asm *a, const char *args, int zero)
{
    const char *p = args;
    text_buf str = { 0 };
    if (!asm_at_end(p)) {
        for (;;) {
            if (!parse_string(a, &p, &str)) break;
            asm_emit_bytes(a, str.data, str.len + (zero != 0));
            if (!optional_comma(&p)) {
                expect_end(a, p);
                break;
            }
        }
    }
    VEC_FREE(&str);
}

static void fill_bytes(isk_asm *a, uint64_t n, int64_t value, int size)
{
    if (!asm_room(a, n * (uint64_t)size, NULL)) return;
    uint8_t unit[8];
    asm_put_word(a, unit, size, (uint64_t)value);
    if (asm_section_is_nobits(a) && value == 0) {
        for (uint64_t done = 0; done < n;) {
            size_t chunk = n - done > 65536 ? 65536 : (size_t)(n - done);
            uint64_t at = asm_offset(a);
            isk_obj_append(a->obj, a->sec, NULL, chunk);
            (void)at;
            done += chunk;
        }
        return;
    }
    for (uint64_t i = 0; i < n; i++) asm_emit_bytes(a, unit, (size_t)size);
}

#define MAX_SPACE (UINT64_C(1) << 32)

static void d_space(isk_asm *a, const char *args, int arg)
{
    const char *p = args;
    int64_t n, fill = 0;
    if (!asm_expr_absolute(a, &p, &n)) return;
    if (optional_comma(&p) && !asm_expr_absolute(a, &p, &fill)) return;
    if (!expect_end(a, p)) return;
    if (n < 0 || (uint64_t)n > MAX_SPACE) {
        asm_error(a, args, "size %" PRId64 " is outside [0, 4 GiB]", n);
        return;
    }
    fill_bytes(a, (uint64_t)n, fill, 1);
}

static void d_fill(isk_asm *a, const char *args, int arg)
{
    const char *p = args;
    int64_t repeat, size = 1, value = 0;
    if (!asm_expr_absolute(a, &p, &repeat)) return;
    if (optional_comma(&p)) {
        if (!asm_expr_absolute(a, &p, &size)) return;
        if (optional_comma(&p) && !asm_expr_absolute(a, &p, &value)) return;
    }
    if (!expect_end(a, p)) return;
    if (repeat < 0 || size < 0 || size > 8 || (uint64_t)repeat * (uint64_t)(size ? size : 1) > MAX_SPACE) {
        asm_error(a, args, ".fill %" PRId64 ", %" PRId64 ": repeat must be >= 0, size 0..8, total at most 4 GiB",
                  repeat, size);
        return;
    }
    if (size) fill_bytes(a, (uint64_t)repeat, value, (int)size);
}

static void d_inst(isk_asm *a, const char *args, int arg)
{
    const char *p = args;
    for (;;) {
        int64_t w;
        if (!asm_expr_absolute(a, &p, &w)) return;
        if (a->m->word_bits < 64 && ((uint64_t)w >> a->m->word_bits) != 0) {
            asm_error(a, args, "0x%" PRIx64 " does not fit a %d-bit instruction word", (uint64_t)w, a->m->word_bits);
            return;
        }
        asm_emit_word(a, (uint64_t)w);
        if (!optional_comma(&p)) break;
    }
    expect_end(a, p);
}

static void d_align(isk_asm *a, const char *args, int power)
{
    const char *p = args;
    int64_t n, fill = 0, max = 0;
    bool have_fill = false;
    if (!asm_expr_absolute(a, &p, &n)) return;
    if (optional_comma(&p)) {
        const char *q = asm_skip(p);
        if (*q != ',') {
            if (!asm_expr_absolute(a, &p, &fill)) return;
            have_fill = true;
        }
        if (optional_comma(&p) && !asm_expr_absolute(a, &p, &max)) return;
    }
    if (!expect_end(a, p)) return;
    uint64_t align;
    if (power) {
        if (n < 0 || n > 32) {
            asm_error(a, args, "alignment 2^%" PRId64 " is outside 2^0 .. 2^32", n);
            return;
        }
        align = UINT64_C(1) << n;
    } else {
        if (n < 0 || n > (INT64_C(1) << 32) || (n & (n - 1))) {
            asm_error(a, args, "alignment %" PRId64 " is not a power of two up to 4 GiB", n);
            return;
        }
        align = n ? (uint64_t)n : 1;
    }
    asm_align(a, align, have_fill, fill, max > 0 ? (uint64_t)max : 0);
}

static void d_org(isk_asm *a, const char *args, int arg)
{
    const char *p = asm_skip(args), *at = p;
    int32_t e = asm_expr_parse(a, &p, false);
    if (e < 0 || !expect_end(a, p)) return;
    asm_value v;
    char err[200];
    int st = asm_expr_eval(a, e, false, &v, err, sizeof err);
    if (st == EV_OK && v.kind == VAL_SEC && v.sec != a->sec) {
        snprintf(err, sizeof err, ".org must stay in the current section");
        st = EV_ERROR;
    } else if (st == EV_OK && v.kind == VAL_SYM) {
        snprintf(err, sizeof err, ".org needs a known value");
        st = EV_ERROR;
    }
    if (st != EV_OK) {
        asm_error(a, at, "%s", err);
        return;
    }
    isk_loc loc = { a->pos.file, a->pos.line, asm_col(a, at), a->pos.text, a->pos.text_len };
    if (v.k < 0) asm_error(a, at, ".org to a negative offset");
    else isk_asm_set_offset(a, (uint64_t)v.k, &loc);
}

/* ---- symbols ----------------------------------------------------------------------------- */

enum { B_GLOBAL, B_LOCAL, B_WEAK, V_HIDDEN, V_PROTECTED, V_INTERNAL };

static void d_binding(isk_asm *a, const char *args, int what)
{
    const char *p = args;
    for (;;) {
        const char *name;
        size_t n = expect_name(a, &p, &name, "a symbol name");
        if (!n) return;
        uint32_t si = asm_sym_ref(a, name, n);         /* may move the table */
        asm_sym *s = &a->syms.data[si];
        switch (what) {
        case B_GLOBAL: s->bind = STB_GLOBAL, s->bind_set = true; break;
        case B_LOCAL: s->bind = STB_LOCAL, s->bind_set = true; break;
        case B_WEAK: s->bind = STB_WEAK, s->bind_set = true; break;
        case V_HIDDEN: s->vis = STV_HIDDEN; break;
        case V_PROTECTED: s->vis = STV_PROTECTED; break;
        default: s->vis = STV_INTERNAL; break;
        }
        if (!optional_comma(&p)) break;
    }
    expect_end(a, p);
}

static void d_type(isk_asm *a, const char *args, int arg)
{
    const char *p = args, *name;
    size_t n = expect_name(a, &p, &name, "a symbol name");
    if (!n) return;
    /* the comma may be left out before '@' (".type f @function", as GNU as and LLVM accept) */
    if (*asm_skip(p) != '@' && !expect_comma(a, &p)) return;
    const char *q = asm_skip(p);
    if (*q == '@' || *q == '%' || *q == '#') q++;
    if (*q == '"') q++;
    const char *t = q;
    while (isalnum((unsigned char)*q) || *q == '_') q++;
    size_t tl = (size_t)(q - t);
    if (*q == '"') q++;
    static const struct { const char *name; uint8_t type; } types[] = {
        { "function", STT_FUNC }, { "STT_FUNC", STT_FUNC }, { "object", STT_OBJECT }, { "STT_OBJECT", STT_OBJECT },
        { "notype", STT_NOTYPE }, { "STT_NOTYPE", STT_NOTYPE }, { "tls_object", STT_TLS }, { "STT_TLS", STT_TLS },
        { "common", STT_COMMON }, { "STT_COMMON", STT_COMMON },
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strlen(types[i].name) == tl && strncmp(types[i].name, t, tl) == 0) {
            if (!expect_end(a, q)) return;
            uint32_t si = asm_sym_ref(a, name, n);
            a->syms.data[si].type = types[i].type;
            return;
        }
    asm_error(a, t, "unknown symbol type '%.*s' (use @function, @object or @notype)", (int)tl, t);
}

static void d_size(isk_asm *a, const char *args, int arg)
{
    const char *p = args, *name;
    size_t n = expect_name(a, &p, &name, "a symbol name");
    if (!n || !expect_comma(a, &p)) return;
    const char *at = asm_skip(p);
    p = at;
    int32_t e = asm_expr_parse(a, &p, false);
    if (e < 0 || !expect_end(a, p)) return;
    uint32_t si = asm_sym_ref(a, name, n);
    asm_value v;
    char err[200];
    int st = asm_expr_eval(a, e, false, &v, err, sizeof err);
    if (st == EV_OK && v.kind == VAL_ABS) {
        a->syms.data[si].size = (uint64_t)v.k;
        a->syms.data[si].has_size = true;
        return;
    }
    if (st == EV_OK) {
        asm_error(a, at, ".size needs an absolute value (e.g. .-f)");
        return;
    }
    /* Pending or not computable yet (a label defined further on): settled at the end. */
    asm_fixup f = { .kind = FX_SIZE, .sym = si, .expr = e, .pos = a->pos, .col = asm_col(a, at) };
    f.pos.text = a->pos.text ? isk_xstrndup(a->pos.text, (size_t)a->pos.text_len) : NULL;
    VEC_PUSH(&a->fixups, f);
}

static void d_set(isk_asm *a, const char *args, int equiv)
{
    const char *p = args, *name;
    size_t n = expect_name(a, &p, &name, "a symbol name");
    if (!n || !expect_comma(a, &p)) return;
    asm_define_set(a, name, n, p, equiv != 0);
}

static void d_comm(isk_asm *a, const char *args, int local)
{
    const char *p = args, *name;
    size_t n = expect_name(a, &p, &name, "a symbol name");
    if (!n || !expect_comma(a, &p)) return;
    int64_t size, align = 0;
    if (!asm_expr_absolute(a, &p, &size)) return;
    if (optional_comma(&p) && !asm_expr_absolute(a, &p, &align)) return;
    if (!expect_end(a, p)) return;
    if (size < 0 || (uint64_t)size > MAX_SPACE || align < 0 || (align & (align - 1)) || align > 65536) {
        asm_error(a, args, "bad size or alignment (size 0..4 GiB, alignment a power of two up to 65536)");
        return;
    }
    uint32_t si = asm_sym_ref(a, name, n);
    asm_sym *s = &a->syms.data[si];
    if (s->defined) {
        asm_error(a, name, "symbol '%.*s' is already defined", (int)n, name);
        return;
    }
    if (local) {
        /* .lcomm: space in .bss, a local symbol. */
        uint32_t saved = a->sec, prev = a->prev_sec;
        asm_switch_section(a, ".bss", NULL, NULL, false);
        asm_align(a, align ? (uint64_t)align : 1, false, 0, 0);
        asm_define_label(a, name, n, name);
        fill_bytes(a, (uint64_t)size, 0, 1);
        a->syms.data[si].size = (uint64_t)size;
        a->syms.data[si].has_size = true;
        a->syms.data[si].type = STT_OBJECT;
        a->sec = saved;
        a->prev_sec = prev;
        return;
    }
    s->common = true;
    s->size = (uint64_t)size > s->size ? (uint64_t)size : s->size;
    s->common_align = (uint64_t)(align ? align : 1);
    s->type = STT_OBJECT;
    if (!s->bind_set) s->bind = STB_GLOBAL;
}

/* ---- files ------------------------------------------------------------------------------- */

static void d_include(isk_asm *a, const char *args, int arg)
{
    const char *p = args;
    text_buf name = { 0 };
    if (!parse_string(a, &p, &name) || !expect_end(a, p)) {
        VEC_FREE(&name);
        return;
    }
    int depth = 0;
    for (size_t i = 0; i < a->frames.len; i++) depth += a->frames.data[i].kind == FRAME_FILE;
    if (depth >= 64) {
        asm_error(a, args, ".include nested more than 64 deep (does a file include itself?)");
        VEC_FREE(&name);
        return;
    }
    char *found = NULL;
    if (a->opt.no_files) {
        asm_error(a, asm_skip(args), ".include is not allowed here");
        VEC_FREE(&name);
        return;
    }
    if (name.data[0] == '/') {
        found = isk_xstrdup(name.data);
    } else {
        char *cur = isk_xstrdup(a->pos.file ? a->pos.file : ".");
        char *cand = isk_xasprintf("%s/%s", dirname(cur), name.data);
        free(cur);
        if (access(cand, R_OK) == 0) found = cand;
        else free(cand);
        for (size_t i = 0; !found && i < a->opt.ninclude_dirs; i++) {
            cand = isk_xasprintf("%s/%s", a->opt.include_dirs[i], name.data);
            if (access(cand, R_OK) == 0) found = cand;
            else free(cand);
        }
    }
    if (!found) {
        asm_error(a, asm_skip(args), "cannot find '%s' (looked next to %s and in the -I directories)", name.data,
                  a->pos.file ? a->pos.file : "the source");
        VEC_FREE(&name);
        return;
    }
    char *buf;
    size_t len;
    isk_diag quiet;
    isk_diag_init(&quiet);
    isk_diag_buffer msg;
    isk_diag_capture(&quiet, &msg);
    if (isk_file_read_source(found, "assembly", &buf, &len, &quiet) != 0) {
        char why[sizeof quiet.last];
        asm_error(a, args, "%s", quiet.last[0] ? isk_diag_last_reason(&quiet, why, sizeof why) : "cannot read the file");
    } else {
        VEC_PUSH(&a->keep, buf);
        asm_push_file(a, found, buf, len, false);
    }
    isk_diag_buffer_free(&msg);
    free(found);
    VEC_FREE(&name);
}

/* ---- macros, repeats, conditionals ------------------------------------------------------- */

static void d_macro(isk_asm *a, const char *args, int arg) { asm_start_macro(a, args); }
static void d_rept(isk_asm *a, const char *args, int arg) { asm_start_rept(a, args); }
static void d_irp(isk_asm *a, const char *args, int chars) { asm_start_irp(a, args, chars != 0); }
static void d_purgem(isk_asm *a, const char *args, int arg) { asm_purge_macro(a, args); }

static void d_exitm(isk_asm *a, const char *args, int arg)
{
    if (expect_end(a, args)) asm_exit_macro(a);
}

static void d_stray_end(isk_asm *a, const char *args, int arg)
{
    asm_error(a, NULL, arg ? ".endr without .rept or .irp" : ".endm without .macro");
}

/* Conditionals opened in an enclosing frame are not this frame's to close. */
static size_t cond_floor(const isk_asm *a)
{
    return a->frames.len ? VEC_LAST(&a->frames).cond_depth : 0;
}

enum { IF_EXPR, IF_EQ, IF_NE, IF_GT, IF_GE, IF_LT, IF_LE, IF_DEF, IF_NDEF, IF_B, IF_NB, IF_C, IF_NC };

/* The condition of an .if variant; *ok false after an error. */
static bool condition(isk_asm *a, const char *args, int kind, bool *ok)
{
    const char *p = args;
    *ok = true;
    switch (kind) {
    case IF_DEF: case IF_NDEF: {
        const char *name;
        size_t n = expect_name(a, &p, &name, "a symbol name");
        if (!n || !expect_end(a, p)) return *ok = false;
        uint32_t si = asm_sym_find(a, name, n);
        bool def = si && (a->syms.data[si].defined || a->syms.data[si].common);
        return kind == IF_DEF ? def : !def;
    }
    case IF_B: case IF_NB:
        return kind == IF_B ? asm_at_end(p) : !asm_at_end(p);
    case IF_C: case IF_NC: {
        /* .ifc a, b: compare the two strings (quotes optional). */
        VEC(char *) parts = { 0 };
        const char *comma = NULL;
        bool q = false;
        for (const char *s = p; *s; s++) {
            if (*s == '"') q = !q;
            else if (*s == ',' && !q) { comma = s; break; }
        }
        if (!comma) {
            asm_error(a, p, "expected two strings separated by ','");
            return *ok = false;
        }
        char *x = isk_xstrndup(asm_skip(p), (size_t)(comma - asm_skip(p)));
        char *y = isk_xstrdup(asm_skip(comma + 1));
        for (char **z = (char *[]){ x, y, NULL }; *z; z++) {
            size_t n = strlen(*z);
            while (n && ((*z)[n - 1] == ' ' || (*z)[n - 1] == '\t')) (*z)[--n] = 0;
            if (n >= 2 && (*z)[0] == '"' && (*z)[n - 1] == '"') {
                memmove(*z, *z + 1, n - 2);
                (*z)[n - 2] = 0;
            }
        }
        bool eq = strcmp(x, y) == 0;
        free(x);
        free(y);
        VEC_FREE(&parts);
        return kind == IF_C ? eq : !eq;
    }
    default: {
        int64_t v;
        if (!asm_expr_absolute(a, &p, &v) || !expect_end(a, p)) return *ok = false;
        switch (kind) {
        case IF_EQ: return v == 0;
        case IF_GT: return v > 0;
        case IF_GE: return v >= 0;
        case IF_LT: return v < 0;
        case IF_LE: return v <= 0;
        default: return v != 0;
        }
    }
    }
}

static void d_if(isk_asm *a, const char *args, int kind)
{
    bool outer = asm_active(a), ok = true;
    bool value = outer ? condition(a, args, kind, &ok) : false;
    asm_cond c = { outer, outer && value && ok, outer && value && ok, false, a->pos };
    c.pos.text = NULL;
    VEC_PUSH(&a->conds, c);
}

static void d_elseif(isk_asm *a, const char *args, int arg)
{
    if (!a->conds.len || a->conds.len <= cond_floor(a)) {
        asm_error(a, NULL, ".elseif without .if");
        return;
    }
    asm_cond *c = &VEC_LAST(&a->conds);
    if (c->else_seen) {
        asm_error(a, NULL, ".elseif after .else");
        return;
    }
    bool ok = true;
    bool value = c->outer_active && !c->taken ? condition(a, args, IF_EXPR, &ok) : false;
    c = &VEC_LAST(&a->conds);
    c->active = c->outer_active && !c->taken && value && ok;
    c->taken |= c->active;
}

static void d_else(isk_asm *a, const char *args, int arg)
{
    if (!a->conds.len || a->conds.len <= cond_floor(a)) {
        asm_error(a, NULL, ".else without .if");
        return;
    }
    asm_cond *c = &VEC_LAST(&a->conds);
    if (c->else_seen) {
        asm_error(a, NULL, "a second .else for the same .if");
        return;
    }
    c->else_seen = true;
    c->active = c->outer_active && !c->taken;
    c->taken = true;
    if (c->outer_active) expect_end(a, args);
}

static void d_endif(isk_asm *a, const char *args, int arg)
{
    if (!a->conds.len || a->conds.len <= cond_floor(a)) {
        asm_error(a, NULL, ".endif without .if");
        return;
    }
    a->conds.len--;
    if (asm_active(a)) expect_end(a, args);
}

/* ---- messages and the rest --------------------------------------------------------------- */

enum { M_ERROR, M_WARNING, M_PRINT };

static void d_message(isk_asm *a, const char *args, int kind)
{
    const char *p = args;
    text_buf str = { 0 };
    const char *text = kind == M_ERROR ? ".error directive invoked" : ".warning directive invoked";
    if (!asm_at_end(p)) {
        if (!parse_string(a, &p, &str)) {
            VEC_FREE(&str);
            return;
        }
        text = str.data;
    }
    if (kind == M_ERROR) asm_error(a, NULL, "%s", text);
    else if (kind == M_WARNING) asm_warning(a, NULL, "%s", text);
    else printf("%s\n", text);
    VEC_FREE(&str);
}

static void d_end(isk_asm *a, const char *args, int arg)
{
    a->ended = true;
}

static void d_ignore(isk_asm *a, const char *args, int arg) { }

/* A decimal number at *p (for .file/.loc, which take no expressions); false if none. */
static bool line_number(const char **p, uint64_t *v)
{
    const char *s = asm_skip(*p);
    if (!isdigit((unsigned char)*s)) return false;
    char *end;
    *v = strtoull(s, &end, 10);
    *p = end;
    return true;
}

/* `.file "name"` names the source (ignored, as the object has no STT_FILE symbol);
 * `.file N "name"` or `.file N "dir" "name"` (DWARF 5 style) numbers a file for `.loc`. */
static void d_file(isk_asm *a, const char *args, int arg)
{
    const char *p = args, *at = asm_skip(args);
    uint64_t n;
    if (!line_number(&p, &n)) return;
    text_buf dir = { 0 }, name = { 0 };
    if (parse_string(a, &p, &name)) {
        if (*asm_skip(p) == '"') {
            VEC_FREE(&dir);
            dir = name;
            name = (text_buf){ 0 };
            if (!parse_string(a, &p, &name)) goto out;
        }
        p = asm_skip(p);
        if (strncmp(p, "md5", 3) == 0) p = "";        /* checksums: not kept */
        if (expect_end(a, p)) {
            char *full = dir.len && name.data[0] != '/' ? isk_xasprintf("%s/%s", dir.data, name.data)
                                                        : isk_xstrdup(name.data);
            asm_line_file(a, n, full, at);
            free(full);
        }
    }
out:
    VEC_FREE(&dir);
    VEC_FREE(&name);
}

/* `.loc FILE LINE [COLUMN] [options]`: the code that follows comes from there. The options
 * (is_stmt, prologue_end, discriminator, view ...) are accepted and not recorded. */
static void d_loc(isk_asm *a, const char *args, int arg)
{
    const char *p = args, *at = asm_skip(args);
    uint64_t n, line, col = 0;
    if (!line_number(&p, &n) || !line_number(&p, &line)) {
        asm_error(a, at, "expected `.loc FILE LINE [COLUMN]`");
        return;
    }
    line_number(&p, &col);
    static const char *const options[] = { "basic_block", "prologue_end", "epilogue_begin", "is_stmt", "isa",
                                           "discriminator", "view" };
    for (p = asm_skip(p); *p; p = asm_skip(p)) {
        size_t k = 0, len = strcspn(p, " \t");
        while (k < sizeof options / sizeof *options && (strlen(options[k]) != len || strncmp(p, options[k], len)))
            k++;
        if (k == sizeof options / sizeof *options) {
            asm_error(a, p, ".loc: unknown option '%.*s'", (int)len, p);
            return;
        }
        p = asm_skip(p + len);
        if (k >= 3 && *p && !isalpha((unsigned char)*p)) p += strcspn(p, " \t");    /* its value */
    }
    asm_line_loc(a, n, line, col, at);
}

/* Sorted by name (strcmp) for the binary search. */
static const directive directives[] = {
    { ".2byte", d_data, 2 },
    { ".4byte", d_data, 4 },
    { ".8byte", d_data, 8 },
    { ".addrsig", d_ignore, 0 },
    { ".addrsig_sym", d_ignore, 0 },
    { ".align", d_align, 0 },
    { ".ascii", d_ascii, 0 },
    { ".asciz", d_ascii, 1 },
    { ".balign", d_align, 0 },
    { ".bss", d_simple_section, 2 },
    { ".byte", d_data, 1 },
    { ".comm", d_comm, 0 },
    { ".data", d_simple_section, 1 },
    { ".else", d_else, 0 },
    { ".elseif", d_elseif, 0 },
    { ".end", d_end, 0 },
    { ".endif", d_endif, 0 },
    { ".endm", d_stray_end, 0 },
    { ".endmacro", d_stray_end, 0 },
    { ".endr", d_stray_end, 1 },
    { ".equ", d_set, 0 },
    { ".equiv", d_set, 1 },
    { ".err", d_message, M_ERROR },
    { ".error", d_message, M_ERROR },
    { ".exitm", d_exitm, 0 },
    { ".extern", d_ignore, 0 },   /* GNU as: every undefined symbol is external anyway */
    { ".file", d_file, 0 },
    { ".fill", d_fill, 0 },
    { ".global", d_binding, B_GLOBAL },
    { ".globl", d_binding, B_GLOBAL },
    { ".half", d_data, 2 },
    { ".hidden", d_binding, V_HIDDEN },
    { ".hword", d_data, 2 },
    { ".ident", d_ignore, 0 },
    { ".if", d_if, IF_EXPR },
    { ".ifb", d_if, IF_B },
    { ".ifc", d_if, IF_C },
    { ".ifdef", d_if, IF_DEF },
    { ".ifeq", d_if, IF_EQ },
    { ".ifge", d_if, IF_GE },
    { ".ifgt", d_if, IF_GT },
    { ".ifle", d_if, IF_LE },
    { ".iflt", d_if, IF_LT },
    { ".ifnb", d_if, IF_NB },
    { ".ifnc", d_if, IF_NC },
    { ".ifndef", d_if, IF_NDEF },
    { ".ifne", d_if, IF_EXPR },
    { ".ifnotdef", d_if, IF_NDEF },
    { ".include", d_include, 0 },
    { ".insn", d_inst, 0 },
    { ".inst", d_inst, 0 },
    { ".int", d_data, 4 },
    { ".internal", d_binding, V_INTERNAL },
    { ".irp", d_irp, 0 },
    { ".irpc", d_irp, 1 },
    { ".lcomm", d_comm, 1 },
    { ".loc", d_loc, 0 },
    { ".local", d_binding, B_LOCAL },
    { ".long", d_data, 4 },
    { ".macro", d_macro, 0 },
    { ".org", d_org, 0 },
    { ".p2align", d_align, 1 },
    { ".popsection", d_popsection, 0 },
    { ".previous", d_previous, 0 },
    { ".print", d_message, M_PRINT },
    { ".protected", d_binding, V_PROTECTED },
    { ".purgem", d_purgem, 0 },
    { ".pushsection", d_section, 1 },
    { ".quad", d_data, 8 },
    { ".rept", d_rept, 0 },
    { ".section", d_section, 0 },
    { ".set", d_set, 0 },
    { ".short", d_data, 2 },
    { ".size", d_size, 0 },
    { ".skip", d_space, 0 },
    { ".space", d_space, 0 },
    { ".string", d_ascii, 1 },
    { ".text", d_simple_section, 0 },
    { ".type", d_type, 0 },
    { ".warning", d_message, M_WARNING },
    { ".weak", d_binding, B_WEAK },
    { ".word", d_data, 4 },
    { ".zero", d_space, 0 },
};

static const directive *find(const char *name, size_t len)
{
    size_t lo = 0, hi = sizeof directives / sizeof *directives;
    char key[32];
    if (len >= sizeof key) return NULL;
    for (size_t i = 0; i < len; i++) key[i] = (char)tolower((unsigned char)name[i]);
    key[len] = 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(directives[mid].name, key);
        if (c == 0) return &directives[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

bool asm_is_conditional(const char *name, size_t len)
{
    const directive *d = find(name, len);
    return d && (d->fn == d_if || d->fn == d_else || d->fn == d_elseif || d->fn == d_endif);
}

bool asm_directive(isk_asm *a, const char *name, size_t len, const char *args)
{
    if (len > 5 && strncasecmp(name, ".cfi_", 5) == 0) return true;     /* call-frame info: not kept */
    const directive *d = find(name, len);
    if (!d) return false;
    d->fn(a, args, d->arg);
    return true;
}
