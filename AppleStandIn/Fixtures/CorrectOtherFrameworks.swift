// Each remaining framework's stand-in loads and takes a correct call: this fixture must PASS.
import AppIntents
import SwiftUI
import UIKit
import UserNotifications
import VisionKit

struct FixtureIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Allow"
    @Parameter(title: "Question") var questionID: String
    init() {}
    func perform() async throws -> some IntentResult { .result() }
}

final class FixtureService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        content.body = "A session needs you"
        contentHandler(content)
    }
}

@MainActor func fixtureScanner() -> DataScannerViewController {
    DataScannerViewController(recognizedDataTypes: [.barcode(symbologies: [.qr])])
}

struct FixtureButtons: View {
    var body: some View {
        Button(intent: FixtureIntent()) { Text("Allow") }
    }
}

import Foundation
import Security

func fixtureKeychainRead(account: String) -> Data? {
    let query: [CFString: Any] = [
        kSecClass: kSecClassGenericPassword, kSecAttrAccount: account, kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne,
    ]
    var result: CFTypeRef?
    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
    return result as? Data
}

@MainActor func fixtureDeviceName() -> String { UIDevice.current.name }
