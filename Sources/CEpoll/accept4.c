#define _GNU_SOURCE
#include <sys/socket.h>
#include "CEpoll.h"

int lfg_epoll_accept4(int socket, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(socket, address, length, flags);
}
