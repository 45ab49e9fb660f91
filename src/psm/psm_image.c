/* PicoBlaze program images in the formats of the Xilinx and UTIA tools (psm-syntax.md section 6,
 * dfu.md section 8.3):
 *
 *   .hex   one 18-bit word per line, 5 upper-case hex digits, the whole program space
 *   .mem   "@00000000" and then the .hex lines (a "@addr" line may move the address on reading)
 *   .dec   KCPSM3's decimal listing: " 181266 " per line
 *   .bin   4 bytes per word, little-endian (pblaze-ld + objcopy -O binary)
 *   .h     a C array of the words, for host programs
 *
 * Readers take untrusted files: a bad digit or a word beyond 18 bits is an error at
 * file:line:column, never a crash. The text formats are word lists, read by the one reader
 * objdump uses too (elf/image.c isk_words_parse); only the 4-byte raw layout is read here. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "psm/psm.h"
#include "base/file.h"
#include "elf/image.h"

int psm_image_format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return -1;
    static const struct { const char *ext; int format; } map[] = {
        { ".hex", PSM_HEX }, { ".mem", PSM_MEM }, { ".dec", PSM_DEC }, { ".bin", PSM_BIN }, { ".h", PSM_C_HEADER },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcasecmp(dot, map[i].ext) == 0) return map[i].format;
    return -1;
}

/* A C identifier from a file name: "fw_exl.h" -> "fw_exl". */
static void identifier_of(const char *name, char *out, size_t cap)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = 0;
    if (!isalpha((unsigned char)*base) && *base != '_' && n + 1 < cap) out[n++] = '_';
    for (const char *s = base; *s && *s != '.' && n + 1 < cap; s++)
        out[n++] = isalnum((unsigned char)*s) ? *s : '_';
    out[n] = 0;
}

static int write_c_header(FILE *out, const uint32_t *words, size_t used_end, const char *name, const char *source)
{
    char id[128], upper[128];
    identifier_of(name ? name : "firmware", id, sizeof id);
    size_t i;
    for (i = 0; id[i] && i + 1 < sizeof upper; i++) upper[i] = (char)toupper((unsigned char)id[i]);
    upper[i] = 0;
    fprintf(out,
            "/* PicoBlaze firmware %s, assembled by isekit: %zu instruction words.\n"
            " * One 18-bit instruction per element, in program order from address 000 (the\n"
            " * little-endian 32-bit words of the image pblaze-bincopy makes). */\n"
            "#ifndef %s_H\n#define %s_H\n\n#include <stdint.h>\n\n"
            "#define %s_WORDS %zuu\n\n"
            "static const uint32_t %s[%s_WORDS] = {",
            source ? source : id, used_end, upper, upper, upper, used_end ? used_end : 1, id, upper);
    for (i = 0; i < used_end; i++) fprintf(out, "%s0x%05" PRIX32 ",", i % 8 ? " " : "\n    ", words[i]);
    if (!used_end) fprintf(out, "\n    0x00000,");
    fprintf(out, "\n};\n\n#endif\n");
    return ferror(out) ? -1 : 0;
}

int psm_write_image(FILE *out, int format, const uint32_t *words, size_t n, size_t used_end, const char *name,
                    const char *source, bool crlf)
{
    const char *eol = crlf ? "\r\n" : "\n";
    switch (format) {
    case PSM_C_HEADER:
        return write_c_header(out, words, used_end, name, source);
    case PSM_BIN:
        for (size_t i = 0; i < n; i++) {
            uint8_t b[4] = { (uint8_t)words[i], (uint8_t)(words[i] >> 8), (uint8_t)(words[i] >> 16), 0 };
            fwrite(b, 1, 4, out);
        }
        break;
    case PSM_MEM:
    case PSM_HEX: {
        /* the one .mem writer (elf/image.c), in the Xilinx dialect: 18-bit words, upper case */
        uint8_t *bytes = malloc(n * 4 + 1);
        if (!bytes) return -1;
        for (size_t i = 0; i < n; i++) {
            uint32_t w = words[i] & 0x3FFFFu;
            memcpy(bytes + 4 * i, (uint8_t[4]){ (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), 0 }, 4);
        }
        isk_mem_opts o = { .word_bytes = 4, .word_bits = 18, .address_line = format == PSM_MEM, .upper_case = 1,
                           .address_digits = 8, .crlf = crlf };
        char *text;
        size_t len;
        int rc = isk_mem_format(bytes, n * 4, &o, &text, &len, NULL);
        free(bytes);
        if (rc != 0) return -1;
        fwrite(text, 1, len, out);
        free(text);
        break;
    }
    case PSM_DEC:
        for (size_t i = 0; i < n; i++) fprintf(out, " %" PRIu32 " %s", words[i] & 0x3FFFFu, eol);
        break;
    default:
        return -1;
    }
    return ferror(out) ? -1 : 0;
}

/* ---- reading -------------------------------------------------------------------------------- */

