#include "isekit/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void isk_diag_init(isk_diag *d)
{
    memset(d, 0, sizeof *d);
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
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "    %.*s\n    ", len, loc->text);
    for (int i = 0; i + 1 < loc->col && i < len; i++)
        if (n + 1 < cap) out[n++] = loc->text[i] == '\t' ? '\t' : ' ';
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "^\n");
    return n;
}

void isk_diag_vreport(isk_diag *d, isk_severity sev, const isk_loc *loc, const char *fmt, va_list ap)
{
    if (sev == ISK_ERROR) d->errors++;
    else if (sev == ISK_WARNING) d->warnings++;
    if (sev == ISK_ERROR && d->max_errors && d->errors > d->max_errors) {
        if (d->errors == d->max_errors + 1) {
            const char *msg = "too many errors; stopping the report here\n";
            if (d->emit) d->emit(d->user, ISK_NOTE, msg);
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
    n += (size_t)vsnprintf(msg + n, sizeof msg - n, fmt, ap);
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
