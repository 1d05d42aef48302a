import FleetApp
import SwiftUI
import UIKit
import VisionKit

/// Pairing in one scan: point the camera at the QR code `lfg serve` prints (or the dashboard shows), or
/// paste the `lfg://pair?...` link. The phone trades the one-time code for its own credential.
struct PairingView: View {
    @Environment(AppModel.self) private var model
    @State private var link = ""
    @State private var scanning = false
    @State private var pairing = false

    var body: some View {
        Form {
            ProblemBanner()
            Section {
                if QRScannerView.isAvailable {
                    Button("Scan the pairing code", systemImage: "qrcode.viewfinder") { scanning = true }
                } else {
                    Text("This device cannot scan codes; paste the link instead.").foregroundStyle(.secondary)
                }
            } footer: {
                Text("Run `lfg serve` (or open its dashboard) on your computer: it shows a QR code that works once, for a few minutes.")
            }
            Section("Or paste the link") {
                TextField("lfg://pair?server=…&code=…", text: $link, axis: .vertical)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                HStack {
                    Button("Paste") { link = UIPasteboard.general.string ?? "" }
                    Spacer()
                    Button("Pair") { pair(link) }.buttonStyle(.borderedProminent).disabled(link.isEmpty || pairing)
                }
            }
            if pairing { ProgressView() }
        }
        .navigationTitle("Pair with your server")
        .sheet(isPresented: $scanning) {
            QRScannerView { scanned in
                scanning = false
                pair(scanned)
            }
            .ignoresSafeArea()
        }
    }

    func pair(_ text: String) {
        pairing = true
        Task {
            await model.pair(with: text)
            pairing = false
        }
    }
}
