/// A driver's step: the events it runs through the watcher, kept only once the store committed their writes.
///
/// The driver (``ControlPlaneService``) runs a step on a copy of the watcher and keeps the copy only once
/// the store committed, so a failed commit changes nothing and nobody reads a state the store never held.
/// A copy shares every table until one is written; the boxes of every device (10,000 for one owner with as
/// many phones) are written by nearly every step, so their writes are staged instead (``StagedDictionary``):
/// the copy's step costs the boxes it touched, not a copy of all of them.
extension Watcher {
    /// Stages the writes to the boxes from now on; call on the copy a step runs on.
    public mutating func beginStagedStep() { boxes.beginStaging() }

    /// Folds the step's staged writes in; call once the store committed and the copy replaced the watcher it
    /// was taken from (`watcher = consume next`), so the boxes are written in place, not copied.
    public mutating func commitStagedStep() { boxes.commitStaged() }

    /// Whether a step's writes are staged and not yet folded in.
    public var isStagingStep: Bool { boxes.isStaging }
}
