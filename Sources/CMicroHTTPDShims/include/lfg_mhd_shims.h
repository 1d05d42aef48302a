// A non-variadic start function for libmicrohttpd (Swift cannot call MHD_start_daemon's varargs).
// The HTTPServer module owns this file; every symbol is prefixed lfg_mhd_.
#pragma once
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/// Starts a daemon bound to `bind_address` (IPv4 dotted quad) and `port` (0 = any free port).
struct MHD_Daemon *lfg_mhd_start(unsigned int flags, const char *bind_address, uint16_t port,
                                 MHD_AccessHandlerCallback handler, void *handler_context,
                                 MHD_RequestCompletedCallback completed, void *completed_context,
                                 unsigned int thread_pool_size, unsigned int connection_limit,
                                 unsigned int connection_timeout_seconds, MHD_NotifyConnectionCallback notify,
                                 void *notify_context, unsigned int listen_backlog);

/// The connection's socket, or -1.
int lfg_mhd_connection_socket(struct MHD_Connection *connection);

/// The port the daemon actually listens on (useful after binding port 0), or 0.
uint16_t lfg_mhd_bound_port(struct MHD_Daemon *daemon);

/// Writes the connection's peer address as text (`127.0.0.1`, `::1`) into `buffer`; returns 1 on success, 0 when
/// unknown. `MHD_get_connection_info` is variadic, so Swift reaches it through this wrapper.
int lfg_mhd_peer_address(struct MHD_Connection *connection, char *buffer, size_t length);
