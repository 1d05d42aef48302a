import FleetApp
import Foundation
import Synchronization

/// A ``SealKeyring`` in memory for tests: the keys ``makeKey()`` hands out and the opener are scripted.
///
/// Fails loudly on anything nobody set up: a ``makeKey()`` with no scripted key left, or an ``open(enc:ciphertext:)``
/// with no opener, throws an error naming what to script and is kept in ``unexpectedCalls`` (check it is empty).
public final class InMemorySealKeyring: SealKeyring {
    /// Opens a box sealed to `key` (a test passes the reference opener with the matching private key).
    public typealias Opener = @Sendable (_ key: PhoneSealKey, _ enc: Data, _ ciphertext: Data) throws -> Data

    private struct State {
        var current: PhoneSealKey?
        var keysToMake: [PhoneSealKey]
        var failNextCall: SealKeyringError?
        var made: [PhoneSealKey] = []
        var unexpected: [String] = []
    }

    private let state: Mutex<State>
    private let opener: Opener?

    /// - Parameters:
    ///   - current: the key the phone already holds (nil: none yet).
    ///   - keysToMake: what each ``makeKey()`` makes, in order.
    ///   - opener: how ``open(enc:ciphertext:)`` opens with the current key.
    public init(current: PhoneSealKey? = nil, keysToMake: [PhoneSealKey] = [], opener: Opener? = nil) {
        state = Mutex(State(current: current, keysToMake: keysToMake))
        self.opener = opener
    }

    public func currentKey() throws(SealKeyringError) -> PhoneSealKey? {
        try state.withLock { (state: inout State) throws(SealKeyringError) in
            try Self.injectedFailure(&state)
            return state.current
        }
    }

    public func makeKey() throws(SealKeyringError) -> PhoneSealKey {
        try state.withLock { (state: inout State) throws(SealKeyringError) in
            try Self.injectedFailure(&state)
            guard !state.keysToMake.isEmpty else {
                return try Self.unexpected("makeKey() with no key left to make; pass keysToMake:", &state)
            }
            let key = state.keysToMake.removeFirst()
            state.current = key
            state.made.append(key)
            return key
        }
    }

    public func open(enc: Data, ciphertext: Data) throws(SealKeyringError) -> Data {
        let scripted = opener
        let (current, open) = try state.withLock { (state: inout State) throws(SealKeyringError) -> (PhoneSealKey, Opener) in
            try Self.injectedFailure(&state)
            guard let current = state.current else { throw SealKeyringError("no key to open with") }
            guard let scripted else {
                return try Self.unexpected("open(enc:ciphertext:) with no opener; pass opener:", &state)
            }
            return (current, scripted)
        }
        do {
            return try open(current, enc, ciphertext)
        } catch {
            throw SealKeyringError("the box did not open: \(error)")
        }
    }

    /// Makes the next call throw `error` (a Keychain failure).
    public func failNextCall(_ error: SealKeyringError) { state.withLock { $0.failNextCall = error } }

    /// Forgets the current key (the Keychain was wiped).
    public func loseKey() { state.withLock { $0.current = nil } }

    /// Every key ``makeKey()`` made, oldest first.
    public var made: [PhoneSealKey] { state.withLock { $0.made } }

    /// The calls nobody scripted, described.
    public var unexpectedCalls: [String] { state.withLock { $0.unexpected } }

    private static func injectedFailure(_ state: inout State) throws(SealKeyringError) {
        guard let failure = state.failNextCall else { return }
        state.failNextCall = nil
        throw failure
    }

    private static func unexpected<T>(_ call: String, _ state: inout State) throws(SealKeyringError) -> T {
        let message = "InMemorySealKeyring: " + call
        state.unexpected.append(message)
        throw SealKeyringError(message)
    }
}
