#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads and writes frame-log files with the system's own reasons in errors: a read refuses what is
/// not a regular file (a folder, a named pipe that would block) and files over 1 GiB; a write goes
/// to a temporary file in the same folder, is flushed to disk and renamed over the destination, so
/// a failed write leaves the previous file, or none.
enum _FrameLogFile {
    /// The largest log file read: 1 GiB (about 15 million frames of CSV).
    static let largestFile = 1 << 30

    /// The bytes of the regular file at `path`.
    static func readBytes(_ path: String) throws(FrameLinkError) -> [UInt8] {
        let location = _FrameLogLocation(source: path)
        guard !path.isEmpty else { throw location.problem(field: nil, "cannot read: the path is empty") }
        // Non-blocking, so that a named pipe cannot hang the open; refused below anyway.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw location.problem(field: nil, "cannot read: \(reason())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw location.problem(field: nil, "cannot read: \(reason())") }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw location.problem(
                field: nil, "cannot read: \(kind == S_IFDIR ? "it is a folder" : "it is not a regular file")")
        }
        guard status.st_size <= largestFile else {
            throw location.problem(field: nil, "cannot read: \(status.st_size) bytes is over the 1 GiB limit")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw location.problem(field: nil, "cannot read: \(reason())")
            }
            if count == 0 { break }  // the file shrank while being read
            filled += count
        }
        return Array(bytes.prefix(filled))
    }

    /// Writes `bytes` to `path` through a temporary file in the same folder.
    static func writeBytes(_ bytes: [UInt8], toFile path: String) throws(FrameLinkError) {
        let location = _FrameLogLocation(source: path)
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw location.problem(field: nil, "cannot write: not a file path")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw location.problem(field: nil, "cannot write: \(reason())") }
        var failure: String?
        var written = 0
        while failure == nil, written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno != EINTR { failure = reason() }
            } else {
                written += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = reason() }
        if close(descriptor) != 0, failure == nil { failure = reason() }
        if failure == nil, rename(temporary, path) != 0 { failure = reason() }
        if let failure {
            unlink(temporary)
            throw location.problem(field: nil, "cannot write: \(failure)")
        }
    }

    /// The system's description of `errno`.
    private static func reason() -> String {
        String(cString: strerror(errno))
    }
}
