/* The gdb remote serial protocol stub of a run (run_observe.h, docs/gdb.md): `--gdb PORT` serves
 * one gdb on 127.0.0.1:PORT. It is a third front end of the debugger core (debug_core.h), as the
 * text debugger and the DAP server: gdb's continue and step run the whole system, accelerators
 * included, through the core's run control. What gdb needs of the processor (its architecture
 * name, the registers of the `g` packet) comes from the model's GDB_TARGET declaration, so no
 * model is named here. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/num.h"
#include "cli/debug_core.h"
#include "cli/run_observe.h"
#include "cli/runctl.h"
#include "cli/tcp.h"
#include "isekit/desc.h"

/* gdb's signal numbers (gdb/signals.def), which the stop replies carry */
enum { GDB_SIGINT = 2, GDB_SIGILL = 4, GDB_SIGTRAP = 5, GDB_SIGSEGV = 11, GDB_SIGXCPU = 24 };

/* One register of the `g` packet: a cell, or the context's pc (ref.inst NULL). */
typedef struct gdb_reg { isk_ref ref; int bytes; char name[160]; } gdb_reg;
typedef struct gdb_bp { uint64_t addr; int id; } gdb_bp;

typedef struct cli_gdb {
    cli_run *r;
    dbg_core core;
    isk_inst *proc;
    int fd;
    bool no_ack, finished, detach, killed, broken;
    int nctx;
    uint32_t gthread;                /* Hg: the context registers and memory are read from */
    VEC(gdb_reg) regs;
    VEC(gdb_bp) bps;
    char *in;                        /* bytes read and not yet consumed */
    size_t in_len, in_cap;
    char stop[64];                   /* the last stop reply, for `?` */
    isk_status status;
} cli_gdb;

/* ---- options ---------------------------------------------------------------------------- */

bool cli_gdb_option(cli_args *a, cli_run_opts *o)
{
    const char *v;
    if (!cli_value(a, "--gdb", &v)) return false;
    if (!v) return true;
    /* PORT, :PORT, 127.0.0.1:PORT or localhost:PORT: the stub listens on loopback only */
    const char *colon = strrchr(v, ':'), *port = colon ? colon + 1 : v;
    size_t host = colon ? (size_t)(colon - v) : 0;
    if (host && !(host == 9 && strncmp(v, "127.0.0.1", 9) == 0) && !(host == 9 && strncmp(v, "localhost", 9) == 0)) {
        cli_usage_error(a, "--gdb %s: the stub listens on 127.0.0.1 only (it has no authentication): give PORT", v);
        return true;
    }
    if (cli_parse_u64(a, "--gdb", port, 0, 65535, ISK_UNIT_NONE, &o->gdb.port)) o->gdb.on = true;
    return true;
}

/* ---- the registers gdb sees --------------------------------------------------------------- */

