import ControlPlane
import Diagnosis
import FleetCore
import Foundation
import HTTPTypes
import HookAdapter
import Testing

/// Seeded random mutations of valid inputs for every decoder of outside input: API request bodies,
/// hook payloads, settings files (the strict JSON parser and `.env`), decision-log lines. Each must
/// answer without crashing; the API must answer in the contract's error shape and never 5xx.
/// CI runs `DecoderFuzz.ciCount` per decoder; `bench/hostile.sh` runs more against the live server.
@Suite struct DecoderFuzzTests {
    static let seeds: [UInt64] = [1, 2, 3]

    @Test("Mutated request bodies get 200 or a 4xx in the error shape, never a 5xx", arguments: seeds)
    func requestBodies(seed: UInt64) async throws {
        let harness = try await ServiceHarness()
        var mutator = Mutator(seed: seed)
        let valid: [(String, String, String)] = [
            ("PUT", "/api/sessions/f1", #"{"title":"x","busy":true,"prompt":{"kind":"question","text":"?"}}"#),
            ("PATCH", "/api/sessions/f1", #"{"busy":false,"step":"s"}"#),
            ("PUT", "/api/devices/d1", #"{"env":"sandbox","platform":"ios","hiddenDirs":["a"]}"#),
            ("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":"d1"}"#),
            ("PUT", "/api/hosts/h1", #"{"ttlSeconds":60}"#),
        ]
        for _ in 0..<DecoderFuzz.ciCount {
            let (method, path, body) = valid[mutator.index(valid.count)]
            let response = await harness.router.respond(to: HTTPRequest(
                method: method, path: path,
                headers: ["Authorization": "Bearer \(ServiceHarness.token)", "Content-Type": "application/json"],
                body: Data(mutator.mutate(Array(body.utf8)))))
            #expect(response.status < 500)
            if response.status != 200 {
                #expect((try? JSONDecoder().decode(ErrorBody.self, from: response.bodyData ?? Data())) != nil)
            }
        }
    }

    @Test("Mutated hook payloads, settings files, .env texts and log lines never crash a reader", arguments: seeds)
    func otherDecoders(seed: UInt64) {
        var mutator = Mutator(seed: seed)
        let hook = Array(#"{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}"#.utf8)
        let settings = Array(#"{"hooks":{"Stop":[{"matcher":"","hooks":[{"type":"command","command":"lfg hook"}]}]},"x":[1,2.5e3,null]}"#.utf8)
        let env = Array("LFG_AUTH_TOKEN=abc\nLFG_PUSH_PORT=8766\n# comment\nexport X=\"y\"\n".utf8)
        let log = Array(#"{"ts":1.5,"event":"decide","deviceId":"d","action":"start","tokens":1,"working":1,"needsInput":0,"rows":["s1:working"]}"#.utf8)
        var accepted = 0
        for _ in 0..<DecoderFuzz.ciCount {
            let text = String(decoding: mutator.mutate(hook), as: UTF8.self)
            if (try? HookEvent.decode(text)) != nil { accepted += 1 }
            if (try? JSONParser.parse(bytes: mutator.mutate(settings))) != nil { accepted += 1 }
            _ = DotEnv.parse(String(decoding: mutator.mutate(env), as: UTF8.self))
            _ = LogLineParser.parse(String(decoding: mutator.mutate(log), as: UTF8.self))
        }
        #expect(accepted >= 0)  // reaching here without a crash is the check
    }
}

/// How many inputs CI tries per decoder and seed; `bench/hostile.sh` runs many more.
enum DecoderFuzz {
    static let ciCount = 400
}

/// A seeded mutator: byte flips, deletions, JSON-ish insertions, duplication and deep nesting.
struct Mutator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func index(_ count: Int) -> Int { Int(next() % UInt64(max(count, 1))) }

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        let tokens = Array(#"{}[],:"\0e-+.tfn"#.utf8) + [0x00, 0xFF, 0xEF, 0xBB, 0xBF]
        for _ in 0...index(4) {
            switch index(6) {
            case 0 where !bytes.isEmpty: bytes[index(bytes.count)] = UInt8(truncatingIfNeeded: next())
            case 1 where !bytes.isEmpty: bytes.remove(at: index(bytes.count))
            case 2: bytes.insert(tokens[index(tokens.count)], at: index(bytes.count + 1))
            case 3: bytes += bytes.prefix(index(bytes.count + 1))
            case 4: bytes = Array(repeating: UInt8(ascii: "["), count: index(1_000)) + bytes
            default: bytes.insert(UInt8(ascii: ","), at: index(bytes.count + 1))
            }
        }
        return bytes
    }
}
