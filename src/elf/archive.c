#include "elf/archive.h"
#include "elf/elf_file.h"
#include "elf/elf_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"

#define AR_MAGIC "!<arch>\n"
#define AR_HDR 60

int isk_is_archive(const void *data, size_t size)
{
    return size >= 8 && memcmp(data, AR_MAGIC, 8) == 0;
}

__attribute__((format(printf, 3, 4)))
static int ar_fail(isk_diag *d, const char *file, const char *fmt, ...)
{
    isk_loc loc = { .file = file };
    va_list ap;
    va_start(ap, fmt);
    isk_diag_vreport(d, ISK_ERROR, &loc, fmt, ap);
    va_end(ap);
    return -1;
}

/* A decimal header field: digits, then only spaces. */
static int parse_dec(const uint8_t *f, size_t w, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < w && f[i] >= '0' && f[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10) return -1;
        v = v * 10 + (uint64_t)(f[i] - '0');
    }
    if (i == 0) return -1;
    for (; i < w; i++)
        if (f[i] != ' ') return -1;
    *out = v;
    return 0;
}

/* Member names end up in messages: keep them printable. */
static char *clean_name(const uint8_t *s, size_t n)
{
    char *r = isk_xstrndup((const char *)s, n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)r[i] < 0x20 || (unsigned char)r[i] >= 0x7f) r[i] = '?';
    return r;
}

static int sym_cmp(const void *a, const void *b)
{
    const isk_ar_symbol *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->member > y->member) - (x->member < y->member);
}

static long member_at(const isk_archive *ar, uint64_t header_offset)
{
    size_t lo = 0, hi = ar->members.len;           /* members are in file order */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint64_t m = ar->members.data[mid].header_offset;
        if (m == header_offset) return (long)mid;
        if (m < header_offset) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static int read_index(isk_archive *ar, const uint8_t *p, size_t size, unsigned w, isk_diag *d)
{
    const char *f = ar->filename;
    if (size < w) return ar_fail(d, f, "symbol index: %zu bytes, too short for its count", size);
    uint64_t count = isk_get_uint(p, w, 1);
    if (count > (size - w) / w)
        return ar_fail(d, f, "symbol index: %llu entries do not fit in its %zu bytes", (unsigned long long)count, size);
    const uint8_t *names = p + w + count * w, *end = p + size;
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *nul = memchr(names, 0, (size_t)(end - names));
        if (!nul) return ar_fail(d, f, "symbol index: name of entry %llu is missing or not terminated", (unsigned long long)i);
        uint64_t off = isk_get_uint(p + w + i * w, w, 1);
        long m = member_at(ar, off);
        if (m < 0)
            return ar_fail(d, f, "symbol index: entry '%s' points to offset 0x%llx, where no member starts",
                           (const char *)names, (unsigned long long)off);
        VEC_PUSH(&ar->symbols, (isk_ar_symbol){ clean_name(names, (size_t)(nul - names)), (uint32_t)m });
        names = nul + 1;
    }
    return 0;
}

static void build_index(isk_archive *ar)
{
    for (size_t i = 0; i < ar->members.len; i++) {
        const isk_ar_member *m = &ar->members.data[i];
        if (m->size < 4 || memcmp(m->data, ELFMAG, SELFMAG) != 0) continue;
        isk_diag quiet;
        isk_diag_init(&quiet);
        isk_diag_buffer sink;
        isk_diag_capture(&quiet, &sink);
        isk_obj *o = isk_elf_read_mem(m->data, m->size, m->name, &quiet);
        isk_diag_buffer_free(&sink);
        if (!o) continue;                        /* reported when (if) the member is loaded */
        for (size_t k = 1; k < o->syms.len; k++) {
            const isk_symbol *s = &o->syms.data[k];
            if (s->bind != STB_LOCAL && s->shndx != ISK_SHN_UNDEF && s->name[0])
                VEC_PUSH(&ar->symbols, (isk_ar_symbol){ isk_xstrdup(s->name), (uint32_t)i });
        }
        isk_obj_free(o);
    }
}

