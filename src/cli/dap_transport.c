/* The DAP server's stream (dap_int.h): framed messages in and out over stdio or one TCP client. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/dap_int.h"
#include "cli/tcp.h"

void dap_send_json(struct cli_dap *d, jbuf *msg)
{
    char hdr[64];
    int k = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", msg->len);
    if (!cli_write_all(d->out_fd, hdr, (size_t)k) || !cli_write_all(d->out_fd, msg->p, msg->len)) d->disconnected = true;
}

/* An event; body is the inside of its body object ("" or NULL for none). */
void dap_event(struct cli_dap *d, const char *name, const char *body)
{
    jbuf m = { 0 };
    jb_add(&m, "{\"seq\":%lld,\"type\":\"event\",\"event\":", (long long)++d->seq);
    jb_str(&m, name);
    if (body && *body) jb_add(&m, ",\"body\":{%s}", body);
    jb_add(&m, "}");
    dap_send_json(d, &m);
    jb_free(&m);
}

void dap_output(struct cli_dap *d, const char *category, const char *text)
{
    jbuf b = { 0 };
    jb_kstr(&b, "category", category);
    jb_kstr(&b, "output", text);
    dap_event(d, "output", b.p);
    jb_free(&b);
}

/* One message's body (malloc'd, NUL-terminated) or NULL at the end of the input or after bad
 * framing (reported on stderr: the session then ends). */
char *dap_read_message(struct cli_dap *d)
{
    for (;;) {
        size_t hdr, n;
        char err[160];
        int f = d->len ? dap_frame(d->buf, d->len, &hdr, &n, err, sizeof err) : 0;
        if (f < 0) {
            fprintf(stderr, "%s: DAP: %s: ending the session\n", d->r->cmd, err);
            return NULL;
        }
        if (f > 0) {
            char *body = isk_xcalloc(1, n + 1);
            memcpy(body, d->buf + hdr, n);
            memmove(d->buf, d->buf + hdr + n, d->len - hdr - n);
            d->len -= hdr + n;
            return body;
        }
        if (d->cap - d->len < 65536) {
            d->cap = d->cap * 2 + 65536;
            d->buf = isk_xrealloc(d->buf, d->cap);
        }
        ssize_t k = read(d->in_fd, d->buf + d->len, d->cap - d->len);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (d->len) fprintf(stderr, "%s: DAP: the input ended inside a message: ending the session\n", d->r->cmd);
            return NULL;
        }
        d->len += (size_t)k;
    }
}

bool dap_input_waiting(struct cli_dap *d)
{
    struct pollfd p = { .fd = d->in_fd, .events = POLLIN };
    return d->len || poll(&p, 1, 0) > 0;
}
