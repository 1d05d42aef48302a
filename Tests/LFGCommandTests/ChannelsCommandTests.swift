import LFGCommandTesting
import APNs
import APNsMock
import AsyncTesting
import Foundation
import LFGCommand
import Testing

@Suite("Channel commands")
struct ChannelsCommandTests {
    typealias Setup = APNsCommandTests.Setup

    /// `lfg arguments` in memory, bounded so a hang is a named failure.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
        try await bounded("lfg \(arguments.prefix(2).joined(separator: " "))") {
            await CapturedRun.run(arguments, environment: environment)
        }
    }

    func environment(_ setup: Setup) -> [String: String] {
        setup.environment.merging(["LFG_APNS_CHANNELS_SANDBOX_URL": setup.server.baseURL]) { $1 }
    }

    @Test("lfg channels create, list, publish with lfg push --channel, delete, then publishing is refused")
    func lifecycle() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let env = environment(setup)
        let created = try await run(["channels", "create", "--env", "sandbox", "--policy", "0"], environment: env)
        #expect(created.status == 0, "\(created.errors)")
        let channel = try #require(try APNsCommandTests.object(created.output)["channel"] as? String)
        #expect(setup.server.state.channels.map(\.policy) == [.noStorage])
        let list = try await run(["channels", "list", "--env", "sandbox"], environment: env)
        #expect(try APNsCommandTests.object(list.output)["channels"] as? [String] == [channel])
        let state = try setup.file("state.json", #"{"working":1,"rows":[]}"#)
        let push = try await run(
            ["push", "--env", "sandbox", "--channel", channel, "--event", "update", "--state", state, "--stale-date", "1764403600",
             "--priority", "5"], environment: env)
        #expect(push.status == 0, "\(push.errors)")
        let broadcast = try #require(setup.server.state.broadcasts(to: channel).first)
        #expect(broadcast.headers["apns-priority"] == "5" && broadcast.headers["apns-expiration"] == "0")
        #expect(((broadcast.bodyJSON as? [String: Any])?["aps"] as? [String: Any])?["stale-date"] as? Int == 1_764_403_600)
        let deleted = try await run(["channels", "delete", "--env", "sandbox", "--channel", channel], environment: env)
        #expect(try deleted.status == 0 && APNsCommandTests.object(deleted.output)["status"] as? Int == 204)
        let refused = try await run(
            ["push", "--env", "sandbox", "--channel", channel, "--event", "end"], environment: env)
        #expect(refused.status == 1 && refused.output.contains("ChannelNotRegistered"))
        let read = try await run(["channels", "read", "--env", "sandbox", "--channel", channel], environment: env)
        #expect(read.status == 1 && read.errors.contains("ChannelNotRegistered"))
    }

    @Test("Bad channel arguments are usage errors naming what is wrong", arguments: [
        (["push", "--env", "sandbox", "--channel", "abc=", "--event", "start", "--state", "x"], "cannot start"),
        (["push", "--env", "sandbox", "--channel", "abc=", "--token", "aa", "--event", "end"], "exactly one"),
        (["push", "--env", "sandbox", "--channel", "not base64", "--event", "end"], "--channel"),
        (["channels", "read", "--env", "sandbox"], "--channel ID is required"),
        (["channels", "create", "--env", "sandbox", "--policy", "2"], "--policy"),
    ])
    func usage(arguments: [String], message: String) async throws {
        let run = try await run(arguments)
        #expect(run.status == 2)
        #expect(run.errors.contains(message), "\(run.errors)")
    }
}
