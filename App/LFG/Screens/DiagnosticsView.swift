import FleetApp
import SwiftUI

/// What the app and the server have agreed on: the tokens registered, how the card is pushed (channel or
/// token), when a push or notification was last seen. Tokens appear shortened only.
struct DiagnosticsView: View {
    @Environment(AppModel.self) private var model

    var body: some View {
        if let report = model.diagnostics {
            List {
                Section("Device") {
                    LabeledContent("Device id", value: report.deviceID)
                    LabeledContent("Connection", value: report.connection.headline)
                }
                Section("Tokens registered") {
                    if report.tokens.isEmpty { Text("None yet").foregroundStyle(.secondary) }
                    ForEach(report.tokens, id: \.self) { line in
                        LabeledContent("\(line.kind) · \(line.server)", value: line.token)
                    }
                    if let alert = model.alertToken { LabeledContent("Alerts (APNs)", value: alert.abbreviated) }
                }
                Section("Live Activity") {
                    LabeledContent("Mode", value: report.mode)
                    if let channel = report.channel { LabeledContent("Channel", value: channel) }
                    LabeledContent("Cards on screen", value: "\(report.liveCards)")
                    LabeledContent("Card last updated") { DateText(unix: report.cardUpdatedAt) }
                    LabeledContent("Last notification") { DateText(unix: report.lastNotificationAt) }
                    if !report.endedReportsOwed.isEmpty {
                        LabeledContent("Owed 'ended' reports", value: report.endedReportsOwed.joined(separator: ", "))
                    }
                }
            }
            .navigationTitle("Diagnostics")
        } else {
            ContentUnavailableView("Not paired", systemImage: "stethoscope", description: Text("Pair with a server first."))
        }
    }
}

/// "3 min ago", or "never".
struct DateText: View {
    let unix: Double?

    var body: some View {
        if let unix {
            Text(Date(timeIntervalSince1970: unix), style: .relative)
        } else {
            Text("never").foregroundStyle(.secondary)
        }
    }
}
