import Foundation
import Synchronization

/// The files a run writes (`--screenshot`, `--report`), each written safely: to a temporary file in
/// the destination's folder, flushed with `fsync`, checked (every byte written, the file's size),
/// then renamed over the destination. A failed write removes the temporary file and leaves the
/// previous file (or none) untouched.
///
/// It also keeps the list of outputs not yet in place and of the temporary files being written, so
/// that a signal that ends AnimDemo before the run winds down (``InterruptSignal``) can remove the
/// temporary files and say which outputs were not written.
enum OutputFile {
    /// The outputs still to write and the temporary files in flight.
    private struct State {
        /// The outputs of the run not yet in place: (what, path), in order.
        var unwritten: [(label: String, path: String)] = []
        /// The temporary files that exist now.
        var temporaryFiles: Set<String> = []
    }

    private static let state = Mutex(State())

    /// Notes that the run will write `label` (e.g. "the report") to `path`.
    static func expect(_ label: String, at path: String) {
        state.withLock { $0.unwritten.append((label, path)) }
    }

    /// Writes `bytes` to `path` safely; `label` names the output in the error ("the report").
    ///
    /// - Throws: ``DemoError`` with one line that names the path and the operating system's reason
    ///   (e.g. "No space left on device"); the destination is then unchanged and no temporary file is
    ///   left behind.
    static func write(_ bytes: Data, to path: String, label: String) throws(DemoError) {
        let existed = access(path, F_OK) == 0
        let failure = { (reason: String) in
            DemoError(
                description: "cannot write \(label) to \(path): \(reason)"
                    + (existed ? " (the previous file is unchanged)" : " (nothing was written)"))
        }
        let (file, temporary, createError) = createTemporaryFile(near: path)
        guard file >= 0 else { throw failure("cannot create a file in its folder: \(describe(createError))") }

        var open = true
        var problem: String?
        if let error = writeAll(bytes, to: file) {
            problem = describe(error)
        } else if fsync(file) != 0 {
            problem = describe(errno)
        } else {
            var status = stat()
            if fstat(file, &status) != 0 {
                problem = describe(errno)
            } else if Int(status.st_size) != bytes.count {
                problem = "the file holds \(status.st_size) bytes, not \(bytes.count)"
            }
        }
        if problem == nil {
            open = false
            if close(file) != 0 { problem = describe(errno) }
        }
        if let problem {
            if open { close(file) }
            discard(temporary)
            throw failure(problem)
        }
        let renameError = commit(temporary, to: path)
        guard renameError == 0 else { throw failure(describe(renameError)) }
        syncFolder(of: path)
    }

    /// Removes every temporary file in flight, then calls `exit` with the outputs not written,
    /// holding the lock so that no rename can follow: for an exit that cannot wait for the run.
    static func abandon(then exit: ([String]) -> Never) -> Never {
        state.withLock { state in
            for file in state.temporaryFiles { unlink(file) }
            state.temporaryFiles.removeAll()
            exit(state.unwritten.map(\.label))
        }
    }

    /// `strerror`'s text for `error`, e.g. "No space left on device".
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }

    // MARK: Steps

    /// Creates a new, empty temporary file next to `path` (`.<name>.AnimDemo-<random>.tmp`), open
    /// for writing, and records it: returns its descriptor (or -1), its path and `errno`.
    private static func createTemporaryFile(near path: String) -> (Int32, String, Int32) {
        let url = URL(fileURLWithPath: path)
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (folder.isEmpty ? "" : folder + "/") + "." + url.lastPathComponent + ".AnimDemo-"
        return state.withLock { state in
            var error: Int32 = EEXIST
            for _ in 0..<16 {
                let candidate = prefix + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
                let file = Glibc.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if file >= 0 {
                    state.temporaryFiles.insert(candidate)
                    return (file, candidate, 0)
                }
                error = errno
                if error != EEXIST { break }
            }
            return (-1, "", error)
        }
    }

    /// Writes all of `bytes` to `file`, retrying short writes; returns `errno` on failure, or `nil`.
    private static func writeAll(_ bytes: Data, to file: Int32) -> Int32? {
        bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32? in
            var written = 0
            while written < buffer.count {
                let chunk = min(buffer.count - written, 1 << 20)
                let count = Glibc.write(file, buffer.baseAddress! + written, chunk)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { return EIO }
                written += count
            }
            return written == buffer.count ? nil : EIO
        }
    }

    /// Renames `temporary` over `path` and marks the output written; returns `errno` on failure
    /// (the temporary file is then removed), or 0.
    private static func commit(_ temporary: String, to path: String) -> Int32 {
        state.withLock { state in
            state.temporaryFiles.remove(temporary)
            guard rename(temporary, path) == 0 else {
                let error = errno
                unlink(temporary)
                return error
            }
            state.unwritten.removeAll { $0.path == path }
            return 0
        }
    }

    /// Removes `temporary` and forgets it.
    private static func discard(_ temporary: String) {
        state.withLock { state in
            unlink(temporary)
            state.temporaryFiles.remove(temporary)
        }
    }

    /// Flushes the folder that holds `path`, so that the rename itself survives a crash (best effort:
    /// some file systems cannot sync a folder).
    private static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
