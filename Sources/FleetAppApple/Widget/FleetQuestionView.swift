#if canImport(SwiftUI) && canImport(AppIntents) && canImport(ActivityKit)
import AppIntents
import FleetApp
import FleetCore
import SwiftUI

/// The card's question: its words (or, on a privacy device, what kind of answer it needs) and, on the
/// Lock Screen, one button per answer of a confirm question (Allow / Deny), each an ``AnswerQuestionIntent``.
@available(iOS 17.0, *)
public struct FleetQuestionView: View {
    let layout: SurfaceLayout

    public init(_ layout: SurfaceLayout) { self.layout = layout }

    public var body: some View {
        if let question = layout.question, let line = layout.questionLine {
            VStack(alignment: .leading, spacing: 4) {
                Label(line, systemImage: "questionmark.bubble.fill")
                    .font(.footnote.weight(.semibold))
                    .foregroundStyle(Accent.amber.color)
                    .lineLimit(layout.showsQuestionButtons ? 1 : 2)
                if layout.showsQuestionButtons {
                    HStack(spacing: 8) {
                        ForEach(question.buttons, id: \.self) { answer in
                            Button(intent: AnswerQuestionIntent(question: question, answer: answer)) {
                                Text(answer).font(.footnote.weight(.semibold)).frame(maxWidth: .infinity)
                            }
                            .tint(answer == question.buttons.first ? Accent.green.color : Color.gray)
                        }
                    }
                }
            }
        }
    }
}
#endif
