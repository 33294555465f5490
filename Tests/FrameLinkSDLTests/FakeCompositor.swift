import Foundation

/// A Wayland compositor the tests script, speaking the wire protocol by hand on a socket of its
/// own: it answers `wl_display.sync` and `get_registry`, offers `wl_compositor` and
/// `wp_presentation` (or not), names a presentation clock, and answers each feedback request as
/// the script says — so that what a real compositor would rarely do (never answer, offer no
/// presentation-time, name a clock that cannot be read, send times that cannot be true, send
/// feedback for an object that does not exist, hang up) happens on demand.
final class FakeCompositor: Sendable {
    /// What the compositor does.
    struct Script: Sendable {
        /// Whether it answers at all (false: it accepts the connection and reads, nothing more).
        var answers = true
        var offersPresentation = true
        var clockID: UInt32 = 1
        /// The answer to each feedback request, in order; requests beyond the list get none.
        var feedback: [Answer] = []
        /// Whether it also sends a `presented` event to an object id the client never made.
        var sendsToUnknownObject = false
        /// Closes the connection after this many feedback requests.
        var hangsUpAfterRequests: Int?
    }

    /// An answer to one feedback request.
    enum Answer: Sendable {
        case presented(
            seconds: UInt64, nanoseconds: UInt32, refresh: UInt32 = 16_666_667, sequence: UInt64, flags: UInt32 = 0)
        case discarded
    }

    /// The socket's path, for `CFrameLinkWayland_connect`.
    let path: String
    private let listener: Int32

    init(_ script: Script) throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("framelink-fake-\(UUID().uuidString).sock")
            .path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        listener = descriptor
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 1) == 0 else { throw CocoaError(.fileWriteUnknown) }
        Thread.detachNewThread {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var session = Session(script: script, client: client)
            session.serve()
            close(client)
        }
    }

    /// Stops listening and removes the socket (the client's connection ends when it closes it).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    /// One client's connection.
    private struct Session {
        let script: Script
        let client: Int32
        var buffer: [UInt8] = []
        var registries = Set<UInt32>()
        var presentations = Set<UInt32>()
        var compositors = Set<UInt32>()
        var feedbackRequests = 0
        /// An object id the client never made (its ids count up from 2).
        static let unknownObject: UInt32 = 9_999

        init(script: Script, client: Int32) {
            self.script = script
            self.client = client
        }

        mutating func serve() {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(client, &chunk, chunk.count)
                guard count > 0 else { return }
                buffer += chunk[0..<count]
                while buffer.count >= 8 {
                    let size = Int(word(buffer, 4) >> 16)
                    guard size >= 8, buffer.count >= size else { break }
                    let message = Array(buffer[0..<size])
                    buffer.removeFirst(size)
                    guard script.answers else { continue }
                    if !handle(
                        object: word(message, 0), opcode: word(message, 4) & 0xffff, arguments: Array(message[8...]))
                    {
                        return
                    }
                }
            }
        }

        /// Answers one request; false to hang up.
        mutating func handle(object: UInt32, opcode: UInt32, arguments: [UInt8]) -> Bool {
            switch (object, opcode) {
            case (1, 0):  // wl_display.sync(callback)
                let callback = word(arguments, 0)
                post(object: callback, opcode: 0, [.uint(0)])
                post(object: 1, opcode: 1, [.uint(callback)])
            case (1, 1):  // wl_display.get_registry(registry)
                let registry = word(arguments, 0)
                registries.insert(registry)
                post(object: registry, opcode: 0, [.uint(1), .string("wl_compositor"), .uint(4)])
                if script.offersPresentation {
                    post(object: registry, opcode: 0, [.uint(2), .string("wp_presentation"), .uint(1)])
                }
            case (let registry, 0) where registries.contains(registry):  // bind(name, interface, version, id)
                let name = word(arguments, 0)
                let length = Int(word(arguments, 4))
                let id = word(arguments, 8 + (length + 3) / 4 * 4 + 4)
                if name == 2 {
                    presentations.insert(id)
                    post(object: id, opcode: 0, [.uint(script.clockID)])
                } else {
                    compositors.insert(id)
                }
            case (let presentation, 1) where presentations.contains(presentation):  // feedback(surface, id)
                let feedback = word(arguments, 4)
                defer { feedbackRequests += 1 }
                if script.sendsToUnknownObject && feedbackRequests == 0 {
                    post(object: Self.unknownObject, opcode: 1, Array(repeating: .uint(0), count: 7))
                }
                if feedbackRequests < script.feedback.count {
                    switch script.feedback[feedbackRequests] {
                    case .presented(let seconds, let nanoseconds, let refresh, let sequence, let flags):
                        post(
                            object: feedback, opcode: 1,
                            [
                                .uint(UInt32(seconds >> 32)), .uint(UInt32(truncatingIfNeeded: seconds)),
                                .uint(nanoseconds), .uint(refresh), .uint(UInt32(sequence >> 32)),
                                .uint(UInt32(truncatingIfNeeded: sequence)), .uint(flags),
                            ])
                    case .discarded:
                        post(object: feedback, opcode: 2, [])
                    }
                    post(object: 1, opcode: 1, [.uint(feedback)])
                }
                if let limit = script.hangsUpAfterRequests, feedbackRequests + 1 >= limit { return false }
            default:
                break
            }
            return true
        }

        enum Argument {
            case uint(UInt32)
            case string(String)
        }

        func post(object: UInt32, opcode: UInt32, _ arguments: [Argument]) {
            var body: [UInt8] = []
            for argument in arguments {
                switch argument {
                case .uint(let value):
                    withUnsafeBytes(of: value.littleEndian) { body += $0 }
                case .string(let text):
                    let bytes = Array(text.utf8) + [0]
                    withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { body += $0 }
                    body += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
                }
            }
            var message: [UInt8] = []
            withUnsafeBytes(of: object.littleEndian) { message += $0 }
            withUnsafeBytes(of: (UInt32(8 + body.count) << 16 | opcode).littleEndian) { message += $0 }
            message += body
            // (MSG_NOSIGNAL: a client that has gone gets an error, not this process a SIGPIPE.)
            _ = message.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}

/// The little-endian 32-bit word at `offset`.
private func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    guard offset + 4 <= bytes.count else { return 0 }
    return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
}