isk_archive *isk_archive_read_mem(const void *data, size_t size, const char *filename, isk_diag *d)
{
    const char *f = filename && *filename ? filename : "<memory>";
    if (!isk_is_archive(data, size)) {
        ar_fail(d, f, "not an archive (bad magic)");
        return NULL;
    }
    isk_archive *ar = isk_xcalloc(1, sizeof *ar);
    ar->filename = isk_xstrdup(f);
    ar->buf = isk_xrealloc(NULL, size);
    memcpy(ar->buf, data, size);
    ar->len = size;
    f = ar->filename;
    const uint8_t *b = ar->buf;
    const uint8_t *index = NULL, *longnames = NULL;
    size_t index_size = 0, longnames_size = 0;
    unsigned index_w = 4;
    size_t pos = 8;
    while (pos < size) {
        if (size - pos < AR_HDR) {
            ar_fail(d, f, "truncated member header at offset 0x%zx (%zu bytes left, a header needs %d)", pos,
                    size - pos, AR_HDR);
            goto bad;
        }
        const uint8_t *h = b + pos;
        uint64_t msize;
        if (h[58] != '`' || h[59] != '\n') {
            ar_fail(d, f, "member header at offset 0x%zx: bad terminator (not \"`\\n\")", pos);
            goto bad;
        }
        if (parse_dec(h + 48, 10, &msize) != 0) {
            ar_fail(d, f, "member header at offset 0x%zx: bad size field '%.10s'", pos, (const char *)h + 48);
            goto bad;
        }
        if (msize > size - pos - AR_HDR) {
            ar_fail(d, f, "member at offset 0x%zx: size %llu extends past the end of the archive (%zu bytes)", pos,
                    (unsigned long long)msize, size);
            goto bad;
        }
        const uint8_t *body = h + AR_HDR;
        size_t bsize = (size_t)msize;
        char *name = NULL;
        if (memcmp(h, "/               ", 16) == 0 || memcmp(h, "/SYM64/         ", 16) == 0) {
            if (index) {
                ar_fail(d, f, "member at offset 0x%zx: a second symbol index", pos);
                goto bad;
            }
            index = body;
            index_size = bsize;
            index_w = h[1] == 'S' ? 8 : 4;
        } else if (memcmp(h, "//              ", 16) == 0) {
            longnames = body;
            longnames_size = bsize;
        } else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') {
            uint64_t off;
            if (parse_dec(h + 1, 15, &off) != 0 || !longnames || off >= longnames_size) {
                ar_fail(d, f, "member at offset 0x%zx: long name reference '%.16s' is not in the name table", pos,
                        (const char *)h);
                goto bad;
            }
            const uint8_t *s = longnames + off, *e = memchr(s, '\n', longnames_size - (size_t)off);
            if (!e) {
                ar_fail(d, f, "member at offset 0x%zx: long name at table offset %llu is not terminated", pos,
                        (unsigned long long)off);
                goto bad;
            }
            size_t len = (size_t)(e - s);
            if (len && s[len - 1] == '/') len--;
            name = clean_name(s, len);
        } else if (memcmp(h, "#1/", 3) == 0) {         /* BSD: the name precedes the data */
            uint64_t len;
            if (parse_dec(h + 3, 13, &len) != 0 || len > bsize) {
                ar_fail(d, f, "member at offset 0x%zx: bad BSD long name '%.16s'", pos, (const char *)h);
                goto bad;
            }
            const uint8_t *nul = memchr(body, 0, (size_t)len);
            name = clean_name(body, nul ? (size_t)(nul - body) : (size_t)len);
            body += len;
            bsize -= (size_t)len;
        } else {
            size_t len = 0;
            while (len < 16 && h[len] != '/') len++;
            if (len == 16) while (len && h[len - 1] == ' ') len--;
            name = clean_name(h, len);
        }
        if (name) {
            if (!name[0]) {
                free(name);
                ar_fail(d, f, "member at offset 0x%zx has an empty name", pos);
                goto bad;
            }
            VEC_PUSH(&ar->members, (isk_ar_member){ name, body, bsize, pos });
        }
        pos += AR_HDR + (size_t)msize;
        if (pos & 1) pos++;                               /* members are 2-aligned */
    }
    if (index) {
        if (read_index(ar, index, index_size, index_w, d) != 0) goto bad;
    } else {
        build_index(ar);
    }
    if (ar->symbols.len) qsort(ar->symbols.data, ar->symbols.len, sizeof *ar->symbols.data, sym_cmp);
    return ar;
bad:
    isk_archive_free(ar);
    return NULL;
}

isk_archive *isk_archive_read_file(const char *path, isk_diag *d)
{
    uint8_t *buf;
    size_t n;
    if (isk_file_read_all(path, &buf, &n, d) != 0) return NULL;
    isk_archive *ar = isk_archive_read_mem(buf, n, path, d);
    free(buf);
    return ar;
}

void isk_archive_free(isk_archive *ar)
{
    if (!ar) return;
    for (size_t i = 0; i < ar->members.len; i++) free(ar->members.data[i].name);
    for (size_t i = 0; i < ar->symbols.len; i++) free(ar->symbols.data[i].name);
    VEC_FREE(&ar->members);
    VEC_FREE(&ar->symbols);
    free(ar->buf);
    free(ar->filename);
    free(ar);
}

long isk_archive_find(const isk_archive *ar, const char *symbol)
{
    size_t lo = 0, hi = ar->symbols.len;             /* first entry >= symbol */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(ar->symbols.data[mid].name, symbol) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < ar->symbols.len && strcmp(ar->symbols.data[lo].name, symbol) == 0) return ar->symbols.data[lo].member;
    return -1;
}

