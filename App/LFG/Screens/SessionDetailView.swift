import FleetApp
import FleetAppApple
import FleetCore
import SwiftUI

/// One session: where it runs, its state and elapsed time, and what it waits on with the controls to
/// answer it (the same answers the card's buttons and the notification's actions send).
struct SessionDetailView: View {
    let sid: SessionID
    @Environment(AppModel.self) private var model
    @State private var reply = ""

    var body: some View {
        if let row = model.row(sid) {
            Form {
                Section("Session") {
                    LabeledContent("Title", value: row.displayTitle)
                    LabeledContent("Folder", value: row.cwd.isEmpty ? "—" : row.cwd)
                    LabeledContent("State") {
                        HStack(spacing: 6) {
                            Circle().fill(StateColor.of(row.displayState)).frame(width: 8, height: 8)
                            Text(row.stateLabel)
                            if let since = row.since { ElapsedTimeText(since: since).foregroundStyle(.secondary) }
                        }
                    }
                    if let step = row.step { LabeledContent("Step", value: step) }
                }
                if let prompt = row.prompt {
                    Section("Waiting on you") {
                        Text(prompt.text).textSelection(.enabled)
                        answerControls(for: prompt)
                    }
                }
                Section {
                    Button("Hide this folder on this phone") { model.hide(row.cwd) }
                        .disabled(row.cwd.isEmpty)
                } footer: {
                    Text("Hidden folders leave this phone's list, card and widget; other devices are unaffected.")
                }
            }
            .navigationTitle(row.displayTitle)
        } else {
            ContentUnavailableView("Session ended", systemImage: "checkmark.circle", description: Text(sid.rawValue))
        }
    }

    /// The prompt's own options as buttons, or Allow/Deny for a permission, plus a free-text reply.
    @ViewBuilder
    func answerControls(for prompt: Prompt) -> some View {
        let options = prompt.options ?? []
        if options.isEmpty {
            HStack {
                Button("Allow") { model.answer(prompt, of: sid, with: "Allow") }.buttonStyle(.borderedProminent)
                Button("Deny", role: .destructive) { model.answer(prompt, of: sid, with: "Deny") }.buttonStyle(.bordered)
            }
        } else {
            ForEach(options, id: \.self) { option in
                Button(option) { model.answer(prompt, of: sid, with: option) }.buttonStyle(.bordered)
            }
        }
        TextField("Or type a reply", text: $reply, axis: .vertical)
        Button("Send reply") {
            model.answer(prompt, of: sid, with: reply)
            reply = ""
        }
        .disabled(reply.isEmpty)
    }
}
