import Foundation
import Testing

@testable import FrameLink

/// The vsync grid's watch for a vsync that moved by more than the delays (`_VsyncShiftWatch`), on
/// returns built for it (virtual time, no lab).
@Suite("Vsync shift watch: returns later than any before, three in a row, are a moved vsync")
struct VsyncShiftWatchTests {
    static let period: Int64 = 13_333_333

    /// An exponential delay of mean `mean` nanoseconds.
    static func delay(_ random: inout SplitMix64, mean: Double) -> Int64 {
        let unit = Double(random.next() >> 11) / Double(1 << 53)
        return Int64(-mean * log(max(1e-12, 1 - unit)))
    }

    @Test(
        "three returns in a row later than any the stable window saw complete a run; one in time ends it",
        arguments: [
            (delays: [Int64(900), 950, 990], windowCount: 96, stable: true, complete: true),
            (delays: [900, 500, 990], windowCount: 96, stable: true, complete: false),
            (delays: [900, 950, 990], windowCount: 95, stable: true, complete: false),
            (delays: [900, 950, 990], windowCount: 200, stable: false, complete: false),
            (delays: [900, 950, 800], windowCount: 200, stable: true, complete: false),
        ])
    func runs(delays: [Int64], windowCount: Int, stable: Bool, complete: Bool) {
        // The window's largest delay is 800 µs when the run begins; it grows as the grid takes the
        // run's returns, but the run is judged against its start.
        var watch = _VsyncShiftWatch()
        var largest: Int64 = 800_000
        var completed = false
        for (index, delay) in delays.enumerated() {
            completed = watch.noteTaken(
                Int64(index) * Self.period + delay * 1_000, delay: delay * 1_000, largestDelay: largest,
                windowCount: windowCount, stable: stable)
            largest = max(largest, delay * 1_000)
        }
        #expect(completed == complete)
        if complete { #expect(watch.run.count == _VsyncGrid.relockRun) }
    }

    @Test("a window of tiny delays is watched from the least delay any window allows, 0.5 ms")
    func tinyDelays() {
        // Shown times from presentation feedback: the window's largest delay is a nanosecond of
        // rounding, and the next three are a nanosecond or two above the line.
        var watch = _VsyncShiftWatch()
        for delay in [Int64(2), 1, 2] {
            let completed = watch.noteTaken(delay, delay: delay, largestDelay: 1, windowCount: 200, stable: true)
            #expect(!completed)
        }
        // A move by more than 0.5 ms is seen.
        var moved = _VsyncShiftWatch()
        let completed = [Int64(600_000), 610_000, 620_000].map {
            moved.noteTaken($0, delay: $0, largestDelay: 1, windowCount: 200, stable: true)
        }
        #expect(completed == [false, false, true])
    }

    /// Feeds a grid `count` returns of vsyncs `first...` of a display at `phase`, late by
    /// exponential delays of mean 0.2 ms, and returns the number after the last.
    static func feed(
        _ grid: inout _VsyncGrid, from first: Int64, count: Int64, phase: Int64, random: inout SplitMix64
    ) -> Int64 {
        for number in first..<(first + count) {
            grid.add(returnTime: phase + number * period + delay(&random, mean: 200_000))
        }
        return first + count
    }

    @Test(
        "a vsync that moved by more than the delays, less than twice their largest, starts the window again",
        arguments: 0..<8)
    func movedVsyncRelocks(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 31 &+ 7)
        var grid = _VsyncGrid(nominalPeriod: Self.period)
        let next = Self.feed(&grid, from: 0, count: 300, phase: 0, random: &random)
        #expect(grid.isStable == true)
        let relocksBefore = grid.relocks
        // Another display at the same rate, its vsync 1.6 ms later: more than any of these delays
        // (exponential, mean 0.2 ms: the largest of 300 is about 1.2 ms), within twice the largest.
        let shift: Int64 = 1_600_000
        _ = Self.feed(&grid, from: next, count: 200, phase: shift, random: &random)
        #expect(grid.relocks == relocksBefore + 1, "the moved vsync restarted the window once")
        // The line is the new display's: within 50 µs of its vsync (plus the least delay).
        let number = next + 200
        let vsync = shift + number * Self.period
        let error = grid.fittedTime(ofNumber: grid.fittedNumber(atOrBefore: vsync + _VsyncGrid.earlyTolerance)) - vsync
        #expect(abs(error) <= 50_000, "the line is \(error) ns off the new vsync")
    }

    @Test("random delays on a vsync that stays put never complete a run", arguments: 0..<16)
    func steadyVsyncCompletesNoRun(seed: Int) {
        // Exponential delays of mean 0.2 ms and log-normal ones (median 0.3 ms, 99th percentile
        // 1 ms), each judged against the largest of the 512 before it, as the grid's window does.
        var random = SplitMix64(seed: UInt64(seed) &* 131 &+ 11)
        for logNormal in [false, true] {
            var watch = _VsyncShiftWatch()
            var window: [Int64] = []
            var completed = 0
            for index in 0..<20_000 {
                let delay: Int64
                if logNormal {
                    let (u, v) = (
                        Double(random.next() >> 11) / Double(1 << 53), Double(random.next() >> 11) / Double(1 << 53)
                    )
                    let normal = (-2 * log(max(1e-12, u))).squareRoot() * cos(2 * .pi * v)
                    delay = Int64(300_000 * exp(normal * log(1.0 / 0.3) / 2.326))
                } else {
                    delay = Self.delay(&random, mean: 200_000)
                }
                if let largest = window.max(),
                    watch.noteTaken(
                        Int64(index) * Self.period + delay, delay: delay, largestDelay: largest,
                        windowCount: window.count, stable: true)
                {
                    completed += 1
                    watch.forget()
                }
                window.append(delay)
                if window.count > _VsyncGrid.capacity { window.removeFirst() }
            }
            #expect(completed == 0, "\(completed) runs completed on a steady vsync (log-normal: \(logNormal))")
        }
    }
}
