/* The vertex-state description (a strict TOML subset) and tensor files (raw, .npy, .csv): the
 * reading and writing half of the IPU vertex runner (isekit/ipu_vertex.h). Nothing here touches
 * a tile, so the parser can be fuzzed alone (fuzz/ipu_state_fuzz.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/half.h"
#include "base/num.h"
#include "isekit/ipu_vertex.h"

/* ---- types ------------------------------------------------------------------------------------- */

static const char *const dtype_names[IPU_NDTYPES] = { "f32", "f16", "i32", "u32", "i16", "u16", "i8", "u8", "bool" };
static const unsigned dtype_sizes[IPU_NDTYPES] = { 4, 2, 4, 4, 2, 2, 1, 1, 1 };
/* NumPy's descr of each type, without the byte-order character */
static const char *const dtype_npy[IPU_NDTYPES] = { "f4", "f2", "i4", "u4", "i2", "u2", "i1", "u1", "b1" };
static const char *const field_names[IPU_NFIELD_KINDS] = { "u32", "i32", "u16", "i16", "u8", "i8", "f32", "f16",
    "one_ptr", "span", "short_span", "scaled_ptr32", "scaled_ptr64", "vector" };

const char *ipu_dtype_name(ipu_dtype t) { return t < IPU_NDTYPES ? dtype_names[t] : "?"; }
unsigned ipu_dtype_size(ipu_dtype t) { return t < IPU_NDTYPES ? dtype_sizes[t] : 0; }
const char *ipu_field_kind_name(ipu_field_kind k) { return k < IPU_NFIELD_KINDS ? field_names[k] : "?"; }

static bool dtype_float(ipu_dtype t) { return t == IPU_F32 || t == IPU_F16; }

/* The length of the line at t (n bytes left): texts here are not NUL-terminated. */
static int line_len(const char *t, size_t n)
{
    const char *nl = memchr(t, '\n', n);
    return (int)(nl ? (size_t)(nl - t) : n);
}

/* The range of an integer type. */
static void dtype_range(ipu_dtype t, int64_t *lo, int64_t *hi)
{
    switch (t) {
    case IPU_I32: *lo = INT32_MIN, *hi = INT32_MAX; break;
    case IPU_U32: *lo = 0, *hi = UINT32_MAX; break;
    case IPU_I16: *lo = INT16_MIN, *hi = INT16_MAX; break;
    case IPU_U16: *lo = 0, *hi = UINT16_MAX; break;
    case IPU_I8: *lo = INT8_MIN, *hi = INT8_MAX; break;
    case IPU_U8: *lo = 0, *hi = UINT8_MAX; break;
    default: *lo = 0, *hi = 1; break;
    }
}

double ipu_tensor_value(ipu_dtype type, const uint8_t *data, uint64_t i)
{
    const uint8_t *p = data + i * ipu_dtype_size(type);
    const uint32_t u = p[0] | (ipu_dtype_size(type) > 1 ? (uint32_t)p[1] << 8 : 0) |
                       (ipu_dtype_size(type) > 2 ? (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0);
    switch (type) {
    case IPU_F32: { float f; memcpy(&f, &u, 4); return f; }
    case IPU_F16: return isk_half_to_double((uint16_t)u);
    case IPU_I32: return (int32_t)u;
    case IPU_I16: return (int16_t)u;
    case IPU_I8: return (int8_t)u;
    default: return u;
    }
}

/* Store one number as element i; why gets the reason it does not fit. */
static bool store_number(ipu_dtype type, uint8_t *data, uint64_t i, bool is_float, int64_t iv, double fv, char *why,
                         size_t cap)
{
    uint32_t u;
    if (dtype_float(type)) {
        const double v = is_float ? fv : (double)iv;
        if (type == IPU_F16) {
            u = isk_half_from_double(v);
        } else {
            float f = (float)v;
            memcpy(&u, &f, 4);
        }
    } else {
        int64_t lo, hi;
        dtype_range(type, &lo, &hi);
        if (is_float) {
            snprintf(why, cap, "%g is not an integer (the tensor is %s)", fv, dtype_names[type]);
            return false;
        }
        if (iv < lo || iv > hi) {
            snprintf(why, cap, "%lld is out of range for %s (%lld to %lld)", (long long)iv, dtype_names[type],
                     (long long)lo, (long long)hi);
            return false;
        }
        u = (uint32_t)iv;
    }
    uint8_t *p = data + i * dtype_sizes[type];
    for (unsigned b = 0; b < dtype_sizes[type]; b++) p[b] = (uint8_t)(u >> 8 * b);
    return true;
}

/* One number of text (an integer as isk_parse_i64 reads it, or a decimal float, inf, nan); end
 * is set past it. */
static bool parse_number(const char *s, size_t n, bool *is_float, int64_t *iv, double *fv, char *why, size_t cap)
{
    char buf[80];
    if (n == 0 || n >= sizeof buf) {
        snprintf(why, cap, n ? "a number of %zu characters" : "a number is missing", n);
        return false;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X' || digits[1] == 'b' || digits[1] == 'B');
    if (!hex && (strpbrk(buf, ".eEn") || strcmp(digits, "inf") == 0)) {
        char *end;
        errno = 0;
        const char *text = buf[0] == '+' ? buf + 1 : buf;
        double v = strcmp(digits, "inf") == 0 ? (buf[0] == '-' ? -INFINITY : INFINITY)
                   : strcmp(digits, "nan") == 0 ? NAN : strtod(text, &end);
        if (strcmp(digits, "inf") != 0 && strcmp(digits, "nan") != 0 &&
            (*end || end == text || strpbrk(buf, "xXpP") || !(buf[0] == '-' || buf[0] == '+' || buf[0] == '.' ||
                                                             (buf[0] >= '0' && buf[0] <= '9')))) {
            snprintf(why, cap, "'%s' is not a number", buf);
            return false;
        }
        *is_float = true, *fv = v, *iv = 0;
        return true;
    }
    *is_float = false;
    if (buf[0] == '-' && !isk_parse_i64(buf, INT64_MIN, INT64_MAX, ISK_UNIT_NONE, iv, why, cap)) return false;
    if (buf[0] != '-') {
        uint64_t u;
        if (!isk_parse_u64(digits, 0, INT64_MAX, ISK_UNIT_NONE, &u, why, cap)) return false;
        *iv = (int64_t)u;
    }
    *fv = (double)*iv;
    return true;
}

/* ---- tensor files --------------------------------------------------------------------------------- */

enum { FMT_RAW, FMT_NPY, FMT_CSV };

static int file_format(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".npy") == 0) return FMT_NPY;
    if (dot && strcmp(dot, ".csv") == 0) return FMT_CSV;
    return FMT_RAW;
}

