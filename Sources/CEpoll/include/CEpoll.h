#pragma once
/* The Linux calls module HTTPServer's event loops make that Swift's Glibc module does not bring in:
   epoll, eventfd, and accept4 (a GNU extension, wrapped so no _GNU_SOURCE leaks into Swift). */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

int lfg_epoll_accept4(int socket, struct sockaddr *address, socklen_t *length, int flags);
