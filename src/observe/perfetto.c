#include "observe/perfetto.h"

#include <inttypes.h>
#include <stdlib.h>

struct isk_tj {
    FILE *f;
    uint64_t events;
    char ph;
    bool args;            /* the current event has an "args" object open */
};

void isk_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const unsigned char *q = p;      /* a run that needs no escape, written at once */
        while (*q >= 0x20 && *q != '"' && *q != '\\') q++;
        fwrite(p, 1, (size_t)(q - p), f);
        if (!*q) break;
        if (*q == '"' || *q == '\\') fprintf(f, "\\%c", *q);
        else fprintf(f, "\\u%04x", *q);
        p = q + 1;
    }
    fputc('"', f);
}

isk_tj *isk_tj_new(FILE *f)
{
    isk_tj *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->f = f;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
    return t;
}

static void start(isk_tj *t)
{
    if (t->events++) fputs(",\n", t->f);
}

void isk_tj_name(isk_tj *t, int pid, int tid, const char *name, int sort_index)
{
    const char *what = tid < 0 ? "process" : "thread";
    for (int i = 0; i < 2; i++) {
        start(t);
        fprintf(t->f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s_%s\",\"args\":{", pid, tid < 0 ? 0 : tid,
                what, i ? "sort_index" : "name");
        if (i) {
            fprintf(t->f, "\"sort_index\":%d}}", sort_index);
        } else {
            fputs("\"name\":", t->f);
            isk_json_string(t->f, name);
            fputs("}}", t->f);
        }
    }
}

void isk_tj_event(isk_tj *t, char ph, int pid, int tid, const char *name, const char *cat, uint64_t ts)
{
    start(t);
    t->ph = ph;
    t->args = false;
    fprintf(t->f, "{\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRIu64 ",\"cat\":", ph, pid, tid, ts);
    isk_json_string(t->f, cat);
    fputs(",\"name\":", t->f);
    isk_json_string(t->f, name);
}

static void key(isk_tj *t, const char *k)
{
    fputs(t->args ? "," : ",\"args\":{", t->f);
    t->args = true;
    isk_json_string(t->f, k);
    fputc(':', t->f);
}

void isk_tj_arg_str(isk_tj *t, const char *k, const char *value)
{
    key(t, k);
    isk_json_string(t->f, value);
}

void isk_tj_arg_u64(isk_tj *t, const char *k, uint64_t value)
{
    key(t, k);
    fprintf(t->f, "%" PRIu64, value);
}

void isk_tj_arg_hex(isk_tj *t, const char *k, uint64_t value)
{
    key(t, k);
    fprintf(t->f, "\"0x%" PRIx64 "\"", value);
}

void isk_tj_arg_i64(isk_tj *t, const char *k, int64_t value)
{
    key(t, k);
    fprintf(t->f, "%" PRId64, value);
}

void isk_tj_end(isk_tj *t, uint64_t dur)
{
    if (t->args) fputc('}', t->f);
    if (t->ph == 'X') fprintf(t->f, ",\"dur\":%" PRIu64 "}", dur);
    else fputs(",\"s\":\"t\"}", t->f);
}

void isk_tj_free(isk_tj *t) { free(t); }

bool isk_tj_finish(isk_tj *t, isk_tj_stats *stats)
{
    fputs("\n]}\n", t->f);
    bool ok = fflush(t->f) == 0 && !ferror(t->f);
    if (stats) {
        stats->events = t->events;
        long pos = ftell(t->f);
        stats->bytes = pos > 0 ? (uint64_t)pos : 0;
    }
    isk_tj_free(t);
    return ok;
}
