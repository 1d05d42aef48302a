import Foundation

/// Streaming answers (server-sent events): a pump task on this loop writes the producer's chunks as
/// they come. A reader more than `maxStreamBufferBytes` behind is dropped, and a client that goes away
/// (or the server stopping) cancels the pump, which terminates the producer's stream (its `onTermination`).
extension EventLoop {
    /// Starts the task that copies `source`'s chunks to `connection` until either ends.
    func pump(_ source: AsyncStream<Data>, into connection: Connection) {
        liveTasks += 1
        let socket = connection.socket
        let id = connection.id
        connection.task = Task(executorPreference: self) {
            // Cancelled (client gone, reader too slow, server stopping): the iteration ends and the
            // producer's stream is terminated; chunks it had buffered are dropped by `write`.
            for await chunk in source {
                self.onLoop { self.write(chunk, socket: socket, id: id) }
            }
            self.onLoop {
                self.liveTasks -= 1
                self.endStream(socket: socket, id: id)
            }
        }
        if isShuttingDown { connection.task?.cancel() }
    }

    private func streamingConnection(_ socket: Int32, id: UInt64) -> (Connection, ResponseEncoding.Framing, Bool)? {
        guard let connection = connections[socket], connection.id == id,
            case .streaming(let framing, let closesAfter) = connection.phase
        else { return nil }
        return (connection, framing, closesAfter)
    }

    private func write(_ chunk: Data, socket: Int32, id: UInt64) {
        guard let (connection, framing, _) = streamingConnection(socket, id: id) else { return }
        ResponseEncoding.appendChunk(chunk, framing: framing, to: &connection.output)
        flush(connection)
        if connection.pendingOutputBytes > core.configuration.maxStreamBufferBytes { closeConnection(connection) }
    }

    private func endStream(socket: Int32, id: UInt64) {
        guard let (connection, framing, closesAfter) = streamingConnection(socket, id: id) else { return }
        if framing == .chunked { connection.output.append(contentsOf: ResponseEncoding.lastChunk) }
        connection.task = nil
        connection.phase = .writing(closesAfter: closesAfter)
        flush(connection)
    }

    /// Terminates a stream nobody will read (its connection is gone), so its producer is released.
    static func release(_ source: AsyncStream<Data>) {
        let reader = Task {
            for await _ in source {}
        }
        reader.cancel()
    }
}
