import AsyncTesting
import ControlPlane
import FleetCore
import Foundation
import Synchronization
import Testing

/// Contract 8.2 and 8.4: a question's alert goes to a phone from the instance that drives the phone, not
/// from the instance that stored the question, and an answer taken by a third instance releases the hook
/// and withdraws the alert.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct CrossInstanceAlertTests {
    static let alertToken = String(repeating: "ab", count: 32)

    @Test("The phone's lease owner alerts, the instance that stored the question does not, and an answer through a third instance releases the hook and withdraws the alert", .timeLimit(.minutes(1)))
    func alertComesFromTheLeaseOwner() async throws {
        let notifiers = (0..<3).map { _ in RecordingQuestionNotifier() }
        try await SharedServices.with(instances: 3, questionNotifier: { notifiers[$0] }) { world in
            // Instance 1 drives the phone (registered through it); instance 0 takes the hook's question.
            let phone = #"{"env":"sandbox","apnsToken":"\#(Self.alertToken)"}"#
            #expect(await world.call(1, "PUT", "/api/devices/phone", phone).status == 200)
            #expect(await world.call(0, "PUT", "/api/sessions/s1", CrossInstanceWaitTests.asking("q-alert")).status == 200)
            let wait = Task { await world.call(0, "GET", "/api/questions/q-alert/wait", query: ["timeout": "300"]) }

            let alert = try #require(try await notifiers[1].pushes.next("instance 1's alert to the phone it drives"))
            #expect(alert.action == .ask)
            #expect(alert.question.id == "q-alert")
            #expect(alert.title == "Deploy")
            #expect(alert.targets.map(\.deviceId) == ["phone"])
            #expect(alert.targets.map(\.hex) == [Self.alertToken])

            try await bounded("the hook's long poll parked on instance 0") {
                while world.instances[0].service.questionWaiters.count < 1 { await Task.yield() }
            }
            let answer = await world.call(2, "POST", "/api/questions/q-alert/answer", CrossInstanceWaitTests.allow)
            #expect(answer.status == 200)
            let released = try await bounded("the hook released by instance 2's answer", within: .seconds(10)) { await wait.value }
            #expect(released.json["state"] as? String == "answered")
            #expect(released.json["answer"] as? String == "Allow")

            let withdrawal = try #require(try await notifiers[1].pushes.next("instance 1's withdrawal of the alert"))
            #expect(withdrawal.action == .withdraw)
            #expect(withdrawal.question.id == "q-alert")
            #expect(withdrawal.targets.map(\.deviceId) == ["phone"])

            // Whatever instances 0 and 2 had queued is sent now: neither pushed anything, and 1 only the two.
            for index in [0, 2] { await world.instances[index].service.sendQuestionPushes() }
            #expect(notifiers[0].sent.isEmpty, "the instance that stored the question drives no phone")
            #expect(notifiers[2].sent.isEmpty, "the instance that took the answer drives no phone")
            #expect(notifiers[1].sent.map(\.action) == [.ask, .withdraw])
        }
    }
}

/// Question pushes recorded (and answered 200) instead of sent, for a test to await and count.
final class RecordingQuestionNotifier: QuestionNotifier {
    let pushes = Inbox<QuestionPush>()
    private let recorded = Mutex<[QuestionPush]>([])

    var sent: [QuestionPush] { recorded.withLock { $0 } }

    func deliver(_ push: QuestionPush) async -> [QuestionPush.Result] {
        recorded.withLock { $0.append(push) }
        pushes.yield(push)
        return push.targets.map { QuestionPush.Result(target: $0, status: 200, reason: nil, outcome: .accepted, milliseconds: 1) }
    }

    func reloadWidgets(_ targets: [QuestionPush.Target]) async -> [QuestionPush.Result] {
        Issue.record("unexpected widget reload of \(targets.map(\.deviceId))")
        return []
    }
}
