import ArgumentParser
import Foundation

/// The checks of `--screenshot`, `--report` and `--log` made up front, before SDL starts, so that a run never
/// ends by failing to write (or by overwriting an input): each destination's folder exists and
/// accepts a new file, the destination is not a folder or a special file, no two outputs are the
/// same file, and neither is an input (the sprite atlas, the `--font` file, the assets folder).
///
/// Files are compared by resolved path (symbolic links, `.` and `..` resolved; for a file that does
/// not exist yet, its folder resolved) and, when both exist, by device and inode, which also catches
/// hard links.
enum OutputPaths {
    /// A file's identity: its resolved path, and its device and inode if it exists.
    private struct Identity {
        var path: String
        var inode: (device: UInt64, number: UInt64)?

        /// Whether the two name the same file.
        func isSame(as other: Identity) -> Bool {
            if path == other.path { return true }
            guard let inode, let otherInode = other.inode else { return false }
            return inode == otherInode
        }
    }

    /// Checks the outputs against each other and against the inputs.
    ///
    /// - Throws: `ValidationError` (exit status 64) with one line that names the option and the path.
    static func check(
        screenshot: String?, report: String?, log: String?, presentationLog: String? = nil, assets: String, font: String
    ) throws {
        let named = [
            ("--screenshot", screenshot), ("--report", report), ("--log", log), ("--presentation-log", presentationLog),
        ]
        let outputs = named.compactMap { name, path in
            path.map { (name: name, path: $0) }
        }
        let atlas = (assets as NSString).appendingPathComponent("sprites.png")
        let inputs = [
            ("the sprite atlas \(atlas)", identity(of: atlas)),
            ("the --font file", identity(of: font)),
            ("the assets folder", identity(of: assets)),
        ]
        for (name, path) in outputs {
            guard !path.isEmpty else { throw ValidationError("\(name) needs a file path") }
            guard !path.hasSuffix("/") else { throw ValidationError("\(name) \(path) is a folder: give a file path") }
            let folder = folder(of: path)
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("\(name) \(path): the folder \(folder) does not exist")
            }
            let output = identity(of: path)
            for (input, inputIdentity) in inputs where output.isSame(as: inputIdentity) {
                throw ValidationError("\(name) \(path) is \(input), an input: write the output elsewhere")
            }
            var status = stat()
            if stat(path, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR {
                    throw ValidationError("\(name) \(path) is a folder: give a file path")
                }
                guard status.st_mode & S_IFMT == S_IFREG else {
                    throw ValidationError("\(name) \(path) is not a regular file: give a file to create or replace")
                }
            }
            if let problem = probe(folder) {
                throw ValidationError("\(name) \(path): cannot create files in \(folder): \(problem)")
            }
        }
        for (position, first) in outputs.enumerated() {
            for second in outputs[(position + 1)...]
            where identity(of: first.path).isSame(as: identity(of: second.path)) {
                throw ValidationError(
                    "\(first.name) \(first.path) and \(second.name) \(second.path) are the same file: give two paths")
            }
        }
    }

    /// The folder `path` is in (`.` for a bare file name).
    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The identity of `path`, whether or not it exists.
    private static func identity(of path: String) -> Identity {
        var status = stat()
        let inode =
            stat(path, &status) == 0 ? (device: UInt64(status.st_dev), number: UInt64(status.st_ino)) : nil
        if let resolved = resolve(path) { return Identity(path: resolved, inode: inode) }
        let name = (path as NSString).lastPathComponent
        if let folder = resolve(folder(of: path)) {
            return Identity(path: (folder as NSString).appendingPathComponent(name), inode: inode)
        }
        return Identity(path: URL(fileURLWithPath: path).standardizedFileURL.path, inode: inode)
    }

    /// `realpath(path)`, or `nil` when `path` does not exist.
    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates and removes a probe file in `folder`; returns the system's reason when it cannot.
    private static func probe(_ folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent(
            ".AnimDemo-probe-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))")
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { return String(cString: strerror(errno)) }
        close(file)
        unlink(path)
        return nil
    }
}