/* GDB_TARGET .registers: "X[0..31] pc ACC:2" (debug_core's names, cell ranges, pc, :BYTES). */
static bool parse_registers(cli_gdb *g, const char *spec, char *why, size_t cap)
{
    const isk_model *m = isk_inst_model(g->proc);
    const char *p = spec;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        size_t n = strcspn(p, " \t");
        if (!n) break;
        char item[128];
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        p += n;
        int bytes = 0;
        char *c = strchr(item, ':');
        if (c) {
            uint64_t b;
            if (!isk_parse_u64(c + 1, 1, 64, ISK_UNIT_NONE, &b, why, cap)) return false;
            bytes = (int)b;
            *c = 0;
        }
        uint64_t first = 0, last = 0;
        char *dots = strstr(item, "..");
        char base[128];
        snprintf(base, sizeof base, "%s", item);
        if (dots) {           /* NAME[a..b]: cells a to b */
            char *open = strchr(item, '[');
            if (!open || open > dots || item[strlen(item) - 1] != ']') {
                snprintf(why, cap, "'%s': a range is NAME[FIRST..LAST]", item);
                return false;
            }
            item[strlen(item) - 1] = 0;
            *dots = 0;
            if (!isk_parse_u64(open + 1, 0, UINT32_MAX, ISK_UNIT_NONE, &first, why, cap) ||
                !isk_parse_u64(dots + 2, first, UINT32_MAX, ISK_UNIT_NONE, &last, why, cap))
                return false;
            *open = 0;
        }
        for (uint64_t i = first; i <= last; i++) {
            gdb_reg reg = { .bytes = bytes };
            if (!dots && strcmp(item, "pc") == 0) {
                if (!reg.bytes) reg.bytes = m->has_elf && m->elf.elfclass == 64 ? 8 : 4;
                snprintf(reg.name, sizeof reg.name, "pc");
            } else {
                char name[160];
                if (dots) snprintf(name, sizeof name, "%s[%" PRIu64 "]", item, i);
                else snprintf(name, sizeof name, "%s", item);
                if (isk_resolve(g->proc, name, &reg.ref, why, cap) != ISK_OK) return false;
                const isk_storage_info *si = isk_model_storage(m, reg.ref.storage);
                if (!reg.bytes) reg.bytes = (si->width + 7) / 8;
                uint64_t stride = m->gdb.context_stride;
                if (stride && reg.ref.index + (uint64_t)(g->nctx - 1) * stride >= si->count) {
                    snprintf(why, cap, "'%s' of the last context is past the %" PRIu64 " cells of %s", name, si->count,
                             si->name);
                    return false;
                }
                const char *el = si->element_names ? si->element_names[reg.ref.index] : NULL;
                snprintf(reg.name, sizeof reg.name, "%s", el ? el : name);
            }
            VEC_PUSH(&g->regs, reg);
        }
    }
    if (!g->regs.len) snprintf(why, cap, "no registers");
    return g->regs.len > 0;
}

/* The cell of register reg in the context gdb looks at (GDB_TARGET .context_stride). */
static isk_ref reg_ref(const cli_gdb *g, const gdb_reg *reg)
{
    isk_ref ref = reg->ref;
    ref.index += g->gthread * isk_inst_model(g->proc)->gdb.context_stride;
    return ref;
}

static uint64_t reg_read(cli_gdb *g, const gdb_reg *reg)
{
    isk_ref ref = reg_ref(g, reg);
    if (reg->ref.inst) return (uint64_t)isk_ref_read(&ref);
    uint64_t addr = 0;
    isk_pc_to_addr(isk_inst_model(g->proc), isk_context_of(g->proc, (int)g->gthread)->pc, &addr);
    return addr;
}

static bool reg_write(cli_gdb *g, const gdb_reg *reg, uint64_t v)
{
    isk_ref ref = reg_ref(g, reg);
    if (reg->ref.inst) {
        isk_ref_write(&ref, (int64_t)v);
        dbg_watch_refresh(&g->core);
        return true;
    }
    uint64_t pc;
    return isk_addr_to_pc(isk_inst_model(g->proc), v, &pc) && isk_start(g->proc, (int)g->gthread, pc) == ISK_OK;
}

static bool big_endian(const cli_gdb *g)
{
    const isk_model *m = isk_inst_model(g->proc);
    return m->has_elf && m->elf.big_endian;
}

/* A value as gdb's target bytes, in hex. */
static size_t hex_value(const cli_gdb *g, uint64_t v, int bytes, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < bytes; i++) {
        int b = big_endian(g) ? bytes - 1 - i : i;
        uint8_t byte = b < 8 ? (uint8_t)(v >> (8 * b)) : 0;
        out[2 * i] = hex[byte >> 4];
        out[2 * i + 1] = hex[byte & 15];
    }
    return (size_t)bytes * 2;
}

/* `bytes` target bytes in hex at p: false if they are not there. */
static bool parse_value(const cli_gdb *g, const char *p, int bytes, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < bytes; i++) {
        int hi = isk_hex_digit(p[2 * i]), lo = hi < 0 ? -1 : isk_hex_digit(p[2 * i + 1]);
        if (lo < 0) return false;
        int b = big_endian(g) ? bytes - 1 - i : i;
        if (b < 8) *v |= (uint64_t)(hi << 4 | lo) << (8 * b);
    }
    return true;
}

