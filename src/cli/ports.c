/* Port wiring of a run (ports.h, docs/systems.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ports.h"

/* What model folders registered; weak, as a build may link none. */
extern const sys_port_device *const __start_isk_sys_devices[] __attribute__((weak));
extern const sys_port_device *const __stop_isk_sys_devices[] __attribute__((weak));

const sys_port_device *sys_port_device_at(int i)
{
    const sys_port_device *const *start = __start_isk_sys_devices, *const *stop = __stop_isk_sys_devices;
    return start && i >= 0 && i < stop - start ? start[i] : NULL;
}

const sys_port_device *sys_port_device_find(const char *name)
{
    for (int i = 0; sys_port_device_at(i); i++)
        if (strcmp(sys_port_device_at(i)->name, name) == 0) return sys_port_device_at(i);
    return NULL;
}

/* The port log is a subscriber to the engine's port-write events (every processor's, wired or
 * not, before its wiring acts). */
static void log_port_write(void *log, const isk_event *ev)
{
    fprintf(log, "%8" PRIu64 "  %-6s out 0x%02" PRIx64 " = 0x%02" PRIx64 "\n", ev->clock, isk_inst_name(ev->inst),
            ev->port, (uint64_t)ev->value);
}

port_route *port_route_find(proc_ports *p, bool out, uint64_t port)
{
    port_route *r = out ? p->outs.data : p->ins.data;
    size_t n = out ? p->outs.len : p->ins.len;
    for (size_t i = 0; i < n; i++)
        if (r[i].port == port) return &r[i];
    return NULL;
}

static void port_write(void *user, isk_inst *inst, uint64_t port, uint64_t value)
{
    proc_ports *p = user;
    port_route *r = port_route_find(p, true, port);
    if (!r) {
        if (p->device) p->device->write(p->device_user, inst, port, value);
        return;
    }
    switch (r->kind) {
    case ROUTE_STOP:
        p->stop = true;
        isk_stop_after_clock(p->wiring->sys);
        break;
    case ROUTE_STDOUT:
        putchar((int)(value & 0xFF));
        break;
    case ROUTE_CELL:
        isk_ref_write(&r->cell, (int64_t)value);
        break;
    case ROUTE_INPUT:
        r->to->ins.data[r->to_route].value = value;
        break;
    default:
        break;
    }
}

static uint64_t port_read(void *user, isk_inst *inst, uint64_t port)
{
    proc_ports *p = user;
    port_route *r = port_route_find(p, false, port);
    if (!r) return p->device ? p->device->read(p->device_user, inst, port) : 0;
    switch (r->kind) {
    case ROUTE_STDIN: {
        int c = getchar();
        return c == EOF ? 0 : (uint64_t)c;
    }
    case ROUTE_CELL: return (uint64_t)isk_ref_read(&r->cell);
    case ROUTE_VALUE: return r->value;
    default: return 0;
    }
}

port_wiring *port_wiring_new(isk_system *sys, FILE *log)
{
    port_wiring *w = isk_xcalloc(1, sizeof *w);
    w->sys = sys;
    if (log) isk_subscribe(sys, ISK_EV_BIT(ISK_EV_PORT_WRITE), log_port_write, log);
    return w;
}

void port_wiring_free(port_wiring *w)
{
    if (!w) return;
    for (size_t i = 0; i < w->procs.len; i++) {
        proc_ports *p = w->procs.data[i];
        if (p->device && p->device->close) p->device->close(p->device_user);
        VEC_FREE(&p->outs);
        VEC_FREE(&p->ins);
        free(p);
    }
    VEC_FREE(&w->procs);
    free(w);
}

proc_ports *port_wiring_of(port_wiring *w, isk_inst *proc)
{
    for (size_t i = 0; i < w->procs.len; i++)
        if (w->procs.data[i]->proc == proc) return w->procs.data[i];
    proc_ports *p = isk_xcalloc(1, sizeof *p);
    p->proc = proc;
    p->wiring = w;
    VEC_PUSH(&w->procs, p);
    isk_set_ports(proc, port_read, port_write, p);
    return p;
}

void port_wiring_apply_stops(void *wiring)
{
    port_wiring *w = wiring;
    for (size_t i = 0; i < w->procs.len; i++) {
        proc_ports *p = w->procs.data[i];
        if (!p->stop) continue;
        p->stop = false;
        isk_context *c;
        for (int id = 0; (c = isk_context_of(p->proc, id)); id++)
            if (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED || c->state == ISK_CTX_SLEEPING)
                isk_stop(p->proc, id, c->pc);       /* an exited or faulted one keeps saying so */
    }
}
