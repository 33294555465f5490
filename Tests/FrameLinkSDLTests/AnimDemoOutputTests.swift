import Foundation
import FrameLink
import XCTest

/// AnimDemo's outputs (`--screenshot`, `--report`), run as a subprocess: bad destinations are refused
/// up front (exit 64, one line, before SDL starts), and a write that fails (a full disk) leaves the
/// previous file untouched and no temporary file behind, with one line per failed output (exit 1).
final class AnimDemoOutputTests: XCTestCase {
    private var assets: String { AnimDemoProcess.assetsFolder }

    private var headless: [String] { ["--headless", "--frames", "5", "--sprites", "50", "--assets", assets] }

    /// A temporary folder that the caller removes.
    private func makeFolder(_ suffix: String = "-outputs") throws -> String {
        let folder = AnimDemoProcess.temporaryPath(suffix)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `/usr/bin/env` with `arguments`; returns the exit status and what it printed on stderr.
    private func command(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Mounts a tmpfs with `options` on a new folder and returns it (with the way to unmount it), or
    /// skips the test when mounting is not permitted (not root, or a container without the right).
    private func mountTmpfs(options: String) throws -> (folder: String, unmount: () -> Void) {
        let folder = try makeFolder("-tmpfs")
        let mounted = try command(["mount", "-t", "tmpfs", "-o", options, "tmpfs", folder])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw XCTSkip("cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN): \(mounted.error)")
        }
        return (
            folder,
            { [self] in
                _ = try? command(["umount", folder])
                try? FileManager.default.removeItem(atPath: folder)
            }
        )
    }

    // MARK: The frame log

    /// `--log` records every frame: the file reads back as a frame log (CSV, or JSON lines for
    /// `.jsonl`) with one record per frame interval, and the summary names it.
    func testLogRecordsEveryFrameInAFileThatReadsBack() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["frames.csv", "frames.jsonl"] {
            let path = (folder as NSString).appendingPathComponent(name)
            let result = try AnimDemoProcess.run(
                ["--headless", "--frames", "30", "--sprites", "50", "--assets", assets, "--log", path])
            XCTAssertTrue(result.exitedNormally && result.status == 0, result.standardError)
            XCTAssertTrue(result.standardOutput.contains("Frame log: \(path)"), result.standardOutput)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(
                text.hasPrefix(
                    name.hasSuffix(".jsonl") ? "{\"format\":\"framelink-frame-log\"" : "# framelink-frame-log"))
            let records = try MainActor.assumeIsolated { () throws in try FrameLog(contentsOfFile: path).records.count }
            XCTAssertEqual(records, 29, "one record per interval of 30 frames")
        }
        try AnimDemoProcess.assertRefused(
            headless + ["--log", folder + "/", "--report", folder + "/r.json"], saying: "--log")
    }

    // MARK: Refused up front

    /// The same path for both outputs (also spelled differently, or hard-linked) is refused with exit 64 and
    /// one line, and nothing is written.
    func testTheSameFileForReportAndScreenshotIsRefusedUpFront() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = (folder as NSString).appendingPathComponent("out")
        try AnimDemoProcess.assertRefused(headless + ["--report", file, "--screenshot", file], saying: "the same file")
        let spelledOtherwise = (folder as NSString).appendingPathComponent("./sub/../out")
        try FileManager.default.createDirectory(
            atPath: (folder as NSString).appendingPathComponent("sub"), withIntermediateDirectories: true)
        try AnimDemoProcess.assertRefused(
            headless + ["--report", spelledOtherwise, "--screenshot", file], saying: "the same file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing may be written")

