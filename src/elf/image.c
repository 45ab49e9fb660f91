#include "elf/image.h"
#include "elf/elf_file.h"
#include "elf/elf_util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "base/num.h"

/* A flat image larger than this is almost certainly a wrong base address. */
#define IMAGE_MAX ((uint64_t)1 << 30)

typedef VEC(char) text;

__attribute__((format(printf, 2, 3)))
static void tprintf(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    VEC_RESERVE(t, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static void text_done(text *t, char **out, size_t *len)
{
    VEC_RESERVE(t, 1);
    t->data[t->len] = 0;
    *out = t->data;
    if (len) *len = t->len;
}

/* ---- extraction ---- */

int isk_image_extract(const isk_obj *exe, uint64_t base, uint64_t size, uint8_t fill, uint8_t **out, size_t *len,
                      isk_diag *d)
{
    isk_loc loc = { .file = exe->filename && exe->filename[0] ? exe->filename : NULL };
    if (size == 0) {
        for (size_t i = 1; i < exe->secs.len; i++) {
            const isk_section *s = &exe->secs.data[i];
            if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || !s->size || s->addr < base) continue;
            if (s->addr - base + s->size > size) size = s->addr - base + s->size;
        }
    }
    if (size > IMAGE_MAX || !isk_fits(base, size, UINT64_MAX)) {
        isk_error(d, &loc, "image of 0x%llx bytes at 0x%llx is too large (limit 0x%llx)", (unsigned long long)size,
                  (unsigned long long)base, (unsigned long long)IMAGE_MAX);
        return -1;
    }
    uint8_t *img = isk_xrealloc(NULL, size ? (size_t)size : 1);
    memset(img, fill, (size_t)size);
    for (size_t i = 1; i < exe->secs.len; i++) {
        const isk_section *s = &exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || !s->size) continue;
        int before = s->addr + s->size <= base, after = s->addr >= base + size;
        if (before || after || s->addr + s->size < s->addr) continue;
        if (s->addr < base || s->addr - base + s->size > size) {
            isk_error(d, &loc, "section '%s' (0x%llx..0x%llx) straddles the image range 0x%llx..0x%llx", s->name,
                      (unsigned long long)s->addr, (unsigned long long)(s->addr + s->size), (unsigned long long)base,
                      (unsigned long long)(base + size));
            free(img);
            return -1;
        }
        if (s->type == SHT_NOBITS) memset(img + (s->addr - base), 0, (size_t)s->size);
        else memcpy(img + (s->addr - base), s->data, (size_t)s->size);
    }
    *out = img;
    *len = (size_t)size;
    return 0;
}

/* ---- Intel-HEX writing ---- */

static void ihex_record(text *t, unsigned type, unsigned addr, const uint8_t *p, size_t n)
{
    unsigned sum = (unsigned)n + (addr >> 8) + (addr & 0xff) + type;
    tprintf(t, ":%02X%04X%02X", (unsigned)n, addr & 0xffff, type);
    for (size_t i = 0; i < n; i++) {
        tprintf(t, "%02X", p[i]);
        sum += p[i];
    }
    tprintf(t, "%02X\n", (unsigned)(-sum & 0xff));
}

/* Data records for one run; *upper is the current extended linear address. */
static int ihex_data(text *t, const uint8_t *data, size_t n, uint64_t addr, long *upper, isk_diag *d, const isk_loc *loc)
{
    if (!isk_fits(addr, n, (uint64_t)1 << 32)) {
        isk_error(d, loc, "Intel-HEX cannot hold bytes at 0x%llx..0x%llx (above 4 GiB)", (unsigned long long)addr,
                  (unsigned long long)(addr + n));
        return -1;
    }
    size_t i = 0;
    while (i < n) {
        uint64_t a = addr + i;
        if ((long)(a >> 16) != *upper) {
            *upper = (long)(a >> 16);
            uint8_t u[2] = { (uint8_t)(a >> 24), (uint8_t)(a >> 16) };
            ihex_record(t, 4, 0, u, 2);
        }
        size_t chunk = n - i < 16 ? n - i : 16;
        uint64_t room = 0x10000 - (a & 0xffff);            /* a record stays inside its 64 KiB page */
        if (chunk > room) chunk = (size_t)room;
        ihex_record(t, 0, (unsigned)(a & 0xffff), data + i, chunk);
        i += chunk;
    }
    return 0;
}

