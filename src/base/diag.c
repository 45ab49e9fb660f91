#include "isekit/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void isk_diag_init(isk_diag *d)
{
    memset(d, 0, sizeof *d);
    d->max_errors = ISK_DIAG_MAX_ERRORS;
    d->max_file_errors = ISK_DIAG_MAX_FILE_ERRORS;
}

void isk_diag_set_max_errors(isk_diag *d, int n)
{
    d->max_errors = d->max_file_errors = n > 0 ? n : 0;
}

int isk_diag_stopped(const isk_diag *d)
{
    return d->max_errors > 0 && d->errors > d->max_errors;
}

isk_diag_file isk_diag_begin_file(isk_diag *d, const char *file)
{
    isk_diag_file outer = { d->file, d->file_errors };
    d->file = file;
    d->file_errors = 0;
    return outer;
}

void isk_diag_end_file(isk_diag *d, isk_diag_file outer)
{
    /* An included file's errors are its includer's too. */
    int inner = d->file_errors;
    d->file = outer.file;
    d->file_errors = outer.errors + (outer.file ? inner : 0);
}

static int file_capped(const isk_diag *d)
{
    return d->file && d->max_file_errors > 0 && d->file_errors > d->max_file_errors;
}

int isk_diag_file_stopped(const isk_diag *d)
{
    return file_capped(d) || isk_diag_stopped(d);
}

int isk_diag_full(const isk_diag *d)
{
    return (d->max_errors > 0 && d->errors >= d->max_errors) ||
           (d->file && d->max_file_errors > 0 && d->file_errors >= d->max_file_errors);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;                               /* overlong, surrogate or beyond U+10FFFF */
    return len;
}

/* How many bytes of `s` the next displayed character takes (*escape: shown as \xNN). */
static size_t next_char(const char *s, size_t n, int *escape)
{
    unsigned char c = (unsigned char)s[0];
    *escape = 0;
    if (c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7F)) return 1;
    size_t len = c >= 0x80 ? utf8_length((const unsigned char *)s, n) : 0;
    if (len) return len;
    *escape = 1;
    return 1;
}

/* Copy len bytes of s to out (at *n, capacity cap), control characters and broken UTF-8 as
 * \xNN: a binary input must not reach the terminal raw. */
static void put_escaped(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        int escape;
        size_t k = next_char(s + i, len - i, &escape);
        if (escape) {
            if (*n + 4 < cap) *n += (size_t)snprintf(out + *n, cap - *n, "\\x%02X", (unsigned char)s[i]);
        } else if (*n + k < cap) {
            memcpy(out + *n, s + i, k);
            *n += k;
        }
        i += k;
    }
    if (*n < cap) out[*n] = 0;
}

const char *isk_diag_last_reason(const isk_diag *d, char *buf, size_t cap)
{
    const char *sev = strstr(d->last, "error: ");
    size_t head = sev ? (size_t)(sev - d->last) : 0;
    snprintf(buf, cap, "%.*s%s", (int)head, d->last, sev ? sev + 7 : d->last);
    return buf;
}

static const char *severity_name(isk_severity sev)
{
    switch (sev) {
    case ISK_NOTE: return "note";
    case ISK_WARNING: return "warning";
    default: return "error";
    }
}

/* Append the source line and a caret under column `col` (tabs kept so the caret lines up). */
static size_t format_caret(char *out, size_t cap, const isk_loc *loc)
{
    size_t n = 0;
    int len = loc->text_len;
    if (len < 0) {
        len = 0;
        while (loc->text[len] && loc->text[len] != '\n') len++;
    }
    while (len > 0 && (loc->text[len - 1] == '\r' || loc->text[len - 1] == '\n')) len--;
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "    ");
    if (n < cap) put_escaped(out, cap, &n, loc->text, (size_t)len);
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "\n    ");
    for (int i = 0; i + 1 < loc->col && i < len;) {
        int escape;
        size_t k = next_char(loc->text + i, (size_t)(len - i), &escape);
        for (int w = escape ? 4 : 1; w > 0; w--)
            if (n + 1 < cap) out[n++] = loc->text[i] == '\t' ? '\t' : ' ';
        i += (int)k;
    }
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "^\n");
    return n;
}

