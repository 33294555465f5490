// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone was called.
let frameLinkIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// FrameLink's fuzz targets: frame-log parsing and replay, and the pacing sources, under libFuzzer
// and AddressSanitizer. A separate package, so the library's own build never needs the fuzzer runtime. Run with `make fuzz`
// (10 minutes) from the repository root; `make test` runs it for 60 seconds from Corpus/.
let package = Package(
    name: "FrameLinkFuzz",
    dependencies: [
        .package(path: "../")
    ],
    targets: [
        .executableTarget(
            name: "FrameLogFuzz",
            dependencies: [.product(name: "FrameLink", package: frameLinkIdentity)]
        ),
        // The pacing sources (PresentSource, DeadlineSource, ManualFrameSource) and the loop's
        // waiter on virtual time, driven by arbitrary present returns, reports and rates.
        .executableTarget(
            name: "PacingFuzz",
            dependencies: [.product(name: "FrameLink", package: frameLinkIdentity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