static void ihex_end(text *t, int has_entry, uint32_t entry)
{
    if (has_entry) {
        uint8_t e[4] = { (uint8_t)(entry >> 24), (uint8_t)(entry >> 16), (uint8_t)(entry >> 8), (uint8_t)entry };
        ihex_record(t, 5, 0, e, 4);
    }
    ihex_record(t, 1, 0, NULL, 0);
}

int isk_ihex_format(const uint8_t *data, size_t n, uint64_t addr, int has_entry, uint32_t entry, char **out,
                    size_t *len, isk_diag *d)
{
    text t = {0};
    long upper = 0;
    isk_loc loc = {0};
    if (ihex_data(&t, data, n, addr, &upper, d, &loc) != 0) {
        VEC_FREE(&t);
        return -1;
    }
    ihex_end(&t, has_entry, entry);
    text_done(&t, out, len);
    return 0;
}

int isk_ihex_format_obj(const isk_obj *exe, char **out, size_t *len, isk_diag *d)
{
    text t = {0};
    long upper = 0;
    isk_loc loc = { .file = exe->filename && exe->filename[0] ? exe->filename : NULL };
    for (size_t i = 1; i < exe->secs.len; i++) {
        const isk_section *s = &exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || !s->size) continue;
        if (ihex_data(&t, s->data, (size_t)s->size, s->addr, &upper, d, &loc) != 0) {
            VEC_FREE(&t);
            return -1;
        }
    }
    if (exe->entry > UINT32_MAX) {
        isk_error(d, &loc, "entry point 0x%llx does not fit Intel-HEX", (unsigned long long)exe->entry);
        VEC_FREE(&t);
        return -1;
    }
    ihex_end(&t, exe->entry != 0, (uint32_t)exe->entry);
    text_done(&t, out, len);
    return 0;
}

/* ---- .mem ---- */

int isk_mem_format(const uint8_t *data, size_t n, const isk_mem_opts *o, char **out, size_t *len, isk_diag *d)
{
    isk_loc loc = {0};
    unsigned wb = o->word_bytes, bits = o->word_bits ? o->word_bits : 8 * o->word_bytes;
    if (wb < 1 || wb > 8 || bits > 8 * wb) {
        isk_error(d, &loc, ".mem: invalid word size (%u bytes, %u bits)", wb, bits);
        return -1;
    }
    uint64_t mask = bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
    int digits = (int)((bits + 3) / 4);
    const char *eol = o->crlf ? "\r\n" : "\n";
    text t = {0};
    if (o->address_line)
        tprintf(&t, o->upper_case ? "@%0*llX%s" : "@%0*llx%s", o->address_digits, (unsigned long long)o->start_word, eol);
    for (size_t i = 0; i < n; i += wb) {
        uint8_t w[8] = {0};
        memcpy(w, data + i, n - i < wb ? n - i : wb);
        uint64_t v = isk_get_uint(w, wb, o->big_endian);
        if (v & ~mask) {
            isk_error(d, &loc, ".mem: word %zu (0x%llx) has bits set above bit %u", i / wb, (unsigned long long)v,
                      bits - 1);
            VEC_FREE(&t);
            return -1;
        }
        tprintf(&t, o->upper_case ? "%0*llX%s" : "%0*llx%s", digits, (unsigned long long)v, eol);
    }
    text_done(&t, out, len);
    return 0;
}

/* ---- readers ---- */

isk_obj *isk_binary_to_obj(const void *data, size_t n, uint64_t base, const char *filename)
{
    int c32 = isk_fits(base, n, (uint64_t)1 << 32);
    isk_obj *o = isk_obj_new(filename, c32 ? ELFCLASS32 : ELFCLASS64, 0, 0, ET_EXEC);
    uint32_t s = isk_obj_add_section(o, ".image", SHT_PROGBITS, SHF_ALLOC, 1);
    o->secs.data[s].addr = base;
    isk_obj_append(o, s, data, n);
    o->entry = base;
    return o;
}

isk_obj *isk_binary_read_file(const char *path, uint64_t base, isk_diag *d)
{
    uint8_t *buf;
    size_t n;
    if (isk_file_read_all(path, &buf, &n, d) != 0) return NULL;
    isk_obj *o = isk_binary_to_obj(buf, n, base, path);
    free(buf);
    return o;
}

typedef struct chunk { uint64_t addr; size_t at, len; int line; } chunk;   /* bytes at store[at..] */