static int read_npy(const char *path, const uint8_t *b, size_t n, ipu_dtype type, uint64_t *count, uint8_t **data,
                    isk_diag *diag)
{
    if (n < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
        isk_error(diag, NULL, "%s: not a NumPy .npy file (no \\x93NUMPY magic)", path);
        return -1;
    }
    const unsigned major = b[6];
    size_t hlen, at;
    if (major == 1) hlen = b[8] | (size_t)b[9] << 8, at = 10;
    else if (major == 2 || major == 3) {
        if (n < 12) goto short_file;
        hlen = b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24, at = 12;
    } else {
        isk_error(diag, NULL, "%s: .npy version %u.%u is not one we read (1, 2 or 3)", path, major, b[7]);
        return -1;
    }
    if (hlen > n - at) goto short_file;
    char *h = malloc(hlen + 1);
    memcpy(h, b + at, hlen);
    h[hlen] = 0;
    at += hlen;
    /* the header is a Python dict literal: 'descr', 'fortran_order', 'shape' */
    const char *descr = strstr(h, "'descr'"), *fo = strstr(h, "'fortran_order'"), *shape = strstr(h, "'shape'");
    char d[16] = "";
    if (descr && sscanf(descr, "'descr' : '%15[^']'", d) != 1) sscanf(descr, "'descr': '%15[^']'", d);
    const char *want = dtype_npy[type];
    const bool order_ok = d[0] == '<' || d[0] == '|' || (d[0] == '=');
    if (!descr || !order_ok || strcmp(d + 1, want) != 0) {
        isk_error(diag, NULL, "%s: dtype '%s' does not match the tensor's %s (NumPy '<%s'%s)", path, d[0] ? d : "?",
                  dtype_names[type], want, dtype_sizes[type] == 1 ? " or '|'" : "");
        free(h);
        return -1;
    }
    if (!fo || strstr(fo, "True") == fo + strcspn(fo, "TF")) {
        isk_error(diag, NULL, "%s: %s", path, fo ? "Fortran order: save it in C order" : "no 'fortran_order' in the header");
        free(h);
        return -1;
    }
    uint64_t elems = 1;
    const char *p = shape ? strchr(shape, '(') : NULL;
    if (!p) {
        isk_error(diag, NULL, "%s: no 'shape' in the header", path);
        free(h);
        return -1;
    }
    for (p++; *p && *p != ')';) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p) { p++; continue; }
        elems = v && elems > UINT64_MAX / v ? UINT64_MAX : elems * v;
        p = end;
    }
    free(h);
    const uint64_t bytes = elems * dtype_sizes[type];
    if (elems > (n - at) / dtype_sizes[type]) {
        isk_error(diag, NULL, "%s: the header says %llu elements, the file holds %zu bytes of data", path,
                  (unsigned long long)elems, n - at);
        return -1;
    }
    if (*count && elems != *count) {
        isk_error(diag, NULL, "%s holds %llu elements, the tensor has %llu", path, (unsigned long long)elems,
                  (unsigned long long)*count);
        return -1;
    }
    *count = elems;
    *data = calloc(1, bytes ? bytes : 1);
    memcpy(*data, b + at, bytes);
    return 0;
short_file:
    isk_error(diag, NULL, "%s: the .npy header is cut off", path);
    return -1;
}

