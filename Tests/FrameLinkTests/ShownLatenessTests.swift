import Testing

@testable import FrameLink

/// How much later than their calls explain frames are shown (`_ShownLateness`), and the swap-chain
/// model's targets with it.
@Suite("_ShownLateness: frames shown later than their calls explain")
struct ShownLatenessTests {
    static let n = _ShownLateness.consistentFrames

    @Test(
        "the least lateness of the last 16 frames, capped at 4 vsyncs, never negative",
        arguments: [
            (late: [Int64](repeating: 1, count: n - 1), taken: Int64(0)),
            (late: [Int64](repeating: 1, count: n), taken: 1),
            // One frame shown on time ends it at once: the others were late by their own doing.
            (late: [Int64](repeating: 2, count: n) + [0], taken: 0),
            (late: [Int64](repeating: 2, count: n) + [1], taken: 1),
            (late: [Int64](repeating: 1, count: n) + [Int64](repeating: 2, count: n), taken: 2),
            (late: [Int64](repeating: 2, count: n - 2) + [1, 2], taken: 1),
            (late: [Int64](repeating: 1, count: 2 * n) + [0] + [Int64](repeating: 1, count: n - 1), taken: 0),
            (late: [Int64](repeating: 2, count: n) + [Int64](repeating: 0, count: n), taken: 0),
            (late: [Int64]((0..<(2 * n)).map { Int64($0 % 2) }), taken: 0),
            (late: [Int64](repeating: 9, count: n), taken: _ShownLateness.mostVsyncs),
            (late: [Int64](repeating: -3, count: n), taken: 0),
        ] as [(late: [Int64], taken: Int64)])
    func taken(late: [Int64], taken: Int64) {
        var lateness = _ShownLateness()
        for value in late { lateness.note(late: value) }
        #expect(lateness.vsyncs == taken)
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

    @Test("two buffers, every frame shown a vsync later than its call explains: the targets say so after 16 frames")
    func gpuBound() {
        let placed = Self.run(extra: 1, frames: 20)
        // Shown every 2nd vsync, one drop each; the target of the frame being built is where it
        // will be shown: two vsyncs after the last one, once learned.
        #expect(placed.dropFirst().allSatisfy { $0.drops == 1 })
        #expect(placed[3].target == placed[3].shown + 1)
        #expect(placed[Self.n + 3].target == placed[Self.n + 3].shown + 2)
    }

    @Test("frames shown where their calls put them: targets are the next vsync")
    func onTime() {
        let placed = Self.run(extra: 0, frames: 12)
        #expect(placed.allSatisfy { $0.target == $0.shown + 1 && $0.drops == 0 })
    }
}
