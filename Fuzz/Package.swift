// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone was called.
let frameLinkIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// FrameLink's fuzz targets: frame-log parsing and replay (FrameLogFuzz, seeds in Corpus/), and the
// pacing sources (PacingFuzz, seeds in PacingCorpus/), under libFuzzer and AddressSanitizer. A
// separate package, so the library's own build never needs the fuzzer runtime. Run with `make fuzz`
// (10 minutes per target) from the repository root; `make test` runs each for 60 seconds.
let package = Package(
    name: "FrameLinkFuzz",
    dependencies: [
        .package(path: "../")
    ],
    targets: [
        // Runs a corpus without libFuzzer (both targets' `main` outside fuzzing builds).
        .target(name: "FuzzCorpus"),
        .executableTarget(
            name: "FrameLogFuzz",
            dependencies: ["FuzzCorpus", .product(name: "FrameLink", package: frameLinkIdentity)]
        ),
        // The pacing sources (PresentSource, DeadlineSource, ManualFrameSource) and the loop's
        // waiter on virtual time, driven by arbitrary present returns, reports and rates.
        .executableTarget(
            name: "PacingFuzz",
            dependencies: ["FuzzCorpus", .product(name: "FrameLink", package: frameLinkIdentity)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
