import Foundation

/// Runs `body` with the process's stderr (file descriptor 2) sent to a temporary file, and returns
/// its result with what was written (at most `limit` bytes). If stderr cannot be redirected, `body`
/// runs as is and nothing is captured.
///
/// Used where a library prints its own complaints (libpng on a corrupt atlas, libwayland on a stale
/// `WAYLAND_DISPLAY`), so that AnimDemo can fold them into its one error line or pass them on.
func captureStandardError<Result>(limit: Int = 65_536, _ body: () -> Result) -> (Result, String) {
    guard let file = tmpfile() else { return (body(), "") }
    defer { fclose(file) }
    fflush(nil)
    let saved = dup(STDERR_FILENO)
    guard saved >= 0, dup2(fileno(file), STDERR_FILENO) >= 0 else {
        if saved >= 0 { close(saved) }
        return (body(), "")
    }
    let result = body()
    fflush(nil)
    dup2(saved, STDERR_FILENO)
    close(saved)

    rewind(file)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < limit {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<min(count, limit - bytes.count)])
    }
    return (result, String(decoding: bytes, as: UTF8.self))
}