/* A hex number at *p, moving past it. */
static bool parse_hex(const char **p, uint64_t *v)
{
    *v = 0;
    const char *s = *p;
    while (isk_hex_digit(**p) >= 0) *v = *v << 4 | (uint64_t)isk_hex_digit(*(*p)++);
    return *p > s;
}

/* ---- packets ------------------------------------------------------------------------------ */

static void send_packet(cli_gdb *g, const char *data, size_t n)
{
    char *buf = isk_xcalloc(1, n + 5);
    unsigned sum = 0;
    buf[0] = '$';
    for (size_t i = 0; i < n; i++) sum += (unsigned char)(buf[i + 1] = data[i]);
    snprintf(buf + n + 1, 4, "#%02x", sum & 0xff);
    if (!cli_write_all(g->fd, buf, n + 4)) g->broken = true;
    free(buf);
    /* the '+' gdb answers is taken (and ignored) by the packet reader */
}

static void reply(cli_gdb *g, const char *text) { send_packet(g, text, strlen(text)); }

/* Wait up to `ms` (-1: forever) for more bytes: false at the end of the stream. */
static bool fill(cli_gdb *g, int ms)
{
    struct pollfd p = { .fd = g->fd, .events = POLLIN };
    int k = poll(&p, 1, ms);
    if (k == 0) return true;
    if (k < 0) return errno == EINTR;
    if (g->in_cap - g->in_len < 4096) {
        g->in_cap = g->in_cap * 2 + 4096;
        g->in = isk_xrealloc(g->in, g->in_cap);
    }
    ssize_t n = read(g->fd, g->in + g->in_len, g->in_cap - g->in_len);
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) return false;
    g->in_len += (size_t)n;
    return true;
}

static void consume(cli_gdb *g, size_t n)
{
    memmove(g->in, g->in + n, g->in_len - n);
    g->in_len -= n;
}

/* The next packet's data (malloc'd, NUL-terminated, '}' escapes undone), or NULL when the
 * connection ended. A Ctrl-C byte between packets while stopped is nothing to stop. */
static char *read_packet(cli_gdb *g)
{
    for (;;) {
        while (g->in_len && g->in[0] != '$') consume(g, 1);      /* acks, stray Ctrl-C */
        char *hash = g->in_len ? memchr(g->in, '#', g->in_len) : NULL;
        if (hash && (size_t)(hash - g->in) + 3 <= g->in_len) {
            size_t n = (size_t)(hash - g->in) - 1;
            char *data = isk_xcalloc(1, n + 1);
            unsigned sum = 0;
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)g->in[1 + i];
                sum += c;
                if (c == '}' && i + 1 < n) {
                    sum += (unsigned char)g->in[2 + i];
                    data[k++] = (char)(g->in[2 + i++] ^ 0x20);
                } else {
                    data[k++] = (char)c;
                }
            }
            bool ok = isk_hex_digit(hash[1]) >= 0 && isk_hex_digit(hash[2]) >= 0 &&
                      (unsigned)(isk_hex_digit(hash[1]) << 4 | isk_hex_digit(hash[2])) == (sum & 0xff);
            consume(g, n + 4);
            if (!g->no_ack && !cli_write_all(g->fd, ok ? "+" : "-", 1)) {
                free(data);
                return NULL;
            }
            if (ok) return data;
            free(data);
            continue;
        }
        if (!fill(g, -1)) return NULL;
    }
}

/* ---- running ----------------------------------------------------------------------------------- */

/* Between the core's slices: gdb's Ctrl-C (0x03) interrupts the run; other bytes wait. */
static void between(void *user)
{
    cli_gdb *g = user;
    if (g->r->between) g->r->between(g->r->between_user);
    if (!fill(g, 0)) {
        g->broken = true;
        dbg_interrupt(&g->core);
        return;
    }
    for (size_t i = 0; i < g->in_len; i++)
        if (g->in[i] == 0x03) {
            consume(g, i + 1);
            dbg_interrupt(&g->core);
            break;
        }
    if (cli_run_interrupted(g->r)) dbg_interrupt(&g->core);
}

