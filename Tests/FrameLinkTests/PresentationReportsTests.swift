import Testing

@testable import FrameLink

/// The presentation-feedback store on its own: what it takes, what it refuses, and what it hands on.
@Suite("_PresentationReports: feedback checked where it enters")
struct PresentationReportsTests {
    /// A store with frames 1…3 presented at 10, 20 and 30 ms.
    func store() -> _PresentationReports {
        var reports = _PresentationReports()
        for frame in Int64(1)...3 { reports.notePresentCall(at: frame * 10_000_000, ofFrame: frame) }
        return reports
    }

    @Test(
        "each implausible report is refused and counted; a plausible one is taken",
        arguments: [
            (frame: Int64(1), time: Int64(12_000_000), taken: true),
            (frame: Int64(5), time: Int64(12_000_000), taken: false),  // after the frame being presented
            (frame: Int64(0), time: Int64(12_000_000), taken: false),  // no frame 0
            (frame: Int64(1), time: Int64(-1), taken: false),  // before the source's start
            (frame: Int64(1), time: Int64(9_000_000), taken: false),  // before its present was called
            (frame: Int64(1), time: Int64(32_000_000), taken: false),  // more than 1 ms ahead of now
            (frame: Int64(1), time: Int64.max, taken: false), (frame: Int64.min, time: Int64(12_000_000), taken: false),
        ])
    func accepts(frame: Int64, time: Int64, taken: Bool) {
        var reports = store()
        let wasTaken = reports.accept(frame: frame, at: time, now: 30_500_000, presentCount: 3)
        #expect(wasTaken == taken)
        #expect(reports.ignored == (taken ? 0 : 1))
        #expect(reports.receivesFeedback == taken)
        #expect(reports.pendingCount == (taken ? 1 : 0))
    }

    @Test("reports must come in order, each after the last; a repeat is refused")
    func order() {
        var reports = store()
        let taken = [
            reports.accept(frame: 2, at: 22_000_000, now: 31_000_000, presentCount: 3),
            reports.accept(frame: 2, at: 23_000_000, now: 31_000_000, presentCount: 3),
            reports.accept(frame: 1, at: 12_000_000, now: 31_000_000, presentCount: 3),
            reports.accept(frame: 3, at: 22_000_000, now: 31_000_000, presentCount: 3),
            reports.accept(frame: 3, at: 31_000_000, now: 31_000_000, presentCount: 3),
        ]
        #expect(taken == [true, false, false, false, true])
        #expect(reports.ignored == 3)
        let handed = (0..<reports.pendingCount).map { reports.pending(at: $0) }
        #expect(handed.map(\.frame) == [2, 3] && handed.map(\.time) == [22_000_000, 31_000_000])
        reports.forgetPending()
        #expect(reports.pendingCount == 0)
    }

    @Test("at most 64 wait between frames; the rest of a flood is not kept")
    func capacity() {
        var reports = _PresentationReports()
        for frame in Int64(1)...100 {
            reports.notePresentCall(at: frame, ofFrame: frame)
            let taken = reports.accept(frame: frame, at: frame * 2, now: 1_000, presentCount: frame)
            #expect(taken)
        }
        #expect(reports.pendingCount == _PresentationReports.capacity)
    }
}
