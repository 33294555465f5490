import FrameLink
import Testing

/// `FrameLoop.current` is the loop whose frame is running, however it is driven, so that
/// `FrameTimer.scheduledTimer` lands on the loop the code runs in.
@MainActor
@Suite("FrameLoop.current")
struct CurrentLoopTests {
    /// Two loops, `first` created before `second` (so `second` is the most recently created): a
    /// link on `first` schedules a timer from inside its frame.
    func twoLoops() -> (first: FrameLoop, second: FrameLoop, firstSource: ManualFrameSource) {
        let firstSource = ManualFrameSource()
        let first = FrameLoop(source: firstSource)
        let second = FrameLoop(source: ManualFrameSource())
        let link = DisplayLink { link in
            link.invalidate()
            #expect(FrameLoop.current === first)
            _ = FrameTimer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
        }
        link.add(to: first, forMode: .common)
        return (first, second, firstSource)
    }

    @Test("inside runFrame() of the older of two loops, scheduledTimer schedules on that loop")
    func runFrameSetsCurrent() {
        let (first, second, _) = twoLoops()
        #expect(FrameLoop.current === second, "outside any frame: the most recently created loop")
        first.runFrame()
        #expect(first.timerCount == 1)
        #expect(second.timerCount == 0)
        #expect(FrameLoop.current === second, "after the frame, current is as it was")
    }

    @Test("inside run(frames:) of the older of two loops, the same")
    func runSetsCurrent() {
        let (first, second, _) = twoLoops()
        first.run(frames: 1)
        #expect(first.timerCount == 1)
        #expect(second.timerCount == 0)
    }

    @Test("a frame of one loop run from inside a frame of another: current is the inner loop, then the outer again")
    func nestedFrames() {
        let outer = FrameLoop(source: ManualFrameSource())
        let inner = FrameLoop(source: ManualFrameSource())
        var seen: [String] = []
        DisplayLink { link in
            link.invalidate()
            seen.append(FrameLoop.current === inner ? "inner" : "other")
        }.add(to: inner, forMode: .common)
        DisplayLink { link in
            link.invalidate()
            seen.append(FrameLoop.current === outer ? "outer" : "other")
            inner.runFrame()
            seen.append(FrameLoop.current === outer ? "outer" : "other")
        }.add(to: outer, forMode: .common)
        outer.runFrame()
        #expect(seen == ["outer", "inner", "outer"])
    }

    @Test("the system clock is real time, a virtual clock is not")
    func clocksSayWhetherTheyAreRealTime() {
        #expect(SystemClock.shared.sleepsInRealTime)
        #expect(SystemClock().sleepsInRealTime)
        #expect(!VirtualClock().sleepsInRealTime)
    }
}
