#include "lfg_mhd_shims.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* Leaves the URL and query arguments percent-encoded: libmicrohttpd's own decoding turns `x%00y` into `x`
   and every broken UTF-8 byte into the same character, so the Swift side decodes them strictly instead. */
static size_t lfg_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *uri) {
    (void)cls;
    (void)connection;
    return strlen(uri);
}

struct MHD_Daemon *lfg_mhd_start(unsigned int flags, const char *bind_address, uint16_t port,
                                 MHD_AccessHandlerCallback handler, void *handler_context,
                                 MHD_RequestCompletedCallback completed, void *completed_context,
                                 unsigned int thread_pool_size, unsigned int connection_limit,
                                 unsigned int connection_timeout_seconds, MHD_NotifyConnectionCallback notify,
                                 void *notify_context, unsigned int listen_backlog) {
    struct MHD_OptionItem options[12];
    int count = 0;
    struct sockaddr_in address; /* read only while MHD_start_daemon binds */
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (bind_address == NULL || inet_pton(AF_INET, bind_address, &address.sin_addr) != 1) {
        return NULL;
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &address};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)lfg_mhd_keep_escaped, NULL};
    if (completed) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_context};
    }
    if (thread_pool_size) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size, NULL};
    }
    if (connection_limit) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL};
    }
    if (connection_timeout_seconds) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds, NULL};
    }
    if (notify) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_context};
    }
    if (listen_backlog) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

uint16_t lfg_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int lfg_mhd_peer_address(struct MHD_Connection *connection, char *buffer, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || length == 0) {
        return 0;
    }
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, buffer, (socklen_t)length) != NULL;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)length) != NULL;
    }
    return 0;
}

int lfg_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}
