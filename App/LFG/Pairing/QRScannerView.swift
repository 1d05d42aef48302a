import SwiftUI
import UIKit
import Vision
import VisionKit

/// VisionKit's live scanner, reporting the first QR code it reads (once).
struct QRScannerView: UIViewControllerRepresentable {
    let onScan: (String) -> Void

    /// Whether this device can scan (a camera, a recent chip) and the person allowed the camera.
    static var isAvailable: Bool { DataScannerViewController.isSupported && DataScannerViewController.isAvailable }

    func makeUIViewController(context: Context) -> DataScannerViewController {
        let scanner = DataScannerViewController(
            recognizedDataTypes: [.barcode(symbologies: [.qr])], qualityLevel: .balanced,
            recognizesMultipleItems: false, isHighFrameRateTrackingEnabled: false, isGuidanceEnabled: true,
            isHighlightingEnabled: true)
        scanner.delegate = context.coordinator
        return scanner
    }

    func updateUIViewController(_ scanner: DataScannerViewController, context: Context) {
        guard !scanner.isScanning else { return }
        do { try scanner.startScanning() } catch { context.coordinator.failed(error) }
    }

    static func dismantleUIViewController(_ scanner: DataScannerViewController, coordinator: Coordinator) {
        scanner.stopScanning()
    }

    func makeCoordinator() -> Coordinator { Coordinator(onScan: onScan) }

    /// Receives the scanner's items; hands on the first QR payload only.
    @MainActor
    final class Coordinator: DataScannerViewControllerDelegate {
        let onScan: (String) -> Void
        var hasScanned = false

        init(onScan: @escaping (String) -> Void) { self.onScan = onScan }

        func dataScanner(
            _ dataScanner: DataScannerViewController, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]
        ) {
            for item in addedItems {
                guard !hasScanned, case .barcode(let barcode) = item, let payload = barcode.payloadStringValue else {
                    continue
                }
                hasScanned = true
                dataScanner.stopScanning()
                onScan(payload)
            }
        }

        func failed(_ error: any Error) {
            guard !hasScanned else { return }
            hasScanned = true
            onScan("")  // an empty link: pairing says it is not a link, and the person can paste instead
        }
    }
}
