// Apple-only adapters live here, each file inside #if canImport(ActivityKit) / WidgetKit / SwiftUI.
