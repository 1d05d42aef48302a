#if canImport(WidgetKit) && canImport(UIKit)
import FleetApp
import FleetCore
import WidgetKit

/// The widget push token (WidgetKit push, iOS 26), read by the app so it goes out with the device's
/// registration. One token covers every push-enabled widget of the install.
public enum WidgetTokenReader {
    /// Reads the current token and hands it to the driver; call at launch and on every foregrounding. A
    /// widget opts in with `.pushHandler(_:)` in the widget extension, which has no server credentials:
    /// the app, which owns the registration, reads the token here.
    @MainActor
    public static func refresh(driver: FleetAppDriver) async {
        guard #available(iOS 26.0, *), let info = await WidgetCenter.shared.currentPushInfo else { return }
        driver.widgetTokenIssued(PushToken(bytes: info.token))
    }
}
#endif