static int chunk_cmp(const void *a, const void *b)
{
    const chunk *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : (x->line > y->line) - (x->line < y->line);
}

isk_obj *isk_ihex_read_mem(const char *src, size_t n, const char *filename, isk_diag *d)
{
    const char *file = filename && *filename ? filename : "<memory>";
    VEC(uint8_t) store = {0};
    VEC(chunk) chunks = {0};
    uint64_t base = 0, entry = 0;
    int has_entry = 0, eof = 0, line = 0;
    isk_obj *o = NULL;
    size_t pos = 0;
    while (pos < n && !eof) {
        size_t end = pos;
        while (end < n && src[end] != '\n') end++;
        line++;
        isk_loc loc = { .file = file, .line = line, .col = 1, .text = src + pos, .text_len = (int)(end - pos) };
        if (end - pos > 1024) loc.text = NULL;          /* no caret display for absurd lines */
        size_t len = end - pos;
        while (len && (src[pos + len - 1] == '\r' || src[pos + len - 1] == ' ' || src[pos + len - 1] == '\t')) len--;
        const char *l = src + pos;
        pos = end + 1;
        if (len == 0) continue;
        if (l[0] != ':') {
            isk_error(d, &loc, "Intel-HEX record does not start with ':'");
            goto bad;
        }
        uint8_t rec[5 + 255];
        size_t nb = 0;
        for (size_t i = 1; i < len; i += 2) {
            int hi = isk_hex_digit(l[i]), lo = i + 1 < len ? isk_hex_digit(l[i + 1]) : -2;
            if (hi < 0 || lo < 0) {
                loc.col = (int)(hi < 0 ? i + 1 : i + 2);
                isk_error(d, &loc, lo == -2 ? "odd number of hex digits" : "invalid hex digit");
                goto bad;
            }
            if (nb == sizeof rec) {
                loc.col = (int)i + 1;
                isk_error(d, &loc, "Intel-HEX record longer than 260 bytes");
                goto bad;
            }
            rec[nb++] = (uint8_t)(hi << 4 | lo);
        }
        if (nb < 5 || nb != 5u + rec[0]) {
            isk_error(d, &loc, "Intel-HEX record length mismatch: byte count %u, but %zu data bytes", nb ? rec[0] : 0,
                      nb >= 5 ? nb - 5 : 0);
            goto bad;
        }
        unsigned sum = 0;
        for (size_t i = 0; i < nb; i++) sum += rec[i];
        if (sum & 0xff) {
            loc.col = (int)len - 1;
            isk_error(d, &loc, "Intel-HEX checksum mismatch (expected 0x%02X)", (unsigned)(-(sum - rec[nb - 1]) & 0xff));
            goto bad;
        }
        unsigned cnt = rec[0], off = (unsigned)rec[1] << 8 | rec[2], type = rec[3];
        const uint8_t *p = rec + 4;
        switch (type) {
        case 0:
            if (cnt) {
                VEC_PUSH(&chunks, (chunk){ base + off, store.len, cnt, line });
                VEC_RESERVE(&store, cnt);
                memcpy(store.data + store.len, p, cnt);
                store.len += cnt;
            }
            break;
        case 1: eof = 1; break;
        case 2: case 4:
            if (cnt != 2) {
                isk_error(d, &loc, "extended address record needs 2 data bytes, has %u", cnt);
                goto bad;
            }
            base = ((uint64_t)p[0] << 8 | p[1]) << (type == 2 ? 4 : 16);
            break;
        case 3: case 5:
            if (cnt != 4) {
                isk_error(d, &loc, "start address record needs 4 data bytes, has %u", cnt);
                goto bad;
            }
            entry = type == 5 ? (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]
                              : ((uint64_t)p[0] << 8 | p[1]) * 16 + ((uint64_t)p[2] << 8 | p[3]);
            has_entry = 1;
            break;
        default:
            loc.col = 8;
            isk_error(d, &loc, "unknown Intel-HEX record type %02X", type);
            goto bad;
        }
    }
    if (!eof) {
        isk_loc loc = { .file = file, .line = line };
        isk_error(d, &loc, "missing Intel-HEX end-of-file record (truncated file?)");
        goto bad;
    }
    if (chunks.len) qsort(chunks.data, chunks.len, sizeof *chunks.data, chunk_cmp);
    uint64_t top = 0;
    for (size_t i = 0; i < chunks.len; i++) {
        if (i && chunks.data[i].addr < chunks.data[i - 1].addr + chunks.data[i - 1].len) {
            isk_loc loc = { .file = file, .line = chunks.data[i].line };
            isk_error(d, &loc, "data at 0x%llx overlaps the record of line %d", (unsigned long long)chunks.data[i].addr,
                      chunks.data[i - 1].line);
            goto bad;
        }
        top = chunks.data[i].addr + chunks.data[i].len;
    }
    o = isk_obj_new(file, top <= ((uint64_t)1 << 32) && entry <= UINT32_MAX ? ELFCLASS32 : ELFCLASS64, 0, 0, ET_EXEC);
    o->entry = has_entry ? entry : 0;
    uint32_t sec = 0;
    for (size_t i = 0; i < chunks.len; i++) {
        const chunk *c = &chunks.data[i];
        const isk_section *s = sec ? &o->secs.data[sec] : NULL;
        if (!s || s->addr + s->size != c->addr) {
            char name[32];
            snprintf(name, sizeof name, ".load%zu", o->secs.len - 1);
            sec = isk_obj_add_section(o, name, SHT_PROGBITS, SHF_ALLOC, 1);
            o->secs.data[sec].addr = c->addr;
        }
        isk_obj_append(o, sec, store.data + c->at, c->len);
    }
bad:
    VEC_FREE(&store);
    VEC_FREE(&chunks);
    return o;
}

