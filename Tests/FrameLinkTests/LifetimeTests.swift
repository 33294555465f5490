import FrameLink
import Testing

/// The leak cases of the seed articles and their fixes, on FrameLink's timers and links.
@MainActor
@Suite("Lifetimes and leaks")
struct LifetimeTests {
    @Test("the loop keeps an added timer and link alive without any other reference")
    func loopRetainsItems() throws {
        let (source, loop) = makeLoop()
        var timerFires = 0
        var linkCalls = 0
        do {
            let timer = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in timerFires += 1 }
            timer.add(to: loop, forMode: .default)
            DisplayLink { _ in linkCalls += 1 }.add(to: loop, forMode: .default)
        }
        source.advance(to: .seconds(1))
        #expect(timerFires == 10)
        #expect(linkCalls == 60)
        #expect(loop.timerCount == 1 && loop.linkCount == 1)
    }

    @Test("a one-shot timer releases its closure, and the target it captured, after firing")
    func oneShotReleasesTarget() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        do {
            let owner = Owner(onDeinit: { deinitialized = true })
            let timer = FrameTimer(interval: .seconds(1), repeats: false) { _ in owner.tick() }
            timer.add(to: loop, forMode: .default)
        }
        #expect(!deinitialized)
        source.advance(to: .seconds(1.5))
        #expect(deinitialized)
        #expect(loop.timerCount == 0)
    }

    @Test("a repeating timer whose closure captures its owner strongly keeps it alive until invalidate()")
    func strongCaptureLeaksUntilInvalidate() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        weak var weakOwner: Owner?
        var timer: FrameTimer?
        do {
            let owner = Owner(onDeinit: { deinitialized = true })
            weakOwner = owner
            // The classic NSTimer leak: target: self, repeats: YES, and no invalidate().
            timer = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in owner.tick() }
            timer?.add(to: loop, forMode: .default)
        }
        source.advance(to: .seconds(5))
        #expect(!deinitialized, "by design: a strong capture keeps the owner, as NSTimer's strong target does")
        #expect(weakOwner?.ticks == 50)
        timer?.invalidate()
        #expect(deinitialized)
    }

    @Test("a closure that invalidates its own link or timer keeps its captures until it returns")
    func invalidateInsideKeepsCapturesForTheCall() throws {
        // invalidate() drops the closure, and with it the only reference to what it captured. The
        // frame path holds what it calls (the link or timer, and a copy of its closure) for the
        // call, so a closure dropped mid-call lives until the call returns: here the owners must not
        // deinitialize during their calls.
        let (source, loop) = makeLoop()
        var deinitializedDuringCall: [String] = []
        var deinitialized: Set<String> = []
        var calls = 0
        var fired: FrameTimer?
        do {
            let linkOwner = Owner(onDeinit: { deinitialized.insert("link") })
            DisplayLink { link in
                link.invalidate()
                if deinitialized.contains("link") { deinitializedDuringCall.append("link") }
                linkOwner.tick()
                calls += 1
            }.add(to: loop, forMode: .default)
            let timerOwner = Owner(onDeinit: { deinitialized.insert("timer") })
            FrameTimer(interval: .milliseconds(10), repeats: true) { timer in
                timer.invalidate()
                if deinitialized.contains("timer") { deinitializedDuringCall.append("timer") }
                timerOwner.tick()
                calls += 1
            }.add(to: loop, forMode: .default)
            let oneShotOwner = Owner(onDeinit: { deinitialized.insert("one-shot") })
            FrameTimer(interval: .milliseconds(10), repeats: false) { _ in
                // A one-shot timer is invalidated by the loop right after this call.
                oneShotOwner.tick()
                calls += 1
            }.add(to: loop, forMode: .default)
            let fireOwner = Owner(onDeinit: { deinitialized.insert("fire()") })
            fired = FrameTimer(interval: .seconds(100), repeats: true) { timer in
                timer.invalidate()
                if deinitialized.contains("fire()") { deinitializedDuringCall.append("fire()") }
                fireOwner.tick()
                calls += 1
            }
        }
        fired?.fire()  // outside any frame: fire() must hold the closure for the call too
        #expect(deinitialized == ["fire()"])
        source.advance(frames: 1)
        #expect(calls == 4)
        #expect(deinitializedDuringCall.isEmpty)
        #expect(deinitialized == ["link", "timer", "one-shot", "fire()"], "released once their calls returned")
        #expect(loop.linkCount == 0 && loop.timerCount == 0)
    }

    @Test("the same for a display link: a strong capture keeps the owner until invalidate()")
    func strongLinkLeaksUntilInvalidate() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        var link: DisplayLink?
        do {
            let owner = Owner(onDeinit: { deinitialized = true })
            link = DisplayLink { _ in owner.tick() }
            link?.add(to: loop, forMode: .common)
        }
        source.advance(frames: 10)
        #expect(!deinitialized)
        link?.invalidate()
        #expect(deinitialized)
        #expect(loop.linkCount == 0)
    }

    @Test("fix 1, the weak-target form: the owner deinitializes and the timer invalidates itself")
    func weakTargetTimer() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        var owner: Owner? = Owner(onDeinit: { deinitialized = true })
        let timer = FrameTimer(target: owner!, interval: .milliseconds(100)) { owner, _ in owner.tick() }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1))
        #expect(owner?.ticks == 10)
        owner = nil
        #expect(deinitialized)
        source.advance(frames: 1)
        #expect(!timer.isValid)
        #expect(loop.timerCount == 0)
    }

    @Test("fix 2, a closure with a weak capture: the owner deinitializes; the timer is the caller's to stop")
    func weakCaptureTimer() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        var owner: Owner? = Owner(onDeinit: { deinitialized = true })
        let timer = FrameTimer(interval: .milliseconds(100), repeats: true) { [weak owner] timer in
            guard let owner else { return timer.invalidate() }
            owner.tick()
        }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1))
        owner = nil
        #expect(deinitialized)
        source.advance(to: .seconds(1.2))
        #expect(!timer.isValid)
    }

    @Test("a weak-target link hands the target to its closure and leaves the loop when the target dies")
    func weakTargetLink() throws {
        let (source, loop) = makeLoop()
        var owner: Owner? = Owner()
        let link = DisplayLink(target: owner!) { owner, _ in owner.tick() }
        link.add(to: loop, forMode: .common)
        source.advance(frames: 5)
        #expect(owner?.ticks == 5)
        owner = nil
        source.advance(frames: 1)
        #expect(!link.isValid)
        #expect(loop.linkCount == 0)
    }

    @Test("an owner that holds its own weak-target link and timer (a retain cycle with NSTimer) deinitializes")
    func ownerHoldingItsTimer() throws {
        let (source, loop) = makeLoop()
        var deinitialized = false
        do {
            let owner = Owner(onDeinit: { deinitialized = true })
            owner.timer = FrameTimer(target: owner, interval: .milliseconds(50)) { owner, _ in owner.tick() }
            owner.timer?.add(to: loop, forMode: .common)
            owner.link = DisplayLink(target: owner) { owner, _ in owner.tick() }
            owner.link?.add(to: loop, forMode: .common)
            source.advance(frames: 10)
        }
        #expect(deinitialized)
        source.advance(frames: 1)
        #expect(loop.timerCount == 0 && loop.linkCount == 0)
    }

    @Test("10,000 weak targets released: after one frame no link or timer of theirs remains and all deinitialized")
    func tenThousandWeakTargets() throws {
        let (source, loop) = makeLoop()
        let before = Owner.liveCount
        var owners: [Owner] = []
        var items: [AnyObject] = []
        for index in 0..<10_000 {
            let owner = Owner()
            owners.append(owner)
            if index.isMultiple(of: 2) {
                let link = DisplayLink(target: owner) { owner, _ in owner.tick() }
                link.add(to: loop, forMode: .common)
                // Some are paused or in another mode: they are never called, yet must still leave.
                if index % 10 == 0 { link.isPaused = true }
                items.append(link)
            } else {
                let timer = FrameTimer(target: owner, interval: .seconds(60)) { owner, _ in owner.tick() }
                timer.add(to: loop, forMode: index % 3 == 0 ? .tracking : .default)
                items.append(timer)
            }
        }
        source.advance(frames: 2)
        #expect(loop.linkCount == 5_000 && loop.timerCount == 5_000)
        owners.removeAll()
        #expect(Owner.liveCount == before)
        source.advance(frames: 1)
        #expect(loop.linkCount == 0)
        #expect(loop.timerCount == 0)
        for item in items {
            if let link = item as? DisplayLink { #expect(!link.isValid) }
            if let timer = item as? FrameTimer { #expect(!timer.isValid) }
        }
    }
}