static int read_csv(const char *path, const char *t, size_t n, ipu_dtype type, uint64_t *count, uint8_t **data,
                    isk_diag *diag)
{
    uint64_t cap = *count ? *count : 16, k = 0;
    uint8_t *out = calloc(cap, dtype_sizes[type]);
    int line = 1;
    size_t line_at = 0;
    for (size_t i = 0; i < n;) {
        const char c = t[i];
        if (c == '\n') { line++, i++, line_at = i; continue; }
        if (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == ';') { i++; continue; }
        if (c == '#') { while (i < n && t[i] != '\n') i++; continue; }
        size_t e = i;
        while (e < n && !strchr(",; \t\r\n#", t[e])) e++;
        bool isf;
        int64_t iv;
        double fv;
        char why[160];
        isk_loc loc = { path, line, (int)(i - line_at) + 1, t + line_at, line_len(t + line_at, n - line_at) };
        if (!parse_number(t + i, e - i, &isf, &iv, &fv, why, sizeof why) ||
            (*count && k >= *count && snprintf(why, sizeof why, "more than the tensor's %llu elements",
                                                (unsigned long long)*count) > 0)) {
            isk_error(diag, &loc, "%s", why);
            free(out);
            return -1;
        }
        if (k == cap) {
            out = realloc(out, (size_t)(cap * 2) * dtype_sizes[type]);
            memset(out + cap * dtype_sizes[type], 0, (size_t)cap * dtype_sizes[type]);
            cap *= 2;
        }
        if (!store_number(type, out, k, isf, iv, fv, why, sizeof why)) {
            isk_error(diag, &loc, "%s", why);
            free(out);
            return -1;
        }
        k++;
        i = e;
    }
    if (*count && k != *count) {
        isk_error(diag, NULL, "%s holds %llu numbers, the tensor has %llu elements", path, (unsigned long long)k,
                  (unsigned long long)*count);
        free(out);
        return -1;
    }
    *count = k;
    *data = out;
    return 0;
}

int ipu_tensor_read(const char *path, ipu_dtype type, uint64_t *count, uint8_t **data, isk_diag *diag)
{
    size_t n;
    uint8_t *raw;
    if (isk_file_read_all(path, &raw, &n, diag) != 0) return -1;
    const char *b = (const char *)raw;
    int rc;
    const int fmt = file_format(path);
    if (fmt == FMT_NPY) {
        rc = read_npy(path, (const uint8_t *)b, n, type, count, data, diag);
    } else if (fmt == FMT_CSV) {
        rc = read_csv(path, b, n, type, count, data, diag);
    } else if (n % dtype_sizes[type] || (*count && n != *count * dtype_sizes[type])) {
        isk_error(diag, NULL, "%s holds %zu bytes: not %s%llu %s elements of %u bytes", path, n,
                  *count ? "" : "a whole number of ", (unsigned long long)(*count ? *count : n / dtype_sizes[type]),
                  dtype_names[type], dtype_sizes[type]);
        rc = -1;
    } else {
        *count = n / dtype_sizes[type];
        *data = calloc(1, n ? n : 1);
        memcpy(*data, b, n);
        rc = 0;
    }
    free(raw);
    return rc;
}

