/* The debugging servers' socket (the DAP server's --dap-port, the gdb stub's --gdb): loopback
 * only, since neither protocol has any authentication. */
#ifndef ISK_CLI_TCP_H
#define ISK_CLI_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Listen on 127.0.0.1:port (0: any free port), say "CMD: WHAT listening on 127.0.0.1:PORT" on
 * stderr, accept one client: its socket, or -1 (reported as "CMD: OPTION PORT: why"). */
int cli_tcp_accept_one(const char *cmd, const char *option, const char *what, uint64_t port);

/* Write all n bytes to fd (retrying short writes and EINTR); false once the peer is gone. */
bool cli_write_all(int fd, const char *p, size_t n);

#endif
