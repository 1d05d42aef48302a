/// The port `lfg serve` listens on unless told otherwise, and the one the watcher pushes from
/// (`LFG_PUSH_PORT`); the hook's default URL and the demo use it too. Defined once here.
public enum DefaultPort {
    public static let server = 8766
}
