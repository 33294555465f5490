import Foundation
import FrameLinkSDL

/// The last frame as PNG bytes in memory, so that ``OutputFile`` can write it with the same checked,
/// rename-based write as the report.
///
/// SDL writes the PNG (``SDLHost/screenshot(to:)``) into an anonymous file in memory (POSIX shared
/// memory, unlinked at once; a `tmpfile()` if that is unavailable), reached through
/// `/proc/self/fd/N`; the bytes are then read back and checked: SDL reported success, the file is not
/// empty, every byte was read, and it is a whole PNG (signature first, `IEND` chunk last).
enum ScreenshotCapture {
    /// The eight bytes every PNG file starts with.
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The 12 bytes every PNG file ends with: the empty `IEND` chunk and its CRC.
    private static let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Encodes what `host` has drawn as a PNG and returns the bytes.
    ///
    /// - Parameter path: The destination, named in the error.
    /// - Throws: ``DemoError`` with one line when SDL cannot save the frame or the PNG is incomplete.
    @MainActor
    static func png(of host: SDLHost, for path: String) throws(DemoError) -> Data {
        let failure = { (reason: String) in DemoError(description: "cannot save the screenshot to \(path): \(reason)") }
        let file = anonymousFile()
        guard file >= 0 else { throw failure("no memory file for the PNG: \(OutputFile.describe(errno))") }
        defer { close(file) }
        do {
            try host.screenshot(to: "/proc/self/fd/\(file)")
        } catch {
            throw failure("\(error)")
        }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw failure(OutputFile.describe(errno)) }
        let size = Int(status.st_size)
        guard size > signature.count + end.count else { throw failure("SDL wrote \(size) bytes, not a PNG") }
        var bytes = [UInt8](repeating: 0, count: size)
        var read = 0
        while read < size {
            let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress! + read, size - read, off_t(read)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("cannot read the PNG back (\(read) of \(size) bytes)") }
            read += count
        }
        guard bytes.starts(with: signature), Array(bytes.suffix(end.count)) == end else {
            throw failure("SDL wrote an incomplete PNG (\(size) bytes)")
        }
        return Data(bytes)
    }

    /// A new file descriptor for an unnamed file in memory, or -1 with `errno` set.
    private static func anonymousFile() -> Int32 {
        let name = "/AnimDemo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if file >= 0 {
            shm_unlink(name)
            return file
        }
        guard let stream = tmpfile() else { return -1 }
        defer { fclose(stream) }
        return fcntl(fileno(stream), F_DUPFD_CLOEXEC, 0)
    }
}
