import Testing

@testable import FrameLink

/// The swap-chain model: where each frame is shown on the vsync grid, the drops before it and the
/// next frame's target, in grid numbers.
@Suite("_SwapChainModel: where frames are shown, drops and targets")
struct SwapChainModelTests {
    /// A frame presented in vsync `called`'s interval and timestamped `number`.
    static func frame(
        called: Int64, number: Int64, blocked: Bool, frame: Int64, interval: Int64 = 1, buffers: Int64 = 2,
        lastBlockingReturn: Int64? = nil
    ) -> _SwapChainModel.Frame {
        _SwapChainModel.Frame(
            called: called, number: number, blocked: blocked, frame: frame, interval: interval,
            chainDepth: buffers - 2, lastBlockingReturn: lastBlockingReturn)
    }

    /// Places `frames` in order and returns each placement.
    static func placements(_ frames: [_SwapChainModel.Frame]) -> [_SwapChainModel.Placement] {
        var model = _SwapChainModel()
        return frames.map { model.place($0) }
    }

    @Test("double buffering, a present that blocks every vsync: shown on the vsync that released it, no drops")
    func steadyDoubleBuffering() {
        let placed = Self.placements(
            (1...5).map { Self.frame(called: $0 - 1, number: $0, blocked: true, frame: $0) })
        #expect(placed.map(\.shown) == [1, 2, 3, 4, 5])
        #expect(placed.map(\.drops) == [0, 0, 0, 0, 0])
        #expect(placed.map(\.target) == [2, 3, 4, 5, 6])
    }

    @Test("triple buffering: a present that blocks waits behind one queued frame, so it is shown a vsync later")
    func tripleBufferingQueues() {
        let placed = Self.placements(
            (1...3).map { Self.frame(called: $0 - 1, number: $0, blocked: true, frame: $0, buffers: 3) })
        #expect(placed.map(\.shown) == [2, 3, 4])
        #expect(placed.map(\.target) == [3, 4, 5])
    }

    @Test(
        "a stall: with 3 buffers placed by its call (the queued frames covered it), with 2 by its return; the drops the truth's",
        arguments: [(buffers: Int64(3), stall: Int64(3), drops: 2), (3, 5, 4), (2, 3, 3), (2, 5, 5)])
    func stallPlacedByItsCall(buffers: Int64, stall: Int64, drops: Int) {
        var model = _SwapChainModel()
        // Steady frames, each present blocking on the vsync after its call.
        for index in Int64(1)...4 {
            _ = model.place(Self.frame(called: index - 1, number: index, blocked: true, frame: index, buffers: buffers))
        }
        let before = model.lastShownNumber!
        // Frame 5 called in vsync 4's interval; its return comes `stall` periods late.
        var stalled = Self.frame(called: 4, number: 5 + stall, blocked: true, frame: 5, buffers: buffers)
        stalled.releaseIsUnknown = true
        let atStall = model.place(stalled)
        if buffers > 2 {
            #expect(atStall.shown == before + 1, "shown after the frame before, as its call explains")
        } else {
            #expect(atStall.shown == 5 + stall, "placed by its return: its drops in the interval that holds them")
        }
        // The next frame returns at once into the drained chain.
        let next = model.place(
            Self.frame(called: 5 + stall, number: 5 + stall + 1, blocked: false, frame: 6, buffers: buffers))
        #expect(atStall.drops + next.drops == drops, "\(atStall) \(next)")
        #expect(next.shown == 5 + stall + 1)
    }

    @Test("a late frame that returns at once is shown on the next vsync; the refresh it missed is one drop")
    func lateFrameDrops() {
        let placed = Self.placements([
            Self.frame(called: 0, number: 1, blocked: true, frame: 1),
            Self.frame(called: 2, number: 3, blocked: false, frame: 2),
        ])
        #expect(placed[1].shown == 3)
        #expect(placed[1].drops == 1)
    }

