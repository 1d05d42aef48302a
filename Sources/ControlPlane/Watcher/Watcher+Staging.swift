/// A driver's step: the events it runs through the watcher, kept only once the store committed their writes.
///
/// The driver (``ControlPlaneService``) runs a step on a copy of the watcher and keeps the copy only once
/// the store committed, so a failed commit changes nothing and nobody reads a state the store never held.
/// A copy shares every table until one is written. The tables nearly every step writes are staged instead:
/// the boxes of every device (10,000 for one owner with as many phones: ``StagedDictionary``) and the timers
/// of every device and session (50,000 sessions: ``WakeSchedule``). The copy's step then costs what it
/// touched, not a copy of every table it touched.
extension Watcher {
    /// Stages the writes to the boxes and timers from now on; call on the copy a step runs on.
    public mutating func beginStagedStep() {
        boxes.beginStaging()
        deviceWakes.beginStaging()
        views.sessionWakes.beginStaging()
    }

    /// Folds the step's staged writes in; call once the store committed and the copy replaced the watcher it
    /// was taken from (`watcher = consume next`), so the tables are written in place, not copied.
    public mutating func commitStagedStep() {
        boxes.commitStaged()
        deviceWakes.commitStaged()
        views.sessionWakes.commitStaged()
    }

    /// Whether a step's writes are staged and not yet folded in.
    public var isStagingStep: Bool { boxes.isStaging }
}
