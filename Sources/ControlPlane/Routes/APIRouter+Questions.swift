import FleetCore
import Foundation
import HTTPTypes

/// `POST /api/questions/{id}/answer`.
struct AnswerBody: Decodable {
    var answer: String
    var deviceId: DeviceID?

    enum CodingKeys: String, CodingKey { case answer, deviceId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        answer = try container.decode(String.self, forKey: .answer)
        deviceId = try container.decodeDeviceIdIfPresent(.deviceId)
    }
}

extension APIRouter {
    /// The longest long poll, in seconds (contract 8.2).
    static let maximumWaitSeconds = 300
    /// A long poll's timeout when the request names none, in seconds.
    static let defaultWaitSeconds = 30

    /// The question endpoints of contract 8.2.
    static func questionRoutes(_ service: ControlPlaneService) -> [Route] {
        struct Listing: Encodable { var questions: [Question] }
        return [
            Route("GET", "/api/questions") { request, _ in
                var state: Question.State?
                if let text = request.query["state"] {
                    guard let parsed = Question.State(rawValue: text) else {
                        let names = Question.State.allCases.map(\.rawValue).joined(separator: ", ")
                        return .error(400, "unknown state '\(text)'; use one of \(names)", field: "state")
                    }
                    state = parsed
                }
                return .json(Listing(questions: await service.questionList(state: state)))
            },
            Route("GET", "/api/questions/{}") { _, parameters in
                let id = QuestionID(parameters[0])
                guard let question = await service.knownQuestion(id) else { return notFound(id) }
                return .json(question)
            },
            Route("POST", "/api/questions/{}/answer") { request, parameters in
                await with(AnswerBody.self, request) { body throws(ServiceError) in
                    switch try await service.answerQuestion(QuestionID(parameters[0]), body.answer, by: body.deviceId) {
                    case .answered(let question): return .json(question)
                    case .notPending(let question): return .json(question, status: 409)
                    case .notAccepted(let question):
                        let choices = question.options + (question.canAlwaysAllow ? [Question.alwaysAllowAnswer] : [])
                        let message = question.kind == .text
                            ? "the answer is blank or over \(Question.maximumAnswerLength) characters; send some text"
                            : "'\(body.answer)' is not an option; answer one of: \(choices.joined(separator: ", "))"
                        return .error(400, message, field: "answer")
                    }
                }
            },
            Route("GET", "/api/questions/{}/wait") { request, parameters in
                let id = QuestionID(parameters[0])
                var seconds = defaultWaitSeconds
                if let text = request.query["timeout"] {
                    guard let value = Double(text), value >= 0, value.isFinite else {
                        return .error(400, "must be a number of seconds from 0 to \(maximumWaitSeconds)", field: "timeout")
                    }
                    seconds = Int(min(value, Double(maximumWaitSeconds)).rounded(.up))
                }
                switch await service.startWaiting(on: id) {
                case nil: return notFound(id)
                case .settled(let question): return .json(question)
                case .full: return .error(503, "too many waiting requests; retry in a moment")
                case .parked(let ticket):
                    await service.questionWaiters.wait(
                        ticket, on: id, timeout: .seconds(seconds), clock: service.dependencies.clock)
                    guard let question = await service.question(id) else { return notFound(id) }
                    return .json(question)
                }
            },
        ]
    }

    static func notFound(_ id: QuestionID) -> HTTPResponse { .error(404, "no question '\(id)'") }
}
