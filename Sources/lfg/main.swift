import Foundation
import LFGCommand

// Only wiring lives here: the real process context in, the exit status out.
let status = await LFG.main(arguments: Array(CommandLine.arguments.dropFirst()), context: .process())
exit(status)