int ipu_tensor_write(const char *path, ipu_dtype type, uint64_t count, const uint8_t *data, isk_diag *diag)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        isk_error(diag, NULL, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    const int fmt = file_format(path);
    if (fmt == FMT_NPY) {
        /* version 1.0: the header padded with blanks to a multiple of 64 bytes, ending in \n */
        char h[128];
        int len = snprintf(h, sizeof h, "{'descr': '%c%s', 'fortran_order': False, 'shape': (%llu,), }",
                           dtype_sizes[type] == 1 ? '|' : '<', dtype_npy[type], (unsigned long long)count);
        const int total = (10 + len + 1 + 63) / 64 * 64;
        fwrite("\x93NUMPY\x01\x00", 1, 8, f);
        fputc((total - 10) & 0xFF, f), fputc((total - 10) >> 8, f);
        fprintf(f, "%s%*s\n", h, total - 10 - len - 1, "");
        fwrite(data, dtype_sizes[type], (size_t)count, f);
    } else if (fmt == FMT_CSV) {
        for (uint64_t i = 0; i < count; i++) {
            const double v = ipu_tensor_value(type, data, i);
            if (dtype_float(type)) fprintf(f, "%.*g\n", type == IPU_F16 ? 6 : 9, v);
            else fprintf(f, "%.0f\n", v);
        }
    } else {
        fwrite(data, dtype_sizes[type], (size_t)count, f);
    }
    if (fclose(f) != 0) {
        isk_error(diag, NULL, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the TOML subset -------------------------------------------------------------------------------- */

enum { V_STR, V_INT, V_FLOAT, V_BOOL, V_ARRAY };
typedef struct tval {
    int type;
    char *s;
    int64_t i;
    double f;
    struct tval *items;
    size_t n;
    int line, col;
} tval;
typedef struct tkey { char *key; tval v; int line, col; bool used; } tkey;
typedef struct ttable { char *name; bool array; tkey *keys; size_t n; int line, col; } ttable;

typedef struct reader {
    const char *file, *t;
    size_t n, i, line_at;
    int line;
    isk_diag *diag;
    bool failed;
    ttable *tables;
    size_t ntables;
} reader;

static void fail_at(reader *r, size_t at, const char *fmt, const char *arg)
{
    if (r->failed) return;
    size_t line_at = r->line_at;
    int line = r->line;
    if (at < line_at) {       /* an array over lines: find at's own line */
        line = 1, line_at = 0;
        for (size_t k = 0; k < at; k++)
            if (r->t[k] == '\n') line++, line_at = k + 1;
    }
    isk_loc loc = { r->file, line, (int)(at - line_at) + 1, r->t + line_at, line_len(r->t + line_at, r->n - line_at) };
    isk_error(r->diag, &loc, fmt, arg);
    r->failed = true;
}

static void skip_blanks(reader *r)
{
    while (r->i < r->n && (r->t[r->i] == ' ' || r->t[r->i] == '\t' || r->t[r->i] == '\r')) r->i++;
}

/* Blanks, comments and newlines (inside arrays). */
static void skip_space(reader *r)
{
    for (;;) {
        skip_blanks(r);
        if (r->i < r->n && r->t[r->i] == '#')
            while (r->i < r->n && r->t[r->i] != '\n') r->i++;
        if (r->i < r->n && r->t[r->i] == '\n') {
            r->i++, r->line++, r->line_at = r->i;
            continue;
        }
        return;
    }
}

static bool bare_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static char *parse_string(reader *r)
{
    const char q = r->t[r->i];
    const size_t start = r->i++;
    size_t cap = 16, len = 0;
    char *s = malloc(cap);
    while (r->i < r->n && r->t[r->i] != q && r->t[r->i] != '\n') {
        char c = r->t[r->i++];
        if (c == '\\' && q == '"') {
            const char e = r->i < r->n ? r->t[r->i++] : 0;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '\\' ? '\\' : e == '"' ? '"' : 0;
            if (!c) {
                fail_at(r, r->i - 2, "%s: an escape we do not read (\\n \\t \\r \\\\ \\\")", "string");
                free(s);
                return NULL;
            }
        } else if ((unsigned char)c < 0x20 && c != '\t') {
            fail_at(r, r->i - 1, "a control character in a %s", "string");
            free(s);
            return NULL;
        }
        if (len + 2 > cap) s = realloc(s, cap *= 2);
        s[len++] = c;
    }
    if (r->i >= r->n || r->t[r->i] != q) {
        fail_at(r, start, "%s: no closing quote on this line", "string");
        free(s);
        return NULL;
    }
    r->i++;
    s[len] = 0;
    return s;
}

static void free_value(tval *v)
{
    free(v->s);
    for (size_t k = 0; k < v->n; k++) free_value(&v->items[k]);
    free(v->items);
}

static bool parse_value(reader *r, tval *v, int depth)
{
    memset(v, 0, sizeof *v);
    v->line = r->line, v->col = (int)(r->i - r->line_at) + 1;
    if (r->i >= r->n || r->t[r->i] == '\n' || r->t[r->i] == '#') {
        fail_at(r, r->i, "%s", "a value is missing");
        return false;
    }
    const char c = r->t[r->i];
    if (c == '"' || c == '\'') {
        v->type = V_STR;
        return (v->s = parse_string(r)) != NULL;
    }
    if (c == '[') {
        if (depth >= 4) {
            fail_at(r, r->i, "%s", "arrays nested more than 4 deep");
            return false;
        }
        v->type = V_ARRAY;
        r->i++;
        size_t cap = 0;
        for (;;) {
            skip_space(r);
            if (r->i < r->n && r->t[r->i] == ']') { r->i++; return true; }
            if (v->n == cap) v->items = realloc(v->items, (cap = cap ? 2 * cap : 8) * sizeof *v->items);
            if (!parse_value(r, &v->items[v->n], depth + 1)) {
                free_value(&v->items[v->n]);        /* what the failed item had read */
                return false;
            }
            v->n++;
            skip_space(r);
            if (r->i < r->n && r->t[r->i] == ',') { r->i++; continue; }
            if (r->i < r->n && r->t[r->i] == ']') { r->i++; return true; }
            fail_at(r, r->i, "%s", r->i < r->n ? "expected ',' or ']' in the array" : "the array is not closed");
            return false;
        }
    }
    if (c == '{') {
        fail_at(r, r->i, "%s", "inline tables are not supported: use a [section]");
        return false;
    }
    size_t e = r->i;
    while (e < r->n && (bare_char(r->t[e]) || r->t[e] == '.' || r->t[e] == '+')) e++;
    if (e - r->i == 4 && memcmp(r->t + r->i, "true", 4) == 0) { v->type = V_BOOL, v->i = 1, r->i = e; return true; }
    if (e - r->i == 5 && memcmp(r->t + r->i, "false", 5) == 0) { v->type = V_BOOL, r->i = e; return true; }
    bool isf;
    char why[160];
    if (!parse_number(r->t + r->i, e - r->i, &isf, &v->i, &v->f, why, sizeof why)) {
        fail_at(r, r->i, "%s", why);
        return false;
    }
    v->type = isf ? V_FLOAT : V_INT;
    r->i = e;
    return true;
}

static ttable *add_table(reader *r, char *name, bool array, int line, int col)
{
    r->tables = realloc(r->tables, (r->ntables + 1) * sizeof *r->tables);
    ttable *t = &r->tables[r->ntables++];
    *t = (ttable){ name, array, NULL, 0, line, col };
    return t;
}

/* A header's name: bare keys or quoted strings joined by dots ("tensor.a"). */
static char *parse_name(reader *r, bool dots)
{
    size_t cap = 32, len = 0;
    char *s = malloc(cap);
    for (;;) {
        skip_blanks(r);
        char *part = NULL;
        if (r->i < r->n && (r->t[r->i] == '"' || r->t[r->i] == '\'')) {
            if (!(part = parse_string(r))) break;
        } else {
            size_t e = r->i;
            while (e < r->n && bare_char(r->t[e])) e++;
            if (e == r->i) {
                fail_at(r, r->i, "%s", "a name is missing");
                break;
            }
            part = malloc(e - r->i + 1);
            memcpy(part, r->t + r->i, e - r->i);
            part[e - r->i] = 0;
            r->i = e;
        }
        const size_t pl = strlen(part);
        while (len + pl + 2 > cap) s = realloc(s, cap *= 2);
        memcpy(s + len, part, pl + 1);
        len += pl;
        free(part);
        skip_blanks(r);
        if (r->i < r->n && r->t[r->i] == '.') {
            if (!dots) {
                fail_at(r, r->i, "%s", "dotted keys are not supported: use a [section]");
                break;
            }
            s[len++] = '.', s[len] = 0;
            r->i++;
            continue;
        }
        return s;
    }
    free(s);
    return NULL;
}

static void free_tables(ttable *tables, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        for (size_t j = 0; j < tables[k].n; j++) {
            free(tables[k].keys[j].key);
            free_value(&tables[k].keys[j].v);
        }
        free(tables[k].keys);
        free(tables[k].name);
    }
    free(tables);
}

static bool parse_toml(reader *r)
{
    ttable *cur = add_table(r, calloc(1, 1), false, 1, 1);
    while (r->i < r->n && !r->failed) {
        skip_space(r);
        if (r->i >= r->n) break;
        const int line = r->line, col = (int)(r->i - r->line_at) + 1;
        const size_t start = r->i;
        if (r->t[r->i] == '[') {
            const bool array = r->i + 1 < r->n && r->t[r->i + 1] == '[';
            r->i += array ? 2 : 1;
            char *name = parse_name(r, true);
            if (!name) return false;
            if (r->i + (array ? 1 : 0) >= r->n || r->t[r->i] != ']' || (array && r->t[r->i + 1] != ']')) {
                free(name);
                fail_at(r, r->i, "expected '%s' after the section name", array ? "]]" : "]");
                return false;
            }
            r->i += array ? 2 : 1;
            for (size_t k = 1; k < r->ntables && !array; k++)
                if (!r->tables[k].array && strcmp(r->tables[k].name, name) == 0) {
                    fail_at(r, start, "section [%s] appears twice", name);
                    free(name);
                    return false;
                }
            cur = add_table(r, name, array, line, col);
        } else {
            char *key = parse_name(r, false);
            if (!key) return false;
            skip_blanks(r);
            if (r->i >= r->n || r->t[r->i] != '=') {
                fail_at(r, r->i, "expected '=' after '%s'", key);
                free(key);
                return false;
            }
            r->i++;
            skip_blanks(r);
            for (size_t k = 0; k < cur->n; k++)
                if (strcmp(cur->keys[k].key, key) == 0) {
                    fail_at(r, start, "'%s' is given twice in this section", key);
                    free(key);
                    return false;
                }
            cur->keys = realloc(cur->keys, (cur->n + 1) * sizeof *cur->keys);
            tkey *k = &cur->keys[cur->n];
            *k = (tkey){ key, { 0 }, line, col, false };
            const bool ok = parse_value(r, &k->v, 0);
            cur->n++;
            if (!ok) return false;
        }
        skip_blanks(r);
        if (r->i < r->n && r->t[r->i] == '#')
            while (r->i < r->n && r->t[r->i] != '\n') r->i++;
        if (r->i < r->n && r->t[r->i] != '\n') {
            fail_at(r, r->i, "%s", "unexpected text after the value (one `key = value` per line)");
            return false;
        }
    }
    return !r->failed;
}

/* ---- the description --------------------------------------------------------------------------------- */

static void key_error(reader *r, const tkey *k, const tval *v, const char *fmt, const char *arg)
{
    if (r->failed) return;
    const int line = v ? v->line : k->line, col = v ? v->col : k->col;
    size_t at = 0;
    for (int l = 1; l < line && at < r->n; at++)
        if (r->t[at] == '\n') l++;
    isk_loc loc = { r->file, line, col, r->t + at, line_len(r->t + at, r->n - at) };
    char msg[400];
    snprintf(msg, sizeof msg, fmt, arg);
    isk_error(r->diag, &loc, "%s: %s", k->key, msg);
    r->failed = true;
}

static tkey *get_key(ttable *t, const char *name)
{
    for (size_t k = 0; k < t->n; k++)
        if (strcmp(t->keys[k].key, name) == 0) return t->keys[k].used = true, &t->keys[k];
    return NULL;
}

static const char *get_string(reader *r, ttable *t, const char *name)
{
    tkey *k = get_key(t, name);
    if (!k) return NULL;
    if (k->v.type != V_STR) key_error(r, k, &k->v, "%s", "must be a string in quotes");
    return k->v.type == V_STR ? k->v.s : NULL;
}

static bool get_int(reader *r, ttable *t, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
    tkey *k = get_key(t, name);
    if (!k) return false;
    char range[80];
    snprintf(range, sizeof range, "must be an integer from %lld to %lld", (long long)lo, (long long)hi);
    if (k->v.type != V_INT || k->v.i < lo || k->v.i > hi) {
        key_error(r, k, &k->v, "%s", range);
        return false;
    }
    *out = k->v.i;
    return true;
}

static int pick_word(reader *r, ttable *t, const char *name, const char *const *words, int nwords)
{
    tkey *k = get_key(t, name);
    if (!k) return -1;
    if (k->v.type == V_STR)
        for (int w = 0; w < nwords; w++)
            if (strcmp(k->v.s, words[w]) == 0) return w;
    char list[300] = "";
    for (int w = 0; w < nwords; w++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", w ? ", " : "", words[w]);
    key_error(r, k, &k->v, "must be one of %s", list);
    return -2;
}

static void check_unused(reader *r, ttable *t, const char *what)
{
    for (size_t k = 0; k < t->n && !r->failed; k++)
        if (!t->keys[k].used) key_error(r, &t->keys[k], NULL, "not a key of %s", what);
}

static char *dup(const char *s) { return s ? strcpy(malloc(strlen(s) + 1), s) : NULL; }

/* `values` (numbers) into a tensor of `type`: fills its data. */
static bool fill_values(reader *r, tkey *k, ipu_tensor *t)
{
    const tval *v = &k->v;
    const size_t n = v->type == V_ARRAY ? v->n : 1;
    if (!n) {
        key_error(r, k, v, "%s", "is empty");
        return false;
    }
    if (t->count && n != t->count && v->type == V_ARRAY) {
        char msg[80];
        snprintf(msg, sizeof msg, "%zu values for %llu elements", n, (unsigned long long)t->count);
        key_error(r, k, v, "%s", msg);
        return false;
    }
    if (!t->count) t->count = n;
    if (t->count > (1u << 20) / dtype_sizes[t->type]) {
        key_error(r, k, v, "%s", "more values than a tile's memory holds");
        return false;
    }
    t->data = calloc((size_t)t->count + 1, dtype_sizes[t->type]);
    for (uint64_t i = 0; i < t->count; i++) {
        const tval *e = v->type == V_ARRAY ? &v->items[i] : v;   /* a single value fills the tensor */
        char why[160];
        if (e->type != V_INT && e->type != V_FLOAT && e->type != V_BOOL) {
            key_error(r, k, e, "%s", "must be numbers");
            return false;
        }
        if (!store_number(t->type, t->data, i, e->type == V_FLOAT, e->i, e->f, why, sizeof why)) {
            key_error(r, k, e, "%s", why);
            return false;
        }
    }
    t->has_values = true;
    return true;
}

static void read_tensor(reader *r, ipu_state_desc *d, ttable *tt, const char *name)
{
    d->tensors = realloc(d->tensors, (d->ntensors + 1) * sizeof *d->tensors);
    ipu_tensor *t = &d->tensors[d->ntensors++];
    *t = (ipu_tensor){ .name = dup(name), .region = 1, .align = 8, .element = -1, .address = -1, .line = tt->line,
                       .col = tt->col };
    const int type = pick_word(r, tt, "type", dtype_names, IPU_NDTYPES);
    if (type == -1) {
        isk_loc loc = { r->file, tt->line, tt->col, NULL, 0 };
        if (!r->failed) isk_error(r->diag, &loc, "[tensor.%s] needs a type (f32, f16, i32, u32, i16, u16, i8, u8, bool)", name);
        r->failed = true;
    }
    if (type < 0) return;
    t->type = (ipu_dtype)type;
    int64_t v;
    /* no tensor is larger than a tile's memory (624 KiB on ipu2) */
    if (get_int(r, tt, "size", 1, (1 << 20) / dtype_sizes[t->type], &v)) t->count = (uint64_t)v;
    if (get_int(r, tt, "region", 0, 1, &v)) t->region = (int)v;
    if (get_int(r, tt, "align", 1, 1 << 16, &v)) {
        if (v & (v - 1)) key_error(r, get_key(tt, "align"), NULL, "%s", "must be a power of two");
        t->align = (uint32_t)v;
    }
    if (get_int(r, tt, "element", 0, 12, &v)) t->element = (int)v;
    if (get_int(r, tt, "address", 0, 0x1FFFFF, &v)) t->address = v;
    t->input = dup(get_string(r, tt, "file"));
    t->output = dup(get_string(r, tt, "output"));
    tkey *values = get_key(tt, "values");
    if (values && t->input) key_error(r, values, NULL, "%s", "give `values` or `file`, not both");
    if (values && !r->failed) fill_values(r, values, t);
    if (!values && !t->input && !r->failed) {
        if (!t->count) {
            isk_loc loc = { r->file, tt->line, tt->col, NULL, 0 };
            isk_error(r->diag, &loc, "[tensor.%s] needs `size`, `values` or `file`", name);
            r->failed = true;
            return;
        }
        t->data = calloc((size_t)t->count + 1, dtype_sizes[t->type]);
    }
    check_unused(r, tt, "a [tensor] (type size values file output region align element address)");
}

static size_t find_tensor(reader *r, ipu_state_desc *d, tkey *k, const tval *v)
{
    if (v->type != V_STR) {
        key_error(r, k, v, "%s", "must name a tensor in quotes");
        return SIZE_MAX;
    }
    for (size_t i = 0; i < d->ntensors; i++)
        if (strcmp(d->tensors[i].name, v->s) == 0) return i;
    key_error(r, k, v, "no [tensor.%s] in this description", v->s);
    return SIZE_MAX;
}

static void read_field(reader *r, ipu_state_desc *d, ttable *ft)
{
    d->fields = realloc(d->fields, (d->nfields + 1) * sizeof *d->fields);
    ipu_field *f = &d->fields[d->nfields++];
    *f = (ipu_field){ .count = -1, .counted = true, .line = ft->line, .col = ft->col };
    const int kind = pick_word(r, ft, "kind", field_names, IPU_NFIELD_KINDS);
    if (kind == -1 && !r->failed) {
        isk_loc loc = { r->file, ft->line, ft->col, NULL, 0 };
        isk_error(r->diag, &loc, "[[field]] needs a kind (u32 i32 u16 i16 u8 i8 f32 f16 one_ptr span short_span "
                  "scaled_ptr32 scaled_ptr64 vector)");
        r->failed = true;
    }
    if (kind < 0) return;
    f->kind = (ipu_field_kind)kind;
    if (f->kind <= IPU_FIELD_F16) {
        tkey *k = get_key(ft, "value");
        if (!k) k = get_key(ft, "values");
        if (!k) {
            isk_loc loc = { r->file, ft->line, ft->col, NULL, 0 };
            isk_error(r->diag, &loc, "a %s field needs a value (or values)", field_names[kind]);
            r->failed = true;
            return;
        }
        const size_t n = k->v.type == V_ARRAY ? k->v.n : 1;
        if (!n) key_error(r, k, &k->v, "%s", "is empty");
        f->fvalues = calloc(n + 1, sizeof *f->fvalues);
        f->ivalues = calloc(n + 1, sizeof *f->ivalues);
        f->nvalues = n;
        static const ipu_dtype as[] = { IPU_U32, IPU_I32, IPU_U16, IPU_I16, IPU_U8, IPU_I8, IPU_F32, IPU_F16 };
        for (size_t i = 0; i < n && !r->failed; i++) {
            const tval *e = k->v.type == V_ARRAY ? &k->v.items[i] : &k->v;
            uint8_t scratch[4];
            char why[160];
            if (e->type != V_INT && e->type != V_FLOAT && e->type != V_BOOL) key_error(r, k, e, "%s", "must be numbers");
            else if (!store_number(as[kind], scratch, 0, e->type == V_FLOAT, e->i, e->f, why, sizeof why))
                key_error(r, k, e, "%s", why);
            f->fvalues[i] = e->type == V_FLOAT ? e->f : (double)e->i;
            f->ivalues[i] = e->i;
        }
    } else if (f->kind == IPU_FIELD_VECTOR) {
        static const char *const of[] = { "one_ptr", "span", "short_span" };
        const int o = pick_word(r, ft, "of", of, 3);
        f->of = o == 1 ? IPU_FIELD_SPAN : o == 2 ? IPU_FIELD_SHORT_SPAN : IPU_FIELD_ONE_PTR;
        tkey *c = get_key(ft, "counted");
        if (c && c->v.type != V_BOOL) key_error(r, c, &c->v, "%s", "must be true or false");
        if (c) f->counted = c->v.i != 0;
        tkey *k = get_key(ft, "tensors");
        if (!k || k->v.type != V_ARRAY || !k->v.n) {
            if (k) key_error(r, k, &k->v, "%s", "must be an array of tensor names");
            else if (!r->failed) {
                isk_loc loc = { r->file, ft->line, ft->col, NULL, 0 };
                isk_error(r->diag, &loc, "a vector field needs `tensors = [\"a\", ...]`");
                r->failed = true;
            }
            return;
        }
        f->tensors = calloc(k->v.n, sizeof *f->tensors);
        for (size_t i = 0; i < k->v.n && !r->failed; i++) f->tensors[f->ntensors++] = find_tensor(r, d, k, &k->v.items[i]);
    } else {
        tkey *k = get_key(ft, "tensor");
        if (!k) {
            isk_loc loc = { r->file, ft->line, ft->col, NULL, 0 };
            if (!r->failed) isk_error(r->diag, &loc, "a %s field needs `tensor = \"NAME\"`", field_names[kind]);
            r->failed = true;
            return;
        }
        f->tensors = calloc(1, sizeof *f->tensors);
        f->tensors[0] = find_tensor(r, d, k, &k->v);
        f->ntensors = 1;
        int64_t v;
        if ((f->kind == IPU_FIELD_SPAN || f->kind == IPU_FIELD_SHORT_SPAN) &&
            get_int(r, ft, "count", 0, f->kind == IPU_FIELD_SPAN ? UINT32_MAX : 0xFFF, &v))
            f->count = v;
    }
    check_unused(r, ft, "this [[field]] (kind, value(s), tensor(s), of, counted, count)");
}

void ipu_state_free(ipu_state_desc *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->ntensors; i++) {
        free(d->tensors[i].name), free(d->tensors[i].data), free(d->tensors[i].input), free(d->tensors[i].output);
    }
    for (size_t i = 0; i < d->nfields; i++) free(d->fields[i].tensors), free(d->fields[i].fvalues), free(d->fields[i].ivalues);
    free(d->tensors), free(d->fields), free(d->file), free(d->vertex), free(d->chip);
    free(d);
}

ipu_state_desc *ipu_state_parse(const char *file, const char *text, size_t len, isk_diag *diag)
{
    reader r = { .file = file, .t = text, .n = len, .line = 1, .diag = diag };
    ipu_state_desc *d = calloc(1, sizeof *d);
    d->file = dup(file);
    d->stack = 2048;
    if (memchr(text, 0, len)) {
        isk_error(diag, NULL, "%s: not a text file (a NUL byte)", file);
        r.failed = true;
    }
    if (!r.failed && parse_toml(&r)) {
        ttable *root = &r.tables[0];
        d->vertex = dup(get_string(&r, root, "vertex"));
        static const char *const kinds[] = { "Vertex", "MultiVertex", "SupervisorVertex" };
        const int kind = pick_word(&r, root, "kind", kinds, 3);
        if (kind >= 0) d->kind = (ipu_vertex_kind)kind, d->has_kind = true;
        static const char *const chips[] = { "ipu1", "ipu2" };
        const int chip = pick_word(&r, root, "chip", chips, 2);
        if (chip >= 0) d->chip = dup(chips[chip]);
        int64_t v;
        if (get_int(&r, root, "stack", 0, 0x10000, &v)) {
            if (v % 8) key_error(&r, get_key(root, "stack"), NULL, "%s", "must be a multiple of 8");
            d->stack = (uint32_t)v;
        }
        check_unused(&r, root, "the description (vertex, kind, chip, stack, [tensor.NAME], [[field]])");
        uint64_t bytes = 0;
        for (size_t k = 1; k < r.ntables && !r.failed; k++) {
            ttable *t = &r.tables[k];
            isk_loc loc = { file, t->line, t->col, NULL, 0 };
            if (t->array && strcmp(t->name, "field") == 0) read_field(&r, d, t);
            else if (!t->array && strncmp(t->name, "tensor.", 7) == 0 && t->name[7] && !strchr(t->name + 7, '.')) {
                for (size_t i = 0; i < d->ntensors; i++)
                    if (strcmp(d->tensors[i].name, t->name + 7) == 0) {
                        isk_error(diag, &loc, "tensor '%s' is described twice", t->name + 7);
                        r.failed = true;
                    }
                if (!r.failed) read_tensor(&r, d, t, t->name + 7);
                /* checked as they come, so that a description cannot make us allocate much */
                bytes += d->tensors[d->ntensors - 1].count * dtype_sizes[d->tensors[d->ntensors - 1].type];
                if (!r.failed && bytes > 1u << 20) {
                    isk_error(diag, &loc, "the tensors take %llu bytes, more than a tile's memory", (unsigned long long)bytes);
                    r.failed = true;
                }
            } else {
                isk_error(diag, &loc, "[%s%s%s]: not a section of a vertex state ([tensor.NAME] or [[field]])",
                          t->array ? "[" : "", t->name, t->array ? "]" : "");
                r.failed = true;
            }
        }
    }
    free_tables(r.tables, r.ntables);
    if (r.failed) {
        ipu_state_free(d);
        return NULL;
    }
    return d;
}

ipu_state_desc *ipu_state_read(const char *path, isk_diag *diag)
{
    size_t n;
    char *text;
    if (isk_file_read_source(path, "a vertex-state description", &text, &n, diag) != 0) return NULL;
    ipu_state_desc *d = ipu_state_parse(path, text, n, diag);
    free(text);
    return d;
}

static char *join(const char *dir, const char *path)
{
    if (!dir || !*dir || path[0] == '/') return dup(path);
    char *s = malloc(strlen(dir) + strlen(path) + 2);
    sprintf(s, "%s/%s", dir, path);
    return s;
}

int ipu_state_load_tensors(ipu_state_desc *d, const char *dir, isk_diag *diag)
{
    int rc = 0;
    for (size_t i = 0; i < d->ntensors; i++) {
        ipu_tensor *t = &d->tensors[i];
        if (!t->input) continue;
        char *path = join(dir, t->input);
        uint8_t *data = NULL;
        uint64_t count = t->count;
        if (ipu_tensor_read(path, t->type, &count, &data, diag) != 0) {
            isk_loc loc = { d->file, t->line, t->col, NULL, 0 };
            isk_note(diag, &loc, "tensor '%s' (%s) reads it", t->name, dtype_names[t->type]);
            rc = -1;
        } else if (!count) {
            isk_error(diag, NULL, "%s holds no elements (tensor '%s')", path, t->name);
            free(data);
            rc = -1;
        } else {
            free(t->data);
            t->data = realloc(data, (size_t)count * dtype_sizes[t->type] + 1);
            t->count = count;
        }
        free(path);
    }
    return rc;
}

int ipu_state_write_outputs(const ipu_state_desc *d, const char *dir, isk_diag *diag)
{
    int rc = 0;
    for (size_t i = 0; i < d->ntensors; i++) {
        const ipu_tensor *t = &d->tensors[i];
        if (!t->output) continue;
        char *path = join(dir, t->output);
        if (ipu_tensor_write(path, t->type, t->count, t->data, diag) != 0) rc = -1;
        free(path);
    }
    return rc;
}
