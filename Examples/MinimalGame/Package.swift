// swift-tools-version: 6.2
import Foundation
import PackageDescription

// The smallest real game on FrameLink, depending on it by path as an outside package would.
// A path dependency is identified by its folder's name, which is whatever the clone was called.
let frameLink = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "MinimalGame",
    dependencies: [
        .package(path: frameLink.path)
    ],
    targets: [
        .executableTarget(
            name: "MinimalGame",
            dependencies: [
                .product(name: "FrameLink", package: frameLink.lastPathComponent.lowercased()),
                .product(name: "FrameLinkSDL", package: frameLink.lastPathComponent.lowercased()),
                .product(name: "CSDL2", package: frameLink.lastPathComponent.lowercased()),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
