import FrameLink
import Testing

/// The display lab itself: its swap chain, its truth, and its errors.
@MainActor
@Suite("Display lab: the simulated display")
struct DisplayLabTests {
    @Test("double buffering: present blocks until its frame is shown at the next refresh, plus the jitter")
    func doubleBuffering() throws {
        let lab = try DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(2)))
        lab.work(for: .milliseconds(5))
        lab.present()
        #expect(lab.now == FrameInstant(nanoseconds: 18_666_666))
        #expect(lab.frames[0].shownAt == lab.now)
        #expect(lab.frames[0].refresh == 2)
        #expect(lab.frames[0].missedRefreshes == 0)
        lab.work(for: .milliseconds(20))  // past the next refresh: that one shows the old frame again
        lab.present()
        #expect(lab.frames[1].missedRefreshes == 1)
        #expect(lab.missedRefreshes == 1)
    }

    @Test("three buffers: present returns at once while a frame can wait, and blocks when the chain is full")
    func tripleBuffering() throws {
        let lab = try DisplayLab(refresh: .fixed(.hz60), buffers: 3)
        lab.work(for: .milliseconds(1))
        lab.present()
        #expect(lab.frames[0].returnedAt == FrameInstant(nanoseconds: 1_050_000), "returned after its 50 µs cost")
        lab.present()  // the chain is full: blocks until the first frame is shown
        #expect(lab.now == FrameInstant(nanoseconds: 16_666_666))
        #expect(lab.frames[0].shownAt == lab.now)
        #expect(lab.frames[1].shownAt == nil)
    }

    @Test("a hidden window shows nothing and present returns at once; a variable display shows a frame when ready")
    func hiddenAndVariable() throws {
        let lab = try DisplayLab(refresh: .fixed(.hz60))
        lab.isHidden = true
        lab.present()
        #expect(lab.now == FrameInstant(nanoseconds: 50_000))
        #expect(lab.frames[0].shownAt == nil)

        let vrr = try DisplayLab(refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz120))
        vrr.work(for: .milliseconds(10))
        vrr.present()
        #expect(vrr.frames[0].shownAt == FrameInstant(nanoseconds: 10_000_000), "shown when presented")
        vrr.work(for: .milliseconds(2))
        vrr.present()  // no sooner than 1/120 s after the last refresh
        #expect(vrr.frames[1].shownAt == FrameInstant(nanoseconds: 18_333_333))
    }

    @Test("the same seed gives the same run")
    func seeded() throws {
        func run(_ seed: UInt64) throws -> [FrameInstant] {
            let lab = try DisplayLab(
                refresh: .fixed(.hz60), jitter: .exponential(mean: .microseconds(500)), seed: seed)
            for _ in 0..<20 {
                lab.work(for: .milliseconds(3))
                lab.present()
            }
            return lab.frames.map(\.returnedAt)
        }
        #expect(try run(3) == run(3))
        #expect(try run(3) != run(4))
    }
}
