@testable import APNs
import FleetCore
import Testing

@Suite struct ChannelManagementTests {
    let requestID = try! APNsID("123e4567-e89b-12d3-a456-426614174000")

    @Test("Create posts to /1/apps/<bundle>/channels with both required body keys")
    func create() throws {
        let request = ChannelManagementRequest.create(
            storagePolicy: .mostRecentMessage, requestID: requestID, bundleID: Fixture.bundle, environment: .sandbox)
        #expect(request.method == .post)
        #expect(request.path == "/1/apps/dev.lfg.app/channels")
        #expect(request.headers == [HeaderField("apns-request-id", requestID.rawValue)])
        #expect(try JSONValue(parsing: request.body) == .object([
            "message-storage-policy": .number(1), "push-type": .string("LiveActivity"),
        ]))
        #expect(request.successStatus == 201)
        let none = ChannelManagementRequest.create(storagePolicy: .noStorage, bundleID: Fixture.bundle, environment: .sandbox)
        #expect(try JSONValue(parsing: none.body)["message-storage-policy"] == .number(0))
        #expect(none.headers.isEmpty)
    }

    @Test("Read and delete name the channel in apns-channel-id, not in the path; list uses all-channels")
    func readDeleteList() {
        let read = ChannelManagementRequest.read(Fixture.channel, bundleID: Fixture.bundle, environment: .production)
        let delete = ChannelManagementRequest.delete(Fixture.channel, bundleID: Fixture.bundle, environment: .production)
        let list = ChannelManagementRequest.listAll(bundleID: Fixture.bundle, environment: .production)
        #expect(read.method == .get && read.path == "/1/apps/dev.lfg.app/channels")
        #expect(delete.method == .delete && delete.path == "/1/apps/dev.lfg.app/channels")
        #expect(read.headers == [HeaderField("apns-channel-id", Fixture.channel.rawValue)])
        #expect(delete.headers == read.headers)
        #expect(read.body.isEmpty && delete.body.isEmpty && list.body.isEmpty)
        #expect(list.method == .get && list.path == "/1/apps/dev.lfg.app/all-channels" && list.headers.isEmpty)
        #expect([read.successStatus, delete.successStatus, list.successStatus] == [200, 204, 200])
    }

    @Test("A create's answer gives the channel id from the apns-channel-id header")
    func createAnswer() {
        let request = ChannelManagementRequest.create(storagePolicy: .noStorage, bundleID: Fixture.bundle, environment: .sandbox)
        let response = ChannelManagementResponse(
            answering: request, status: 201,
            headers: [HeaderField("apns-request-id", "r-1"), HeaderField("apns-channel-id", Fixture.channel.rawValue)], body: [])
        #expect(response.isSuccess && response.remedy == nil)
        #expect(response.channelID == Fixture.channel && response.requestID == "r-1")
    }

    @Test("A read's answer gives the storage policy, a list's the channels")
    func readAndListAnswers() throws {
        let read = ChannelManagementResponse(
            answering: .read(Fixture.channel, bundleID: Fixture.bundle, environment: .sandbox), status: 200, headers: [],
            body: Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8))
        #expect(read.storagePolicy == .mostRecentMessage && read.channelID == Fixture.channel)
        let other = try BroadcastChannelID("b3RoZXI=")
        let list = ChannelManagementResponse(
            answering: .listAll(bundleID: Fixture.bundle, environment: .sandbox), status: 200, headers: [],
            body: Array(#"{"channels":["\#(Fixture.channel.rawValue)","b3RoZXI="]}"#.utf8))
        #expect(list.channels == [Fixture.channel, other])
    }

    @Test("Errors carry their typed reason: the channel limit means token mode, an unknown channel means drop it")
    func errors() {
        let create = ChannelManagementRequest.create(storagePolicy: .noStorage, bundleID: Fixture.bundle, environment: .sandbox)
        let limit = ChannelManagementResponse(
            answering: create, status: 400, headers: [], body: Array(#"{"reason":"CannotCreateChannelConfig"}"#.utf8))
        #expect(!limit.isSuccess && limit.isChannelLimitReached && limit.remedy == .useTokenMode)
        #expect(limit.summary.contains("CannotCreateChannelConfig"))
        let gone = ChannelManagementResponse(
            answering: .delete(Fixture.channel, bundleID: Fixture.bundle, environment: .sandbox), status: 400, headers: [],
            body: Array(#"{"reason":"ChannelNotRegistered"}"#.utf8))
        #expect(gone.reason == .channelNotRegistered && gone.remedy == .dropChannel)
        let busy = ChannelManagementResponse(answering: create, status: 503, headers: [], body: [])
        #expect(busy.remedy == .backOff)
    }

    @Test("A transport failure is status 0 with the failure, and never a success")
    func transportFailure() {
        let response = ChannelManagementResponse.transportFailed(TransportFailure(.connectFailed, "refused"))
        #expect(response.status == 0 && !response.isSuccess && response.remedy == .reconnect)
        #expect(response.summary == "not sent (connectFailed: refused)")
    }
}