static int read_binary(const char *name, const char *data, size_t len, uint32_t *words, size_t capacity,
                       size_t *loaded, isk_diag *diag)
{
    if (len % 4) {
        isk_error(diag, NULL, "%s: a raw image holds 4 bytes per instruction; %zu bytes is not a multiple of 4",
                  name, len);
        return -1;
    }
    if (len / 4 > capacity) {
        isk_error(diag, NULL, "%s: %zu instructions do not fit the %zu-word program space", name, len / 4, capacity);
        return -1;
    }
    for (size_t i = 0; i < len / 4; i++) {
        const uint8_t *b = (const uint8_t *)data + 4 * i;
        uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if (w > 0x3FFFF) {
            isk_error(diag, NULL, "%s: instruction %zu (byte offset %zu) is 0x%08" PRIX32 ", wider than 18 bits",
                      name, i, 4 * i, w);
            return -1;
        }
        words[i] = w;
    }
    *loaded = len / 4;
    return 0;
}

/* Words into the program space (the word list itself is read by elf/image.c's one reader). */
typedef struct words_sink { uint32_t *words; size_t capacity, end; } words_sink;

static int put_word(void *ctx, uint64_t addr, uint64_t word, const isk_loc *loc, isk_diag *diag)
{
    words_sink *w = ctx;
    if (addr >= w->capacity) {
        isk_error(diag, loc, "address %llX is outside the %zu-word program space", (unsigned long long)addr,
                  w->capacity);
        return -1;
    }
    w->words[addr] = (uint32_t)word;
    if (addr + 1 > w->end) w->end = (size_t)addr + 1;
    return 0;
}

int psm_read_image_text(const char *name, const char *text, size_t len, int format, uint32_t *words,
                        size_t capacity, size_t *loaded, isk_diag *diag)
{
    if (format == PSM_BIN) return read_binary(name, text, len, words, capacity, loaded, diag);
    words_sink w = { words, capacity, 0 };
    int rc = isk_words_parse(text, len, name, format == PSM_DEC ? 10 : 16, 18, put_word, &w, diag);
    *loaded = w.end;
    return rc;
}

int psm_read_image(const char *path, uint32_t *words, size_t capacity, size_t *loaded, isk_diag *diag)
{
    uint8_t *data;
    size_t len;
    if (isk_file_read_all(path, &data, &len, diag) != 0) return -1;
    int format = psm_image_format_of(path);
    if (format < 0 || format == PSM_C_HEADER) {
        /* no telling name: text of hex digits, else raw binary */
        format = isk_words_look_like(data, len) || !len ? PSM_HEX : PSM_BIN;
    }
    if (format != PSM_BIN && isk_file_check_text(path, format == PSM_DEC ? "a .dec image" : "a .hex or .mem image",
                                                 (const char *)data, len, diag) != 0) {
        free(data);
        return -1;
    }
    int rc = psm_read_image_text(path, data ? (const char *)data : "", len, format, words, capacity, loaded, diag);
    free(data);
    return rc;
}

/* ---- ROM templates (the Xilinx ROM_form.vhd / ROM_form.v mechanism) -------------------------- */

/* {INIT_xx}: the low 16 bits of words 16*xx .. 16*xx+15, the highest word leftmost;
 * {INITP_xx}: bits 17:16 of words 128*xx .. 128*xx+127, two bits a word, word 128*xx in bits 1:0.
 * Both are 64 hex digits; words past n read as 0. */
static void init_string(char out[65], const uint32_t *words, size_t n, unsigned index, bool parity)
{
    for (int d = 0; d < 64; d++) {
        unsigned nibble;                           /* digit d counts from the right */
        if (!parity) {
            size_t w = (size_t)index * 16 + (size_t)d / 4;
            nibble = w < n ? (words[w] >> (4 * (d % 4))) & 0xF : 0;
        } else {
            size_t w = (size_t)index * 128 + (size_t)d * 2;
            nibble = (w < n ? (words[w] >> 16) & 3 : 0) | (w + 1 < n ? ((words[w + 1] >> 16) & 3) << 2 : 0);
        }
        out[63 - d] = "0123456789ABCDEF"[nibble];
    }
    out[64] = 0;
}

int psm_write_template(FILE *out, const char *template_text, const uint32_t *words, size_t n, const char *name,
                       const char *timestamp)
{
    /* the Xilinx templates start with notes for the user, up to the line "{begin template}" */
    const char *t = template_text, *begin = strstr(t, "{begin template}");
    if (begin) {
        const char *nl = strchr(begin, '\n');
        t = nl ? nl + 1 : begin + strlen(begin);
    }
    while (*t) {
        const char *close = *t == '{' ? strchr(t, '}') : NULL;
        if (!close) {
            if (fputc(*t++, out) == EOF) return -1;
            continue;
        }
        char field[40];
        size_t len = (size_t)(close - t - 1);
        unsigned index;
        char hex[65], extra;
        snprintf(field, sizeof field, "%.*s", (int)(len < sizeof field ? len : sizeof field - 1), t + 1);
        if (strcmp(field, "name") == 0) fputs(name, out);
        else if (strcmp(field, "timestamp") == 0) fputs(timestamp, out);
        else if (len == 7 && sscanf(field, "INIT_%2x%c", &index, &extra) == 1) {
            init_string(hex, words, n, index, false);
            fputs(hex, out);
        } else if (len == 8 && sscanf(field, "INITP_%2x%c", &index, &extra) == 1) {
            init_string(hex, words, n, index, true);
            fputs(hex, out);
        } else {
            fputc(*t++, out);                      /* not a field of ours: the text as it is */
            continue;
        }
        t = close + 1;
    }
    return ferror(out) ? -1 : 0;
}
