import Testing

@testable import FrameLink

/// How much later than their calls explain frames are shown (`_ShownLateness`), and the swap-chain
/// model's targets with it.
@Suite("_ShownLateness: frames shown later than their calls explain")
struct ShownLatenessTests {
    static let n = _ShownLateness.consistentFrames

    @Test(
        "the lateness 10 of the last 16 frames had (on time before them), else the one taken, capped at 4 vsyncs",
        arguments: [
            (late: [Int64](repeating: 1, count: _ShownLateness.clearMajority - 1), taken: Int64(0)),
            (late: [Int64](repeating: 1, count: _ShownLateness.clearMajority), taken: 1),
            (late: [Int64](repeating: 1, count: n), taken: 1),
            // One frame different is that frame's own doing.
            (late: [Int64](repeating: 2, count: n) + [0], taken: 2),
            (late: [Int64](repeating: 1, count: n) + [Int64](repeating: 2, count: n), taken: 2),
            // A light frame in every 8 of a pipeline one vsync late: still one late.
            (late: [Int64]((0..<(4 * n)).map { $0 % 8 == 0 ? 0 : 1 }), taken: 1),
            // Half and half, or three and three: no clear majority, the lateness taken stays.
            (late: [Int64]((0..<(2 * n)).map { Int64($0 % 2) }), taken: 0),
            (late: [Int64](repeating: 1, count: n) + [Int64]((0..<(4 * n)).map { Int64($0 % 2) }), taken: 1),
            (late: [Int64]((0..<(6 * n)).map { $0 % 6 < 3 ? 0 : 1 }), taken: 0),
            (late: [Int64](repeating: 2, count: n) + [Int64](repeating: 0, count: 9), taken: 2),
            (late: [Int64](repeating: 2, count: n) + [Int64](repeating: 0, count: 10), taken: 0),
            (late: [Int64](repeating: 9, count: n), taken: _ShownLateness.mostVsyncs),
            (late: [Int64](repeating: -3, count: n), taken: 0),
        ] as [(late: [Int64], taken: Int64)])
    func taken(late: [Int64], taken: Int64) {
        var lateness = _ShownLateness()
        for value in late { lateness.note(late: value) }
        #expect(lateness.vsyncs == taken)
    }

    @Test("forgetting returns to a fresh lateness: 0, and 10 frames to learn one again")
    func forget() {
        var lateness = _ShownLateness()
        for _ in 0..<Self.n { lateness.note(late: 2) }
        #expect(lateness.vsyncs == 2)
        lateness.forget()
        #expect(lateness.vsyncs == 0)
        for _ in 0..<(_ShownLateness.clearMajority - 1) { lateness.note(late: 1) }
        #expect(lateness.vsyncs == 0)
        lateness.note(late: 1)
        #expect(lateness.vsyncs == 1)
    }

    /// Two buffers; frame k presented in vsync `k`'s interval, its present blocking until vsync
    /// `k + 1 + extra` (its own frame shown there), and the next frame timestamped by that vsync.
    static func run(extra: Int64, frames: Int64) -> [_SwapChainModel.Placement] {
        var model = _SwapChainModel()
        var placements: [_SwapChainModel.Placement] = []
        var vsync: Int64 = 0
        for frame in 1...frames {
            let shown = vsync + 1 + extra
            placements.append(
                model.place(
                    _SwapChainModel.Frame(
                        called: vsync, number: shown, blocked: true, frame: frame, interval: 1, chainDepth: 0,
                        lastBlockingReturn: nil)))
            vsync = shown
        }
        return placements
    }

    @Test("two buffers, every frame shown a vsync later than its call explains: the targets say so after 10 frames")
    func gpuBound() {
        let placed = Self.run(extra: 1, frames: 14)
        // Shown every 2nd vsync, one drop each; the target of the frame being built is where it
        // will be shown: two vsyncs after the last one, once learned.
        #expect(placed.dropFirst().allSatisfy { $0.drops == 1 })
        #expect(placed[3].target == placed[3].shown + 1)
        // (The first frame's lateness is not known: it has no frame before it. Placement 9 has 9
        // late; placement 10 has 10, a clear majority.)
        #expect(placed[9].target == placed[9].shown + 1)
        #expect(placed[10].target == placed[10].shown + 2)
    }

    @Test("frames shown where their calls put them: targets are the next vsync")
    func onTime() {
        let placed = Self.run(extra: 0, frames: 12)
        #expect(placed.allSatisfy { $0.target == $0.shown + 1 && $0.drops == 0 })
    }
}
