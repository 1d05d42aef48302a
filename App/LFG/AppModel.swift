import ActivityKit
import FleetApp
import FleetAppApple
import FleetCore
import Foundation
import Observation
import SwiftUI
import UIKit
import WidgetKit

/// The app's one view model: it owns FleetApp's drivers (the engine behind the card and the list, and the
/// live connection) and republishes what they know for the screens. It decides nothing itself: the list,
/// the card, the connection status, the counts and the diagnostics all come from FleetApp's types.
@MainActor
@Observable
final class AppModel {
    /// Sessions grouped by host, as the list shows them.
    private(set) var sections: [SessionListSection] = []
    /// The connection banner's state.
    private(set) var status: ConnectionStatus = .paused
    /// What the person set.
    private(set) var settings = AppSettings()
    /// The last thing that went wrong that the person should know about (shown until dismissed).
    var problem: String?
    /// The diagnostics page's values.
    private(set) var diagnostics: DiagnosticsReport?
    /// The session a notification or an `lfg://session/...` link asked to show (the list navigates to it).
    var openedSession: SessionID?

    @ObservationIgnored let storage: any KeyValueStorage
    @ObservationIgnored let credentials: any CredentialStore
    /// ActivityKit for the running engine: made with it, so a restarted engine gets fresh observations
    /// (a cancelled reader finishes an AsyncStream for good).
    @ObservationIgnored private var activityHost: ActivityKitHost?
    @ObservationIgnored private(set) var fleet: FleetAppDriver?
    @ObservationIgnored private(set) var connection: LiveConnectionDriver?
    @ObservationIgnored private var runTask: Task<Void, Never>?
    /// Question alerts' actions and taps, for the running engine (the app delegate forwards to it).
    @ObservationIgnored private(set) var questionDelegate: QuestionNotificationDelegate?

    init(storage: any KeyValueStorage, credentials: any CredentialStore) {
        self.storage = storage
        self.credentials = credentials
    }

    /// The live model: App Group storage (so the widget reads the counts) and the Keychain.
    static func live() -> AppModel {
        let shared: any KeyValueStorage = AppGroup.storage ?? UserDefaultsStorage(.standard)
        let model = AppModel(storage: shared, credentials: KeychainCredentialStore(service: "lfg.server-credentials"))
        if AppGroup.storage == nil {
            model.problem = "The App Group \(AppGroup.identifier) is not set up: the widget cannot show counts. See the README's install steps."
        }
        return model
    }

    // MARK: Lifecycle

    /// Launch (trigger 1): read the settings and, when paired, start the engine.
    func launch(inForeground: Bool) {
        do {
            settings = try AppSettings.load(from: storage)
        } catch {
            problem = "\(error)"
        }
        startEngine(inForeground: inForeground)
    }

    func scenePhaseChanged(to phase: ScenePhase) {
        switch phase {
        case .active:
            fleet?.foregrounded()
            connection?.foregrounded()  // opens the stream and fetches (the refresh the engine asks for)
            if let fleet { Task { await WidgetTokenReader.refresh(driver: fleet) } }
        case .background:
            fleet?.suspended()
            connection?.backgrounded()
        default:
            break
        }
        publish()
    }

    /// A pull to refresh.
    func refresh() { fleet?.refresh() }

    /// The list's row for `sid`, if the session is still listed.
    func row(_ sid: SessionID) -> SessionListRow? {
        sections.lazy.flatMap(\.rows).first { $0.sid == sid }
    }

    /// The person answered `prompt` of session `sid` (a button or a typed reply): FleetApp posts it once,
    /// retries while the server cannot be reached, and ignores a second answer to the same question.
    func answer(_ prompt: Prompt, of sid: SessionID, with answer: String) {
        guard let id = prompt.id, !answer.isEmpty else {
            problem = "This prompt cannot be answered from the phone (the agent did not give it an id)."
            return
        }
        fleet?.answerQuestion(QuestionID(rawValue: id), with: answer, sid: sid)
    }

    /// An `lfg://pair?...` link opened the app (a scanned code from the Camera app, or a tapped link).
    func open(_ url: URL) {
        if url.host == "pair" {
            Task { await pair(with: url.absoluteString) }
        } else if let link = AppLink(url: url) {
            follow(link)
        }
    }

    /// Shows the place a link, a notification or the card asked for.
    func follow(_ link: AppLink) {
        switch link {
        case .home: openedSession = nil
        case .session(let sid): openedSession = sid
        }
    }

    // MARK: Pairing and settings

    /// Trades a pairing link for this phone's own credential and starts talking to that server.
    func pair(with link: String) async {
        let deviceID = DeviceIdentity.deviceID(in: storage)
        do {
            let server = try await PairingClient(transport: URLSessionPairingTransport()).pair(
                link, name: UIDevice.current.name, deviceID: deviceID, store: credentials)
            var changed = settings
            changed.server = AppSettings.PairedServer(name: server.name, baseURL: server.baseURL)
            try save(changed)
            problem = nil
            restartEngine()
        } catch {
            problem = "\(error)"
        }
    }

    /// Signs this phone out: the server revokes its credential, the phone forgets it and the server.
    func signOut() async {
        if let profile = currentProfile() {
            do {
                try await PairingClient(transport: URLSessionPairingTransport()).signOut(of: profile, store: credentials)
            } catch {
                problem = "Signed out on this phone, but the server could not be told: \(error)"
                do { try credentials.removeCredential(forServer: profile.name) } catch {
                    problem = "Could not forget this phone's credential: \(error)"
                }
            }
        }
        var changed = settings
        changed.server = nil
        do { try save(changed) } catch { problem = "\(error)" }
        stopEngine()
        sections = []
        status = .paused
    }