static isk_status advance_run(void *run, uint64_t clocks) { return cli_run_advance(run, clocks); }

/* The exit status the program ended with: a context's EXIT_CONTEXT status, else 0. */
static int exit_code(cli_gdb *g)
{
    for (int c = 0; c < g->nctx; c++) {
        const isk_context *ctx = isk_context_of(g->proc, c);
        if (ctx->state == ISK_CTX_EXITED) return ctx->exit_status;
    }
    return 0;
}

/* The reply to a stop, which gdb waits for after c, s and vCont. */
static void report(cli_gdb *g, dbg_stop s)
{
    g->status = s.status;
    int sig = GDB_SIGTRAP;
    switch (s.kind) {
    case DBG_FINISHED:
        g->finished = true;
        snprintf(g->stop, sizeof g->stop, "W%02x", exit_code(g) & 0xff);
        reply(g, g->stop);
        return;
    case DBG_ERROR: {
        /* a fault the model could not take: gdb shows the state as it stands */
        const char *e = isk_last_error(g->r->sys);
        fprintf(stderr, "%s: %s\n", g->r->cmd, *e ? e : "the run failed");
        sig = strstr(e, "illegal") ? GDB_SIGILL : GDB_SIGSEGV;
        g->finished = true;
        break;
    }
    case DBG_INTERRUPTED: sig = GDB_SIGINT; break;
    case DBG_LIMIT: sig = GDB_SIGXCPU; break;
    default: break;
    }
    if (s.proc == g->proc) g->gthread = s.context;
    snprintf(g->stop, sizeof g->stop, "T%02xthread:%x;", sig, g->gthread + 1);
    reply(g, g->stop);
}

static void go(cli_gdb *g, bool step, uint32_t thread)
{
    if (g->finished) {
        reply(g, g->stop);
        return;
    }
    if (step) {
        g->core.proc = g->proc;
        g->core.context = thread;
        report(g, dbg_stepi(&g->core, 1));
    } else {
        report(g, dbg_continue(&g->core, 0));
    }
}

/* ---- the packets --------------------------------------------------------------------------- */

/* "m1,3" "Hg2" thread ids: -1 all, 0 any; contexts are 1..n */
static bool thread_arg(cli_gdb *g, const char *p, uint32_t *ctx)
{
    if (strncmp(p, "p", 1) == 0) p = strchr(p, '.') ? strchr(p, '.') + 1 : p + 1;
    if (strcmp(p, "-1") == 0 || strcmp(p, "0") == 0 || !*p) return true;
    uint64_t t;
    if (!parse_hex(&p, &t) || t < 1 || t > (uint64_t)g->nctx) return false;
    *ctx = (uint32_t)(t - 1);
    return true;
}

