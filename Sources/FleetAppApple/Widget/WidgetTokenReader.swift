#if canImport(WidgetKit) && canImport(UIKit)
import FleetApp
import FleetCore
import WidgetKit

/// The widget push token (WidgetKit push, iOS 26), read by the app so it goes out with the device's
/// registration. One token covers every push-enabled widget of the install.
public enum WidgetTokenReader {
    /// Reads the current token and hands it to the driver; call at launch and on every foregrounding
    /// (the extension's ``LFGWidgetPushHandler`` cannot reach the app's engine).
    @MainActor
    public static func refresh(driver: FleetAppDriver) async {
        guard #available(iOS 26.0, *), let info = await WidgetCenter.shared.currentPushInfo else { return }
        driver.widgetTokenIssued(PushToken(bytes: info.token))
    }
}

/// The widget extension's push handler: opting in is what makes WidgetKit issue a token. The token itself
/// is read by the app (``WidgetTokenReader``), which owns the server registration.
@available(iOS 26.0, *)
public struct LFGWidgetPushHandler: WidgetPushHandler {
    public init() {}

    public func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {
        // Nothing to do here: the extension has no server credentials; the app reads
        // WidgetCenter.shared.currentPushInfo when it next runs.
    }
}
#endif