        // Two names of one file (a hard link): same device and inode.
        let other = (folder as NSString).appendingPathComponent("other")
        try Data("previous\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(link(file, other), 0)
        try AnimDemoProcess.assertRefused(
            headless + ["--report", other, "--screenshot", file], saying: "the same file")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "previous\n")
    }

    /// An output on the atlas (also through a symbolic link), the --font file or the assets folder is
    /// refused with exit 64 and one line, and the input is unchanged.
    func testAnOutputThatIsAnInputIsRefusedAndTheInputIsUnchanged() throws {
        let folder = try makeFolder("-assets")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let atlas = (folder as NSString).appendingPathComponent("sprites.png")
        try FileManager.default.copyItem(
            atPath: (assets as NSString).appendingPathComponent("sprites.png"), toPath: atlas)
        let original = try Data(contentsOf: URL(fileURLWithPath: atlas))
        let base = ["--headless", "--frames", "5", "--sprites", "50", "--assets", folder]

        try AnimDemoProcess.assertRefused(base + ["--screenshot", atlas], saying: "is the sprite atlas")
        try AnimDemoProcess.assertRefused(base + ["--report", atlas], saying: "is the sprite atlas")
        let link = (folder as NSString).appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: atlas)
        try AnimDemoProcess.assertRefused(base + ["--screenshot", link], saying: "is the sprite atlas")
        try AnimDemoProcess.assertRefused(base + ["--report", folder], saying: "is the assets folder")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: atlas)), original, "the atlas was changed")

        let font = (folder as NSString).appendingPathComponent("font.ttf")
        try Data("not really a font\n".utf8).write(to: URL(fileURLWithPath: font))
        try AnimDemoProcess.assertRefused(base + ["--font", font, "--report", font], saying: "is the --font file")
        XCTAssertEqual(try String(contentsOfFile: font, encoding: .utf8), "not really a font\n")
    }

    /// A folder that refuses new files (sysfs, a read-only tmpfs), a special file and a folder as the
    /// destination are refused with exit 64 and one line naming the reason.
    func testAnUnwritableDestinationIsRefusedUpFront() throws {
        // Root may write anywhere chmod allows nothing; sysfs refuses new files even to root.
        try AnimDemoProcess.assertRefused(
            headless + ["--report", "/sys/animdemo-\(UUID().uuidString).json"], saying: "cannot create files in /sys")
        try AnimDemoProcess.assertRefused(headless + ["--screenshot", "/dev/null"], saying: "is not a regular file")
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AnimDemoProcess.assertRefused(headless + ["--screenshot", folder], saying: "is a folder")

        let readOnly = try mountTmpfs(options: "ro,size=64k")
        defer { readOnly.unmount() }
        let result = try AnimDemoProcess.assertRefused(
            headless + ["--report", (readOnly.folder as NSString).appendingPathComponent("report.json")],
            saying: "cannot create files in \(readOnly.folder)")
        XCTAssertTrue(result.standardError.contains("Read-only file system"), result.standardError)
    }

    // MARK: Failed writes

    /// On a full 64 kB tmpfs each failed output gets one line with the path and "No space left on device",
    /// exit 1, the previous files are intact and no temporary file is left; with room for the report only,
    /// the report is written and only the screenshot fails.
    func testAFullDiskKeepsThePreviousFilesAndReportsEachFailedOutput() throws {
        let disk = try mountTmpfs(options: "size=64k")
        defer { disk.unmount() }
        let report = (disk.folder as NSString).appendingPathComponent("report.json")
        let screenshot = (disk.folder as NSString).appendingPathComponent("shot.png")
        try Data("previous report\n".utf8).write(to: URL(fileURLWithPath: report))
        try Data("previous screenshot\n".utf8).write(to: URL(fileURLWithPath: screenshot))

        // Fill the disk: neither output fits.
        let filler = (disk.folder as NSString).appendingPathComponent("filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        let page = Data(repeating: 0x2A, count: 4096)
        while (try? handle.write(contentsOf: page)) != nil {}
        try? handle.close()

        let arguments = [
            "--headless", "--frames", "5", "--report", report, "--screenshot", screenshot, "--assets", assets,
        ]
        let full = try AnimDemoProcess.run(arguments, environment: ["SDL_VIDEODRIVER": nil], timeout: 60)
        XCTAssertTrue(full.exitedNormally, full.standardError)
        XCTAssertEqual(full.status, 1, full.standardError)
        XCTAssertEqual(full.errorLines.count, 2, "one line per failed output: \(full.standardError)")
        let expected = [
            "AnimDemo: error: cannot write the screenshot to \(screenshot): No space left on device (the previous "
                + "file is unchanged)",
            "AnimDemo: error: cannot write the report to \(report): No space left on device (the previous file is "
                + "unchanged)",
        ]
        XCTAssertEqual(full.errorLines, expected)
        XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "previous report\n")
        XCTAssertEqual(try String(contentsOfFile: screenshot, encoding: .utf8), "previous screenshot\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: disk.folder).sorted(),
            ["filler", "report.json", "shot.png"], "no temporary file may be left")

        // Room for the report (a few kB) but not for the screenshot (hundreds of kB).
        try FileManager.default.removeItem(atPath: filler)
        let partial = try AnimDemoProcess.run(arguments, environment: ["SDL_VIDEODRIVER": nil], timeout: 60)
        XCTAssertEqual(partial.status, 1, partial.standardError)
        XCTAssertEqual(partial.errorLines, [expected[0]])
        XCTAssertEqual(try AnimDemoReport.load(report).framesRun, 5, "the report fits and is written")
        XCTAssertEqual(try String(contentsOfFile: screenshot, encoding: .utf8), "previous screenshot\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: disk.folder).sorted(), ["report.json", "shot.png"])
        XCTAssertTrue(
            partial.standardOutput.contains("Screenshot: \(screenshot) was not written"), partial.standardOutput)
    }
}