    func setPrivacy(_ isOn: Bool) {
        var changed = settings
        changed.privacy = isOn
        do { try save(changed) } catch { problem = "\(error)"; return }
        fleet?.privacyChanged(isOn)  // the server hears it at once (PUT /api/devices with privacy)
    }

    /// A new sealing key pair in place of the current one, registered at once (alerts already sealed to the old
    /// key keep their placeholder).
    func rotateSealKey() {
        fleet?.rotateSealKey()
    }

    func hide(_ folder: String) {
        var changed = settings
        changed.hide(folder)
        applyHiddenDirs(changed)
    }

    func unhide(_ folder: String) {
        var changed = settings
        changed.unhide(folder)
        applyHiddenDirs(changed)
    }

    private func applyHiddenDirs(_ changed: AppSettings) {
        do { try save(changed) } catch { problem = "\(error)"; return }
        let hidden = changed.hiddenDirs
        fleet?.changeModel { $0.hiddenDirs = hidden }  // trigger 2: the list, the card and the server follow
    }

    private func save(_ changed: AppSettings) throws {
        try changed.save(to: storage)
        settings = changed
    }

    // MARK: Notifications

    /// The APNs device token for alerts: question notifications go to it (kept for an engine started later).
    func alertTokenIssued(_ token: Data) {
        alertToken = PushToken(bytes: token)
        if let fleet { QuestionPushHandling.deviceTokenReceived(token, driver: fleet) }
        publish()
    }

    /// A background push (`content-available`): a settled question's alert is withdrawn.
    func backgroundPushReceived(_ userInfo: [AnyHashable: Any]) -> Bool {
        guard let fleet else { return false }
        return QuestionPushHandling.backgroundPushReceived(userInfo, driver: fleet)
    }
    @ObservationIgnored private(set) var alertToken: PushToken?

    func noteProblem(_ text: String) { problem = text }

    /// A notification arrived, or the person acted on one: noted for the diagnostics page.
    func notificationArrived() {
        storage.set(String(WallClock.system.now), forKey: AppGroup.lastNotificationKey)
        publish()
    }

    // MARK: The engine

    private func currentProfile() -> ServerProfile? {
        guard let server = settings.server else { return nil }
        let credential: String?
        do { credential = try credentials.credential(forServer: server.name) } catch {
            problem = "\(error)"
            return nil
        }
        return settings.serverProfile(credential: credential)
    }

    private func startEngine(inForeground: Bool) {
        guard fleet == nil, let profile = currentProfile() else { return }
        var configuration = AppConfiguration(
            deviceID: DeviceIdentity.deviceID(in: storage), environment: BuildInfo.pushEnvironment,
            servers: [profile], defaultServerName: profile.name)
        if #available(iOS 18.0, *) { configuration.requestsChannelCards = true }
        // Privacy mode as the person set it (contract 8.3); the sealing key is the one the extension opens with.
        configuration.privacy = settings.privacy
        let activityHost = ActivityKitHost()
        let fleet = FleetAppDriver(
            configuration: configuration, host: activityHost, alerts: UserNotificationAlertCenter(),
            client: URLSessionControlPlaneClient(),
            storage: storage, phoneClock: .system, sleeper: ContinuousClock(), sealKeys: AppGroup.sealKeyring)
        let connection = LiveConnectionDriver(
            fleet: fleet, transport: URLSessionEventStream(), phoneClock: .system, sleeper: ContinuousClock())
        fleet.onChange = { [weak self] in self?.publish() }
        connection.onStatusChange = { [weak self] status in
            self?.status = status
            self?.publish()
        }
        self.activityHost = activityHost
        self.fleet = fleet
        self.connection = connection
        questionDelegate = QuestionNotificationDelegate(driver: fleet) { [weak self] link in self?.follow(link) }
        CardAnswerRoute.register(driver: fleet)  // the card's Allow / Deny buttons answer through this engine
        fleet.launch(hiddenDirs: settings.hiddenDirs, inForeground: inForeground)
        if let alertToken { fleet.alertTokenIssued(alertToken) }
        Task { await WidgetTokenReader.refresh(driver: fleet) }
        if inForeground { connection.foregrounded() }
        // The one reader of ActivityKit's events, for as long as this engine runs.
        let events = activityHost.events
        runTask = Task { await fleet.run(events: events) }
    }

    private func stopEngine() {
        connection?.stop()
        fleet?.stop()
        runTask?.cancel()
        runTask = nil
        connection = nil
        fleet = nil
        activityHost = nil
        questionDelegate = nil
    }

    private func restartEngine() {
        stopEngine()
        startEngine(inForeground: true)
    }

    /// Re-reads FleetApp's state for the screens, and refreshes the counts widget when the counts changed.
    private func publish() {
        let now = WallClock.system.now
        let lastNotification = storage.string(forKey: AppGroup.lastNotificationKey).flatMap(Double.init)
        guard let fleet else {
            diagnostics = nil
            return
        }
        let engine = fleet.engine
        sections = SessionList.sections(model: engine.model, since: engine.controller.since)
        diagnostics = DiagnosticsReport.make(
            engine: engine, cards: activityHost?.fleetActivities ?? [], connection: status,
            lastNotificationAt: lastNotification)
        do {
            if try FleetCountsSnapshot.make(engine: engine, now: now).save(to: storage) {
                WidgetCenter.shared.reloadTimelines(ofKind: "LFGFleetCounts")
            }
        } catch {
            problem = "The widget's counts could not be saved: \(error)"
        }
    }
}
