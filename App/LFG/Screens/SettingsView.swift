import FleetApp
import FleetCore
import SwiftUI

/// The server this phone is paired with, privacy, the folders this phone hides, and signing out.
struct SettingsView: View {
    @Environment(AppModel.self) private var model
    @State private var newFolder = ""
    @State private var confirmingSignOut = false

    var body: some View {
        Form {
            ProblemBanner()
            Section("Server") {
                if let server = model.settings.server {
                    LabeledContent("Name", value: server.name)
                    LabeledContent("Address", value: server.baseURL)
                    LabeledContent("Connection", value: model.status.headline)
                }
                NavigationLink("Pair with another server") { PairingView() }
            }
            Section {
                Toggle(
                    "Privacy mode",
                    isOn: Binding(get: { model.settings.privacy ?? false }, set: { model.setPrivacy($0) }))
                Button("Make a new sealing key") { model.rotateSealKey() }
            } footer: {
                Text(
                    "The card shows counts only, and alerts arrive sealed to this phone: the words never pass through "
                        + "Apple's servers in the clear. Until you set it, the server's default applies. A new key makes "
                        + "alerts sealed to the old one show only \"A session needs you\".")
            }
            Section {
                ForEach(model.settings.hiddenDirs.paths, id: \.self) { folder in
                    HStack {
                        Text(folder).lineLimit(1).truncationMode(.middle)
                        Spacer()
                        Button("Show") { model.unhide(folder) }
                    }
                }
                HStack {
                    TextField("/path/to/folder", text: $newFolder)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    Button("Hide") {
                        model.hide(newFolder)
                        newFolder = ""
                    }
                    .disabled(newFolder.isEmpty)
                }
            } header: {
                Text("Hidden folders on this phone")
            } footer: {
                Text("Sessions in or below these folders leave this phone's list, card and widget.")
            }
            Section {
                Button("Sign out", role: .destructive) { confirmingSignOut = true }
            } footer: {
                Text("The server revokes this phone's credential; pair again to come back.")
            }
        }
        .navigationTitle("Settings")
        .confirmationDialog("Sign out of this server?", isPresented: $confirmingSignOut, titleVisibility: .visible) {
            Button("Sign out", role: .destructive) { Task { await model.signOut() } }
        }
    }
}
