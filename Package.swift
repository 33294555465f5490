// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "FrameLink",
    products: [
        .library(name: "FrameLink", targets: ["FrameLink"]),
        .library(name: "FrameLinkSDL", targets: ["FrameLinkSDL"]),
        .library(name: "CSDL2", targets: ["CSDL2"]),
        .executable(name: "AnimDemo", targets: ["AnimDemo"]),
        .executable(name: "framelink", targets: ["FrameLinkCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "FrameLink",
            dependencies: [
                "CFrameLinkShims",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Platform hooks in C (libdispatch's main-queue hooks as weak symbols, ppoll, real-time
        // scheduling for frame waits, timer slack), so that the Swift code reaches them through an
        // ordinary import; every function has a fallback answer.
        .target(name: "CFrameLinkShims"),
        .systemLibrary(
            name: "CSDL2",
            // No `pkgConfig: "sdl2"`: SwiftPM warns on the `-D_REENTRANT` that sdl2.pc passes, and the
            // headers and libraries sit on the default paths of Debian's packages (checked by the Makefile).
            providers: [.apt(["libsdl2-dev", "libsdl2-image-dev", "libsdl2-ttf-dev"])]
        ),
        // Presentation feedback from a Wayland compositor (presentation-time) for an SDL window's
        // surface, in C: libwayland-client's API is C with callbacks, and SDL_syswm.h brings X11's
        // and Wayland's headers, which stay out of the Swift modules this way.
        .target(
            name: "CFrameLinkWayland",
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("SDL2")]
        ),
        // An SDL window's X11 side: whether its GLX offers GLX_OML_sync_control (the GLX function
        // looked up through SDL, so nothing links libGL) and the X connection's descriptor; Xlib's
        // types from SDL_syswm.h stay out of the Swift modules.
        .target(name: "CFrameLinkSDLShims", linkerSettings: [.linkedLibrary("SDL2")]),
        .target(name: "FrameLinkSDL", dependencies: ["FrameLink", "CSDL2", "CFrameLinkWayland", "CFrameLinkSDLShims"]),
        .executableTarget(
            name: "AnimDemo",
            dependencies: [
                "FrameLink", "FrameLinkSDL", "CSDL2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The display-lab plot (`make plot`): the scenario runner, statistics and SVG chart live in a
        // library target so that tests can reach them; the command only parses its options.
        .target(name: "LabPlotKit", dependencies: ["FrameLink"]),
        .executableTarget(
            name: "LabPlot",
            dependencies: [
                "FrameLink", "LabPlotKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `framelink`: summary, plot (SVG), Perfetto trace and replay of a recorded frame log.
        .executableTarget(
            name: "FrameLinkCommand",
            dependencies: [
                "FrameLink", "LabPlotKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make pace`: deadline pacing against the C probe, and vsync timestamps on the lab.
        .executableTarget(
            name: "FramePace",
            dependencies: [
                "FrameLink", "LabPlotKit", "CFrameLinkShims",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make idle`: what an idle SDLHost loop costs (wake-ups, CPU, timer lateness).
        .executableTarget(
            name: "IdleMeasure",
            dependencies: [
                "FrameLink", "FrameLinkSDL", "CSDL2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make sweep`: PresentSource on random simulated displays, judged against the lab's ground
        // truth (the scenarios and the judge in a library, for tests).
        .target(name: "PacingSweepKit", dependencies: ["FrameLink"]),
        .executableTarget(
            name: "PacingSweep",
            dependencies: [
                "FrameLink", "PacingSweepKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Golden/ holds expected outputs that the tests read by path.
        .testTarget(
            name: "FrameLinkTests",
            dependencies: ["FrameLink", "CFrameLinkShims", .product(name: "Logging", package: "swift-log")],
            exclude: ["Golden"]),
        // The `framelink` command's tests run it as a subprocess.
        .testTarget(
            name: "LabPlotKitTests", dependencies: ["FrameLink", "LabPlotKit", "FrameLinkCommand", "PacingSweepKit"]),
        // AnimDemo: the SDL tests run the demo as a subprocess.
        // A client surface on the tests' scripted compositor, for the presentation-time binding.
        .target(
            name: "CFrameLinkWaylandTesting", path: "Tests/CFrameLinkWaylandTesting",
            linkerSettings: [.linkedLibrary("wayland-client")]),
        .testTarget(
            name: "FrameLinkSDLTests",
            dependencies: [
                "FrameLink", "FrameLinkSDL", "CSDL2", "CFrameLinkWayland", "CFrameLinkWaylandTesting", "AnimDemo",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