    @Test("a present that returned at once is shown within the chain's depth of its call, whatever was queued")
    func roomMeansSoon() {
        var model = _SwapChainModel()
        // The model queued frames up to vsync 10 (returns taken for blocks); a hitch drained the chain.
        _ = model.place(Self.frame(called: 0, number: 9, blocked: true, frame: 1, buffers: 3))
        let placed = model.place(Self.frame(called: 4, number: 5, blocked: false, frame: 2, buffers: 3))
        #expect(placed.shown == 5)
    }

    @Test(
        "drops under a divisor: a frame is dropped when the display showed the old one more than half an interval long",
        arguments: [
            (missed: Int64(0), interval: Int64(1), drops: 0), (missed: 1, interval: 1, drops: 1),
            (missed: 3, interval: 1, drops: 3), (missed: 1, interval: 2, drops: 0), (missed: 2, interval: 2, drops: 1),
            (missed: 3, interval: 2, drops: 2), (missed: -1, interval: 1, drops: 0), (missed: 2, interval: 3, drops: 1),
        ])
    func dropsUnderDivisor(missed: Int64, interval: Int64, drops: Int) {
        #expect(_SwapChainModel.drops(missedRefreshes: missed, interval: interval) == drops)
    }

    @Test("the first frame on the grid counts drops only from a blocking return on it, never after other timestamps")
    func comingOntoGrid() {
        #expect(_SwapChainModel.dropsComingOntoGrid(at: 10, after: 7, interval: 1) == 2)
        #expect(_SwapChainModel.dropsComingOntoGrid(at: 10, after: nil, interval: 1) == 0)
        #expect(_SwapChainModel.dropsComingOntoGrid(at: 10, after: 12, interval: 1) == 0)
        let placed = Self.placements([Self.frame(called: 9, number: 10, blocked: true, frame: 1, lastBlockingReturn: 7)]
        )
        #expect(placed[0].drops == 2)
        #expect(!placed[0].dropsBeforeAreUnknown)
    }

    /// Coming onto the grid, a frame whose start was moved a vsync past the one that released its
    /// present (never less than half a period after the last frame) is placed by that release:
    /// three buffers, released by vsync 411, begun at 412, the present before released by 410.
    @Test("coming onto the grid, the vsync that released the present places the frame, not the moved start")
    func releasePlacesTheFrame() {
        var moved = Self.frame(called: 410, number: 412, blocked: true, frame: 1, buffers: 3, lastBlockingReturn: 410)
        moved.released = 411
        let placed = Self.placements([
            moved, Self.frame(called: 412, number: 413, blocked: false, frame: 2, buffers: 3),
        ])
        #expect(placed.map(\.shown) == [412, 413])
        #expect(placed.map(\.drops) == [0, 0])
        #expect(placed.map(\.target) == [413, 414])
        // Placed by its start, as before: shown a vsync late, and the refresh between the two
        // releases booked as a drop the display never made.
        moved.released = nil
        let byStart = Self.placements([moved])
        #expect(byStart[0].shown == 413 && byStart[0].drops == 1)
    }

    @Test(
        "the first frame on the grid after frames timed otherwise leaves its drops to the interval on a fixed display, not on a variable one"
    )
    func dropsBeforeUnknownComingOntoGrid() {
        let fixed = Self.placements([Self.frame(called: 9, number: 10, blocked: false, frame: 1)])
        #expect(fixed[0].dropsBeforeAreUnknown && fixed[0].drops == 0)
        var variable = Self.frame(called: 9, number: 10, blocked: false, frame: 1)
        variable.refreshesEveryVsync = false
        #expect(!Self.placements([variable])[0].dropsBeforeAreUnknown)
        // The frames after it on the grid: the model's own count.
        let steady = Self.placements(
            [Self.frame(called: 9, number: 10, blocked: false, frame: 1)]
                + (2...4).map { Self.frame(called: 8 + $0, number: 9 + $0, blocked: true, frame: $0) })
        #expect(steady.dropFirst().allSatisfy { !$0.dropsBeforeAreUnknown })
    }

    @Test("feedback places the reported frame where it went, and the frames after it follow it")
    func feedbackPlaces() {
        var model = _SwapChainModel()
        _ = model.place(Self.frame(called: 0, number: 1, blocked: true, frame: 1))
        model.noteReport(frame: 1, shownOn: 3)
        let next = model.place(Self.frame(called: 1, number: 2, blocked: true, frame: 2))
        #expect(next.shown == 4)
        model.noteReport(frame: 3, shownOn: 5)
        let reported = model.place(Self.frame(called: 2, number: 3, blocked: true, frame: 3))
        #expect(reported.shown == 5)
    }