static void target_xml(cli_gdb *g, const char *args)
{
    const isk_model *m = isk_inst_model(g->proc);
    /* qXfer:features:read:target.xml:OFFSET,LENGTH */
    if (strncmp(args, "target.xml:", 11) != 0 || !m->gdb.feature) return reply(g, "E00");
    const char *p = args + 11;
    uint64_t off, len;
    if (!parse_hex(&p, &off) || *p++ != ',' || !parse_hex(&p, &len)) return reply(g, "E01");
    size_t cap = 512 + g->regs.len * 128, n = 0;
    char *xml = isk_xcalloc(1, cap);
    n += (size_t)snprintf(xml + n, cap - n, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target>\n");
    if (m->gdb.arch) n += (size_t)snprintf(xml + n, cap - n, "<architecture>%s</architecture>\n", m->gdb.arch);
    n += (size_t)snprintf(xml + n, cap - n, "<feature name=\"%s\">\n", m->gdb.feature);
    for (size_t i = 0; i < g->regs.len; i++) {
        const gdb_reg *r = &g->regs.data[i];
        n += (size_t)snprintf(xml + n, cap - n, "<reg name=\"%s\" bitsize=\"%d\" regnum=\"%zu\"%s/>\n", r->name,
                              r->bytes * 8, i, r->ref.inst ? "" : " type=\"code_ptr\"");
    }
    n += (size_t)snprintf(xml + n, cap - n, "</feature>\n</target>\n");
    if (off >= n) {
        reply(g, "l");
    } else {
        size_t k = len < n - off ? (size_t)len : n - (size_t)off;
        char *out = isk_xcalloc(1, k + 2);
        out[0] = off + k < n ? 'm' : 'l';
        memcpy(out + 1, xml + off, k);
        send_packet(g, out, k + 1);       /* the XML has none of $ # } * */
        free(out);
    }
    free(xml);
}

static void read_registers(cli_gdb *g)
{
    char *out = isk_xcalloc(1, g->regs.len * 128 + 1);
    size_t n = 0;
    for (size_t i = 0; i < g->regs.len; i++) n += hex_value(g, reg_read(g, &g->regs.data[i]), g->regs.data[i].bytes, out + n);
    send_packet(g, out, n);
    free(out);
}

static void write_registers(cli_gdb *g, const char *p)
{
    for (size_t i = 0; i < g->regs.len; i++) {
        uint64_t v;
        if (!parse_value(g, p, g->regs.data[i].bytes, &v)) return reply(g, "E01");
        p += 2 * g->regs.data[i].bytes;
        if (!reg_write(g, &g->regs.data[i], v)) return reply(g, "E02");
    }
    reply(g, "OK");
}

static void one_register(cli_gdb *g, const char *p, bool write)
{
    uint64_t n, v;
    if (!parse_hex(&p, &n) || (write && *p++ != '=')) return reply(g, "E01");
    if (n >= g->regs.len) return reply(g, "E00");      /* gdb asks beyond the list: not there */
    const gdb_reg *r = &g->regs.data[n];
    if (write) return reply(g, parse_value(g, p, r->bytes, &v) && reg_write(g, r, v) ? "OK" : "E02");
    char out[130];
    send_packet(g, out, hex_value(g, reg_read(g, r), r->bytes, out));
}

static void memory(cli_gdb *g, const char *p, bool write)
{
    uint64_t addr, len;
    if (!parse_hex(&p, &addr) || *p++ != ',' || !parse_hex(&p, &len) || (write && *p++ != ':')) return reply(g, "E01");
    if (len > 65536) len = 65536;
    char *out = isk_xcalloc(1, 2 * len + 1);
    size_t n = 0;
    for (uint64_t i = 0; i < len; i++) {
        uint8_t b = 0;
        uint64_t v = 0;
        if (write && !parse_value(g, p + 2 * i, 1, &v)) break;
        b = (uint8_t)v;
        if (!dbg_mem_byte(g->proc, addr + i, &b, write ? &b : NULL)) break;
        n += hex_value(g, b, 1, out + n);
    }
    if (write) dbg_watch_refresh(&g->core);
    /* a read that starts outside every region is an error; one that runs out of it is short */
    if (!n && len) reply(g, "E14");
    else if (write) reply(g, n / 2 == len ? "OK" : "E14");
    else send_packet(g, out, n);
    free(out);
}

static void breakpoint(cli_gdb *g, const char *p, bool insert)
{
    /* Z0/Z1,ADDR,KIND: a software or hardware breakpoint, both the core's */
    uint64_t addr, pc;
    p += 2;
    if (*p++ != ',' || !parse_hex(&p, &addr)) return reply(g, "E01");
    for (size_t i = 0; i < g->bps.len; i++)
        if (g->bps.data[i].addr == addr) {
            if (insert) return reply(g, "OK");
            dbg_delete(&g->core, g->bps.data[i].id);
            g->bps.data[i] = g->bps.data[--g->bps.len];
            return reply(g, "OK");
        }
    if (!insert) return reply(g, "OK");
    if (!isk_addr_to_pc(isk_inst_model(g->proc), addr, &pc)) return reply(g, "E01");
    VEC_PUSH(&g->bps, ((gdb_bp){ addr, dbg_break(&g->core, g->proc, pc, false) }));
    reply(g, "OK");
}

/* vCont;ACTION[:THREAD]...: a step of one thread (the others run with it), or continue */
static void vcont(cli_gdb *g, const char *p)
{
    bool step = false;
    uint32_t thread = g->gthread;
    while (*p == ';') {
        char action = *++p;
        p++;
        if (action == 'C' || action == 'S') while (isk_hex_digit(*p) >= 0) p++;      /* no signals to deliver */
        uint32_t t = g->gthread;
        if (*p == ':') {
            char id[32];
            size_t n = strcspn(p + 1, ";");
            snprintf(id, sizeof id, "%.*s", (int)n, p + 1);
            if (!thread_arg(g, id, &t)) return reply(g, "E01");
            p += 1 + n;
        }
        if ((action == 's' || action == 'S') && !step) {
            step = true;
            thread = t;
        } else if (action != 'c' && action != 'C' && action != 's' && action != 'S') {
            return reply(g, "");         /* t, r: not supported */
        }
    }
    go(g, step, thread);
}

static void query(cli_gdb *g, const char *q)
{
    char buf[256];
    const isk_model *m = isk_inst_model(g->proc);
    if (strncmp(q, "qSupported", 10) == 0) {
        snprintf(buf, sizeof buf, "PacketSize=%x;QStartNoAckMode+;vContSupported+%s", 65536 * 2 + 16,
                 m->gdb.feature ? ";qXfer:features:read+" : "");
        reply(g, buf);
    } else if (strcmp(q, "qAttached") == 0 || strncmp(q, "qAttached:", 10) == 0) {
        reply(g, "1");
    } else if (strcmp(q, "qC") == 0) {
        snprintf(buf, sizeof buf, "QC%x", g->gthread + 1);
        reply(g, buf);
    } else if (strcmp(q, "qfThreadInfo") == 0) {
        size_t n = (size_t)snprintf(buf, sizeof buf, "m");
        for (int c = 0; c < g->nctx && n < sizeof buf - 12; c++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%x", c ? "," : "", c + 1);
        reply(g, buf);
    } else if (strcmp(q, "qsThreadInfo") == 0) {
        reply(g, "l");
    } else if (strncmp(q, "qThreadExtraInfo,", 17) == 0) {
        uint32_t t = 0;
        if (!thread_arg(g, q + 17, &t)) return reply(g, "E01");
        char text[96], *out = buf;
        snprintf(text, sizeof text, "%s ctx %u", isk_inst_name(g->proc), t);
        for (size_t i = 0; text[i]; i++) out += hex_value(g, (uint8_t)text[i], 1, out);
        *out = 0;
        reply(g, buf);
    } else if (strncmp(q, "qXfer:features:read:", 20) == 0) {
        target_xml(g, q + 20);
    } else if (strcmp(q, "QStartNoAckMode") == 0) {
        reply(g, "OK");
        g->no_ack = true;
    } else {
        reply(g, "");             /* the empty reply: not supported, gdb does without */
    }
}

/* One packet. */
static void handle(cli_gdb *g, const char *p)
{
    uint32_t t;
    switch (p[0]) {
    case '?': reply(g, g->stop); break;
    case 'g': read_registers(g); break;
    case 'G': write_registers(g, p + 1); break;
    case 'p': one_register(g, p + 1, false); break;
    case 'P': one_register(g, p + 1, true); break;
    case 'm': memory(g, p + 1, false); break;
    case 'M': memory(g, p + 1, true); break;
    case 'c': go(g, false, g->gthread); break;
    case 's': go(g, true, g->gthread); break;
    case 'H':
        t = g->gthread;
        if (!p[1] || !thread_arg(g, p + 2, &t)) return reply(g, "E01");
        if (p[1] == 'g' || p[1] == 'c') g->gthread = t;
        reply(g, "OK");
        break;
    case 'T': reply(g, thread_arg(g, p + 1, &t) ? "OK" : "E01"); break;
    case 'Z':
    case 'z':
        if (p[1] == '0' || p[1] == '1') breakpoint(g, p, p[0] == 'Z');
        else reply(g, "");        /* watchpoints: not through gdb */
        break;
    case 'D':
        g->detach = true;
        reply(g, "OK");
        break;
    case 'k': g->killed = true; break;
    case 'q':
    case 'Q': query(g, p); break;
    case 'v':
        if (strncmp(p, "vCont?", 6) == 0) reply(g, "vCont;c;C;s;S");
        else if (strncmp(p, "vCont;", 5) == 0 && p[5] == ';') vcont(g, p + 5);
        else if (strncmp(p, "vKill", 5) == 0) {
            g->killed = true;
            reply(g, "OK");
        } else reply(g, "");
        break;
    default: reply(g, ""); break;
    }
}

/* ---- begin, go, end --------------------------------------------------------------------------- */

/* The processor gdb talks to: the first that declares GDB_TARGET. */
static isk_inst *gdb_processor(isk_system *sys)
{
    isk_inst *inst;
    for (int i = 0; (inst = isk_instance_at(sys, i)); i++)
        if (isk_inst_model(inst)->is_processor && isk_inst_model(inst)->has_gdb) return inst;
    return NULL;
}

bool cli_gdb_begin(cli_run *r, const cli_run_opts *o)
{
    if (!o->gdb.on) return true;
    isk_inst *proc = gdb_processor(r->sys);
    if (!proc) {
        fprintf(stderr, "%s: --gdb: no processor of this system declares what gdb needs (GDB_TARGET in its "
                "model, docs/gdb.md)\n", r->cmd);
        return false;
    }
    cli_gdb *g = isk_xcalloc(1, sizeof *g);
    g->r = r;
    g->proc = proc;
    g->fd = -1;
    for (g->nctx = 0; isk_context_of(proc, g->nctx); g->nctx++) {}
    char why[256];
    if (!parse_registers(g, isk_inst_model(proc)->gdb.registers, why, sizeof why)) {
        fprintf(stderr, "%s: --gdb: model '%s': GDB_TARGET .registers: %s\n", r->cmd,
                isk_model_name(isk_inst_model(proc)), why);
        VEC_FREE(&g->regs);
        free(g);
        return false;
    }
    g->fd = cli_tcp_accept_one(r->cmd, "--gdb", "gdb stub", o->gdb.port);
    if (g->fd < 0) {
        VEC_FREE(&g->regs);
        free(g);
        return false;
    }
    dbg_core_init(&g->core, r->sys, r->limit);
    g->core.proc = proc;
    snprintf(g->stop, sizeof g->stop, "T%02xthread:1;", GDB_SIGTRAP);
    r->gdb = g;
    return true;
}

void cli_gdb_end(cli_run *r)
{
    cli_gdb *g = r->gdb;
    if (!g) return;
    dbg_core_free(&g->core);
    close(g->fd);
    VEC_FREE(&g->regs);
    VEC_FREE(&g->bps);
    free(g->in);
    free(g);
    r->gdb = NULL;
}

isk_status cli_gdb_go(cli_run *r, uint64_t clocks)
{
    (void)clocks;    /* gdb decides how far the run goes */
    cli_gdb *g = r->gdb;
    g->core.limit = r->limit;
    g->core.between = between;
    g->core.between_user = g;
    g->core.advance = advance_run;
    g->core.advance_user = r;
    g->status = ISK_OK;
    /* gdb going away while we write must end the session, not the process */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    while (!g->broken && !g->killed && !g->detach) {
        char *p = read_packet(g);
        if (!p) break;
        handle(g, p);
        free(p);
    }
    sigaction(SIGPIPE, &old, NULL);
    if (g->detach && !g->finished) {
        /* gdb let the program go: it runs to its end without breakpoints */
        dbg_delete(&g->core, -1);
        return dbg_continue(&g->core, 0).status;    /* the limit and Ctrl-C: ISK_OK, the runner says */
    }
    if (g->finished) return g->status;
    fprintf(stderr, "%s: gdb %s at clock %" PRIu64 ", before the program ended\n", r->cmd,
            g->killed ? "killed the program" : "ended the session", isk_clock(r->sys));
    return ISK_FAILED;
}