void isk_diag_vreport(isk_diag *d, isk_severity sev, const isk_loc *loc, const char *fmt, va_list ap)
{
    if (sev == ISK_ERROR) d->errors++, d->file_errors += d->file != NULL;
    else if (sev == ISK_WARNING) d->warnings++;
    if (sev == ISK_ERROR && (isk_diag_stopped(d) || file_capped(d))) {
        char msg[560];
        msg[0] = 0;
        if (isk_diag_stopped(d)) {
            if (d->errors == d->max_errors + 1)
                snprintf(msg, sizeof msg, "error: too many errors (more than %d); stopping here (--max-errors N "
                         "raises the cap, 0 removes it)\n", d->max_errors);
        } else if (d->file_errors == d->max_file_errors + 1) {
            snprintf(msg, sizeof msg, "%.400s: error: too many errors in this file (more than %d); skipping the "
                     "rest of it (--max-errors N raises the cap, 0 removes it)\n", d->file, d->max_file_errors);
        }
        if (msg[0]) {
            snprintf(d->last, sizeof d->last, "%.*s", (int)strcspn(msg, "\n"), msg);
            if (d->emit) d->emit(d->user, ISK_ERROR, msg);
            else fputs(msg, stderr);
        }
        return;
    }

    char msg[2048];
    size_t n = 0;
    if (loc && loc->file) {
        n += (size_t)snprintf(msg + n, sizeof msg - n, "%s:", loc->file);
        if (loc->line > 0) n += (size_t)snprintf(msg + n, sizeof msg - n, "%d:", loc->line);
        if (loc->line > 0 && loc->col > 0) n += (size_t)snprintf(msg + n, sizeof msg - n, "%d:", loc->col);
        n += (size_t)snprintf(msg + n, sizeof msg - n, " ");
    }
    if (n >= sizeof msg) n = sizeof msg - 1;
    n += (size_t)snprintf(msg + n, sizeof msg - n, "%s: ", severity_name(sev));
    if (n >= sizeof msg) n = sizeof msg - 1;
    char text[1536];
    int len = vsnprintf(text, sizeof text, fmt, ap);
    put_escaped(msg, sizeof msg - 2, &n, text, len < 0 ? 0 : (size_t)len < sizeof text ? (size_t)len : sizeof text - 1);
    if (n >= sizeof msg - 2) n = sizeof msg - 2;
    msg[n++] = '\n';
    msg[n] = 0;
    if (sev == ISK_ERROR) {
        size_t first = strcspn(msg, "\n");
        snprintf(d->last, sizeof d->last, "%.*s", (int)first, msg);
    }
    if (loc && loc->text && n < sizeof msg - 1)
        n += format_caret(msg + n, sizeof msg - n, loc);

    if (d->emit) d->emit(d->user, sev, msg);
    else fputs(msg, stderr);
}

void isk_diag_report(isk_diag *d, isk_severity sev, const isk_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    isk_diag_vreport(d, sev, loc, fmt, ap);
    va_end(ap);
}

static void capture(void *user, isk_severity sev, const char *msg)
{
    (void)sev;
    isk_diag_buffer *b = user;
    size_t len = strlen(msg);
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + len + 1) cap *= 2;
        char *text = realloc(b->text, cap);
        if (!text) return;
        b->text = text;
        b->cap = cap;
    }
    memcpy(b->text + b->len, msg, len + 1);
    b->len += len;
}

void isk_diag_capture(isk_diag *d, isk_diag_buffer *buf)
{
    memset(buf, 0, sizeof *buf);
    d->emit = capture;
    d->user = buf;
}

void isk_diag_buffer_free(isk_diag_buffer *buf)
{
    free(buf->text);
    memset(buf, 0, sizeof *buf);
}