    @Test("forgetting the grid position starts the model afresh; a report outlives it")
    func forget() {
        var model = _SwapChainModel()
        _ = model.place(Self.frame(called: 0, number: 1, blocked: true, frame: 1))
        model.noteReport(frame: 1, shownOn: 1)
        model.forget()
        #expect(model.lastVsyncNumber == nil && model.lastShownNumber == nil)
        #expect(model.lastReport?.frame == 1)
        let placed = model.place(Self.frame(called: 20, number: 21, blocked: true, frame: 2))
        #expect(placed.shown == 21 && placed.drops == 0)
    }

    @Test("a grid numbered afresh forgets the last report: frames are no longer placed after its old number")
    func forgetReport() {
        var model = _SwapChainModel()
        _ = model.place(Self.frame(called: 400, number: 401, blocked: true, frame: 1))
        model.noteReport(frame: 1, shownOn: 401)
        model.forget()
        model.forgetReport()
        #expect(model.lastReport == nil)
        // Numbered afresh from 0: the next frame goes where its own call puts it, not 401 on.
        let placed = model.place(Self.frame(called: 5, number: 6, blocked: true, frame: 2))
        #expect(placed.shown == 6 && placed.target == 7)
    }

    @Test("every window started again numbers the grid afresh: a reset, a new phase, a relock for another display")
    func numberings() {
        var grid = _VsyncGrid(nominalPeriod: FrameRate.hz60.periodNanoseconds)
        let start = grid.numberings
        grid.reset()
        grid.restartPhase()
        grid.relockForAnotherDisplay()
        #expect(grid.numberings == start + 3)
    }

    @Test("a frame that begins a period late has dropped one already: booked at once, not again when it is placed")
    func dropsBookedAhead() {
        var model = _SwapChainModel()
        _ = model.place(Self.frame(called: 0, number: 1, blocked: true, frame: 1))
        // Frame 2 returned at once and is shown on vsync 2, but the next frame begins only at vsync
        // 3: it cannot be shown before 4, so vsync 3 shows frame 2 again, whatever frame 3 does.
        let late = model.place(Self.frame(called: 1, number: 3, blocked: false, frame: 2))
        #expect(late.shown == 2 && late.drops == 1)
        // Frame 3 is shown on vsync 4 after all: its one missed refresh was booked already.
        let next = model.place(Self.frame(called: 3, number: 4, blocked: false, frame: 3))
        #expect(next.shown == 4 && next.drops == 0)
    }

    @Test("a variable-refresh display waits for the frame: nothing is booked ahead")
    func nothingAheadOnVariableRefresh() {
        var model = _SwapChainModel()
        var first = Self.frame(called: 0, number: 1, blocked: true, frame: 1)
        first.refreshesEveryVsync = false
        _ = model.place(first)
        var late = Self.frame(called: 1, number: 3, blocked: false, frame: 2)
        late.refreshesEveryVsync = false
        #expect(model.place(late).drops == 0)
    }

    @Test(
        "room in the chain: three buffers once the frame before was shown by the call; two buffers never",
        arguments: [
            (buffers: Int64(3), called: Int64(10), room: true),
            (buffers: 3, called: 9, room: false),
            (buffers: 2, called: 10, room: false),
            (buffers: 4, called: 12, room: true),
        ])
    func room(buffers: Int64, called: Int64, room: Bool) {
        var model = _SwapChainModel()
        #expect(!model.hadRoom(forFrameCalledIn: called, chainDepth: buffers - 2), "nothing placed: unknown")
        // The frame before, presented at once in vsync 9's interval, is shown on vsync 10.
        _ = model.place(Self.frame(called: 9, number: 10, blocked: false, frame: 1, buffers: buffers))
        #expect(model.hadRoom(forFrameCalledIn: called, chainDepth: buffers - 2) == room)
    }
}