/* ---- word lists ---- */

static int digit_of(char c, int radix)
{
    int v = isk_hex_digit(c);
    return v >= 0 && v < radix ? v : -1;
}

int isk_words_parse(const char *text, size_t n, const char *filename, int radix, int word_bits, isk_word_put put,
                    void *ctx, isk_diag *d)
{
    int errors = d->errors, line = 0;
    uint64_t next = 0;
    const uint64_t max_before = UINT64_MAX / (uint64_t)radix;   /* v * radix + digit fits below */
    for (size_t at = 0; at < n && d->errors - errors < 10;) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', n - at);
        size_t len = nl ? (size_t)(nl - start) : n - at;
        at += len + (nl != NULL);
        line++;
        size_t i = 0;
        while (i < len) {
            while (i < len && isspace((unsigned char)start[i])) i++;
            if (i >= len || start[i] == '#' || start[i] == ';' || (start[i] == '/' && i + 1 < len && start[i + 1] == '/'))
                break;
            bool addr = start[i] == '@';
            size_t j = i + addr;
            if (radix == 16 && j + 1 < len && start[j] == '0' && (start[j + 1] == 'x' || start[j + 1] == 'X')) j += 2;
            size_t digits = j;
            uint64_t v = 0;
            bool overflow = false;
            for (int dv; j < len && (dv = digit_of(start[j], radix)) >= 0; j++) {
                if (v > max_before || (v == max_before && (uint64_t)dv > UINT64_MAX % (uint64_t)radix)) overflow = true;
                v = v * (uint64_t)radix + (uint64_t)dv;
            }
            isk_loc loc = { filename, line, (int)i + 1, start, (int)len };
            if (len > 1024) loc.text = NULL;                  /* no caret display for absurd lines */
            if (j == digits || (j < len && !isspace((unsigned char)start[j]))) {
                if (j > digits) loc.col = (int)j + 1;         /* at the character that is no digit */
                isk_error(d, &loc, "expected a %s word or @address", radix == 16 ? "hexadecimal" : "decimal");
                break;
            }
            int tok = (int)(j - i);
            if (addr) {
                if (overflow || v > (UINT64_C(1) << 40)) {
                    isk_error(d, &loc, "address %.*s is too large", tok, start + i);
                    break;
                }
                next = v;
            } else if (overflow || (word_bits < 64 && (v >> word_bits))) {
                isk_error(d, &loc, "the word %.*s is wider than %d bits", tok, start + i, word_bits);
                break;
            } else if (put(ctx, next, v, &loc, d) != 0) {
                break;
            } else {
                next++;
            }
            i = j;
        }
    }
    return d->errors == errors ? 0 : -1;
}

bool isk_words_look_like(const uint8_t *data, size_t n)
{
    if (!n) return false;
    for (size_t i = 0; i < n; i++) {
        int c = data[i];
        if (!(isxdigit(c) || isspace(c) || c == '@' || c == 'x' || c == 'X')) return false;
    }
    return true;
}
