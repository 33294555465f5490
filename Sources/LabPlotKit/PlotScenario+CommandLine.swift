import FrameLink

extension PlotScenario {
    /// Creates a scenario from command-line values: rates in hertz, durations in milliseconds, the
    /// hidden frames as `FROM-TO`; every value is checked, and the error names the option.
    ///
    /// - Parameters:
    ///   - rateHertz: `--rate`: the display's rate (see ``frameRate(hertz:option:)``).
    ///   - jitterMilliseconds: `--jitter`: the present delay's upper bound.
    ///   - buffers: `--buffers`: the swap chain's buffers.
    ///   - workMilliseconds: `--work`: the work of every frame.
    ///   - frames: `--frames`: the frames to run.
    ///   - seed: `--seed`: the jitter's seed.
    ///   - moveAtFrame: `--move-at`: the frame of a move to another display; needs `moveToHertz`.
    ///   - moveToHertz: `--move-to`: the rate of the display moved to; needs `moveAtFrame`.
    ///   - hide: `--hide`: the hidden frames as `FROM-TO`.
    /// - Throws: ``ScenarioError`` naming the option that is missing, malformed or out of range.
    package init(
        rateHertz: Double, jitterMilliseconds: Double, buffers: Int, workMilliseconds: Double, frames: Int,
        seed: UInt64, moveAtFrame: Int?, moveToHertz: Double?, hide: String?
    ) throws(ScenarioError) {
        let rate = try Self.frameRate(hertz: rateHertz, option: "--rate")
        let jitter = try Self.duration(milliseconds: jitterMilliseconds, option: "--jitter", upTo: Self.maximumJitter)
        guard (2...8).contains(buffers) else {
            throw ScenarioError("--buffers \(buffers) is out of range: a swap chain has 2...8 buffers")
        }
        let work = try Self.duration(milliseconds: workMilliseconds, option: "--work", upTo: Self.maximumWork)
        guard Self.frameRange.contains(frames) else {
            throw ScenarioError("--frames \(frames) is out of range: use 10...20000")
        }
        var move: DisplayMove?
        switch (moveAtFrame, moveToHertz) {
        case (nil, nil):
            move = nil
        case (let frame?, let hertz?):
            guard frame > 1 && frame < frames else {
                throw ScenarioError("--move-at \(frame) is outside the run: use 2...\(frames - 1)")
            }
            move = DisplayMove(frame: Int64(frame), refreshRate: try Self.frameRate(hertz: hertz, option: "--move-to"))
        case (_?, nil):
            throw ScenarioError("--move-at needs --move-to HZ: the rate of the display the window moves to")
        case (nil, _?):
            throw ScenarioError("--move-to needs --move-at FRAME: the frame at which the window moves")
        }
        let hidden = try hide.map { (text) throws(ScenarioError) in try Self.hiddenFrames(parsing: text, frames: frames)
        }
        try self.init(
            refreshRate: rate, jitter: jitter, buffers: buffers, work: work, frames: frames, seed: seed, move: move,
            hiddenFrames: hidden)
    }

    /// The frame rate for a number of hertz, 10 to 500: exact to a thousandth of a hertz, except that
    /// a rate within 0.005 Hz of an NTSC rate (`n × 1000/1001`, such as 59.94 or 119.88) is that rate.
    ///
    /// - Parameters:
    ///   - hertz: The rate in frames per second.
    ///   - option: The option's name, for the error.
    /// - Throws: ``ScenarioError`` for NaN, infinite or out-of-range rates.
    package static func frameRate(hertz: Double, option: String) throws(ScenarioError) -> FrameRate {
        guard hertz.isFinite, refreshRange.contains(hertz) else {
            throw ScenarioError("\(option) \(hertz) is out of range: use a number of hertz in 10...500")
        }
        let ntscWhole = (hertz * 1.001).rounded()
        if hertz != hertz.rounded(), abs(ntscWhole * 1000 / 1001 - hertz) < 0.005 {
            return FrameRate(numerator: Int64(ntscWhole) * 1000, denominator: 1001)
        }
        do {
            return try FrameRate(validating: hertz)
        } catch {
            throw ScenarioError("\(option) \(hertz): \(error)")
        }
    }

    /// The duration of a number of milliseconds, from zero to `maximum`, to the nanosecond.
    ///
    /// - Parameters:
    ///   - milliseconds: The duration in milliseconds.
    ///   - option: The option's name, for the error.
    ///   - maximum: The longest duration accepted.
    /// - Throws: ``ScenarioError`` for NaN, infinite, negative or too long durations.
    package static func duration(milliseconds: Double, option: String, upTo maximum: Duration) throws(ScenarioError)
        -> Duration
    {
        let maximumMilliseconds = Double(maximum.wholeNanoseconds) / 1e6
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= maximumMilliseconds else {
            throw ScenarioError(
                "\(option) \(milliseconds) is out of range: use a number of milliseconds in "
                    + "0...\(_NumberText.short(maximumMilliseconds, digits: 3))")
        }
        return .nanoseconds(Int64((milliseconds * 1e6).rounded()))
    }

    /// The frames of `--hide FROM-TO`: two whole numbers, `1 <= FROM < TO <= frames`.
    ///
    /// - Parameters:
    ///   - text: The option's value, such as `"200-300"`.
    ///   - frames: The frames of the run.
    /// - Throws: ``ScenarioError`` for anything else.
    package static func hiddenFrames(parsing text: String, frames: Int) throws(ScenarioError) -> ClosedRange<Int64> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = wholeNumber(parts[0]), let to = wholeNumber(parts[1]) else {
            throw ScenarioError("--hide \"\(text)\" is not FROM-TO: use two frame numbers, such as 200-300")
        }
        guard from >= 1 && from < to && to <= Int64(frames) else {
            throw ScenarioError(
                "--hide \(text) is not a range within the run: use FROM-TO with 1 <= FROM < TO <= \(frames)")
        }
        return from...to
    }

    /// The value of a string of ASCII digits (at most 9 of them), or `nil`.
    private static func wholeNumber(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }
}