isk_obj *isk_archive_member_obj(const isk_archive *ar, size_t i, isk_diag *d)
{
    if (i >= ar->members.len) {
        ar_fail(d, ar->filename, "no member %zu (the archive has %zu)", i, ar->members.len);
        return NULL;
    }
    const isk_ar_member *m = &ar->members.data[i];
    char *name = isk_xasprintf("%s(%s)", ar->filename, m->name);
    isk_obj *o = isk_elf_read_mem(m->data, m->size, name, d);
    free(name);
    return o;
}

/* ---- writing ---- */

typedef VEC(uint8_t) bytes;
typedef struct ar_wsym { char *name; size_t member; } ar_wsym;

static void put(bytes *b, const void *p, size_t n)
{
    VEC_RESERVE(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

/* Callers keep names within 16 characters and sizes below 4 GiB (10 digits). */
static void put_header(bytes *b, const char *name, uint64_t size, const char *mode)
{
    char h[128];
    snprintf(h, sizeof h, "%-16.16s%-12s%-6s%-6s%-8s%-10llu`\n", name, "0", "0", "0", mode, (unsigned long long)size);
    put(b, h, AR_HDR);
}

static void pad2(bytes *b)
{
    if (b->len & 1) put(b, "\n", 1);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int isk_archive_write_mem(const isk_ar_input *m, size_t n, uint8_t **out, size_t *size, isk_diag *d)
{
    /* Symbols of every member. */
    VEC(ar_wsym) syms = {0};
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        const char *bn = base_name(m[i].name);
        if (!bn[0]) {
            ar_fail(d, m[i].name, "archive member without a file name");
            goto out;
        }
        isk_obj *o = isk_elf_read_mem(m[i].data, m[i].size, m[i].name, d);
        if (!o) goto out;
        for (size_t k = 1; k < o->syms.len; k++) {
            const isk_symbol *s = &o->syms.data[k];
            if (s->bind != STB_LOCAL && s->shndx != ISK_SHN_UNDEF && s->name[0])
                VEC_PUSH(&syms, (ar_wsym){ isk_xstrdup(s->name), i });
        }
        isk_obj_free(o);
    }
    /* Long names table: "name/\n" for every name that does not fit 15 characters + '/'. */
    bytes longnames = {0};
    size_t *long_off = isk_xcalloc(n + 1, sizeof *long_off);
    for (size_t i = 0; i < n; i++) {
        const char *bn = base_name(m[i].name);
        if (strlen(bn) <= 15) continue;
        long_off[i] = longnames.len + 1;            /* +1 so that 0 means "short" */
        put(&longnames, bn, strlen(bn));
        put(&longnames, "/\n", 2);
    }
    size_t index_size = 0;
    if (syms.len) {
        index_size = 4 + 4 * syms.len;
        for (size_t i = 0; i < syms.len; i++) index_size += strlen(syms.data[i].name) + 1;
    }
    /* Member header offsets, for the index. */
    uint64_t off = 8;
    if (syms.len) off += AR_HDR + index_size + (index_size & 1);
    if (longnames.len) off += AR_HDR + longnames.len + (longnames.len & 1);
    uint64_t *member_off = isk_xcalloc(n + 1, sizeof *member_off);
    for (size_t i = 0; i < n; i++) {
        member_off[i] = off;
        off += AR_HDR + m[i].size + (m[i].size & 1);
    }
    if (off > UINT32_MAX) {
        ar_fail(d, m[0].name, "archive would exceed 4 GiB, too large for a 32-bit symbol index");
        goto out2;
    }
    bytes b = {0};
    put(&b, AR_MAGIC, 8);
    if (syms.len) {
        put_header(&b, "/", index_size, "0");
        uint8_t w[4];
        isk_put_uint(w, 4, 1, syms.len);
        put(&b, w, 4);
        for (size_t i = 0; i < syms.len; i++) {
            isk_put_uint(w, 4, 1, member_off[syms.data[i].member]);
            put(&b, w, 4);
        }
        for (size_t i = 0; i < syms.len; i++) put(&b, syms.data[i].name, strlen(syms.data[i].name) + 1);
        pad2(&b);
    }
    if (longnames.len) {
        put_header(&b, "//", longnames.len, "");
        put(&b, longnames.data, longnames.len);
        pad2(&b);
    }
    for (size_t i = 0; i < n; i++) {
        char name[32];
        if (long_off[i]) snprintf(name, sizeof name, "/%zu", long_off[i] - 1);
        else snprintf(name, sizeof name, "%s/", base_name(m[i].name));
        put_header(&b, name, m[i].size, "644");
        if (m[i].size) put(&b, m[i].data, m[i].size);
        pad2(&b);
    }
    *out = b.data;
    *size = b.len;
    rc = 0;
out2:
    free(member_off);
    free(long_off);
    VEC_FREE(&longnames);
out:
    for (size_t i = 0; i < syms.len; i++) free(syms.data[i].name);
    VEC_FREE(&syms);
    return rc;
}
