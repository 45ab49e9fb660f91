/* What a processor's ports reach in a run (docs/systems.md): each OUTPUT goes to the port log
 * (if on), then to its wiring: another instance's storage cell or input port, stdout, or "stop";
 * each INPUT comes from its wiring: a value, stdin, a storage cell, what another processor
 * wrote. Ports without wiring go to a port device a model folder registered (SYS_PORT_DEVICE),
 * if the processor has one, else writes are ignored and reads give 0. */
#ifndef ISK_CLI_PORTS_H
#define ISK_CLI_PORTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/vec.h"
#include "isekit/sim.h"

/* A port device: glue logic a model folder brings (the EdkDSP BCE's between a PicoBlaze and a
 * DFU). `open` connects it to processor `proc` and the instances the description names after
 * the device (`ports = NAME INST...`); NULL with the reason in `why`. */
typedef struct sys_port_device {
    const char *name, *summary;
    const char *args;                /* what follows the name, for messages: "DFU" */
    void *(*open)(isk_system *sys, isk_inst *proc, isk_inst *const *args, int nargs, char *why, size_t cap);
    isk_port_read_fn read;
    isk_port_write_fn write;
    void (*close)(void *dev);
} sys_port_device;

/* SYS_PORT_DEVICE(id, "name", "summary", "ARGS", open, read, write, close) at file scope in a
 * model folder's RUNNER file registers a device; linking the file is all it takes. */
#define SYS_PORT_DEVICE(id, ...) \
    static const sys_port_device id##_device = { __VA_ARGS__ }; \
    __attribute__((used, section("isk_sys_devices"))) static const sys_port_device *const id##_at = &id##_device

/* The i-th registered device (link order), NULL past the last; the one of that name or NULL. */
const sys_port_device *sys_port_device_at(int i);
const sys_port_device *sys_port_device_find(const char *name);

enum port_route_kind {
    ROUTE_STOP,                      /* out: the processor stops at the end of the clock */
    ROUTE_STDOUT,                    /* out: the low byte to stdout */
    ROUTE_STDIN,                     /* in: the next byte of stdin, 0 at its end */
    ROUTE_CELL,                      /* out: write the cell; in: read it */
    ROUTE_VALUE,                     /* in: a value (a constant, or what a ROUTE_INPUT wrote) */
    ROUTE_INPUT                      /* out: becomes the value of another processor's input */
};

typedef struct port_route {
    uint64_t port;
    int line;                        /* of its description, for messages (0 = none) */
    int kind;                        /* enum port_route_kind */
    isk_ref cell;                    /* ROUTE_CELL */
    uint64_t value;                  /* ROUTE_VALUE */
    struct proc_ports *to;           /* ROUTE_INPUT: the processor whose input ... */
    size_t to_route;                 /* ... route (a ROUTE_VALUE in its ins) it sets */
} port_route;

typedef struct proc_ports {
    isk_inst *proc;
    VEC(port_route) outs, ins;
    const sys_port_device *device;   /* NULL = none */
    void *device_user;
    struct port_wiring *wiring;
    bool stop;                       /* it wrote a stop port in the clock just run */
} proc_ports;

typedef struct port_wiring {
    isk_system *sys;
    VEC(proc_ports *) procs;
} port_wiring;

/* The wiring of a system's processors; with `log`, every port write of the run is logged there
 * (docs/systems.md: clock, instance, port, value). */
port_wiring *port_wiring_new(isk_system *sys, FILE *log);
void port_wiring_free(port_wiring *w);
/* The ports of processor `proc`, made (and installed with isk_set_ports) on first use. */
proc_ports *port_wiring_of(port_wiring *w, isk_inst *proc);
/* The route of that port among `routes` (ins or outs), or NULL. */
port_route *port_route_find(proc_ports *p, bool out, uint64_t port);
/* Between two slices of a run: stop the processors that wrote a stop port (their contexts
 * stop; the run ends when nothing else acts). */
void port_wiring_apply_stops(void *wiring);

#endif
