// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone was called.
let frameLinkIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// FrameLink's benchmarks: a separate package (as swift-nio keeps its own), so the library itself
// never depends on package-benchmark. Run with `make bench` from the repository root.
let package = Package(
    name: "FrameLinkBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .executableTarget(
            name: "FrameBenchmarks",
            dependencies: [
                .product(name: "FrameLink", package: frameLinkIdentity),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Benchmarks/FrameBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AnimationBenchmarks",
            dependencies: [
                .product(name: "FrameLink", package: frameLinkIdentity),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/AnimationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
