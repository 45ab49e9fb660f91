/* tcp.h */
#include "cli/tcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int cli_tcp_accept_one(const char *cmd, const char *option, const char *what, uint64_t port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return -1;
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);     /* loopback only: the protocols have no authentication */
    socklen_t alen = sizeof a;
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 1) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &alen) != 0) {
        fprintf(stderr, "%s: %s %" PRIu64 ": %s\n", cmd, option, port, strerror(errno));
        close(s);
        return -1;
    }
    fprintf(stderr, "%s: %s listening on 127.0.0.1:%u\n", cmd, what, ntohs(a.sin_port));
    int c;
    while ((c = accept(s, NULL, NULL)) < 0 && errno == EINTR) {}
    if (c < 0) fprintf(stderr, "%s: %s: %s\n", cmd, option, strerror(errno));
    close(s);
    return c;
}

bool cli_write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}
