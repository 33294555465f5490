/// A value passing through a list of key values at given times — `CAKeyframeAnimation`, with its
/// linear, discrete, paced and smooth (Catmull-Rom) modes and a timing curve per segment.
///
/// Key times are fractions of ``duration`` in 0...1, one per value, ascending; without them the
/// values are spaced evenly. Segment `i` runs from `values[i]` to `values[i + 1]`, eased by
/// `curves[i]` (or by a single curve for every segment, or linearly with none).
///
/// ```swift
/// let shake = Keyframes(values: [0.0, -10, 10, -6, 6, 0], duration: 0.4)
/// let path = Keyframes(
///     values: [SIMD2<Double>(0, 0), SIMD2(100, 50), SIMD2(200, 0)], mode: .smooth, duration: 1.5)
/// let blink = Keyframes(values: [1.0, 0, 1], keyTimes: [0, 0.5, 1], mode: .discrete, duration: 0.5)
/// ```
public struct Keyframes<Value: Interpolatable>: Animation {
    /// How a keyframe animation moves between its values (`CAAnimationCalculationMode`).
    public enum Mode: Sendable, Hashable {
        /// Straight from each value to the next, eased by the segment's curve.
        case linear
        /// Jumps: `values[i]` is held from `keyTimes[i]` until the next key time.
        case discrete
        /// Constant speed along the whole path: key times follow the distances between values, and
        /// key times and curves you pass are ignored (as Core Animation's paced mode does).
        case paced
        /// A smooth curve through every value (a Catmull-Rom spline over the key times), eased by
        /// the segment's curve.
        case smooth
    }

    /// The key values, in order.
    public let values: [Value]
    /// The time of each value as a fraction of ``duration`` (computed when evenly spaced or paced).
    public let keyTimes: [Double]
    /// The timing curve of each segment (one fewer than the values).
    public let curves: [TimingCurve]
    /// How the value moves between key values.
    public let mode: Mode
    /// The seconds from the first key time to the last.
    public let duration: Double
    private let tangents: [Value]

    /// Creates a keyframe animation.
    ///
    /// - Parameters:
    ///   - values: The key values; at least one.
    ///   - keyTimes: One time per value, each a fraction of `duration` in 0...1, ascending (equal
    ///     neighbours make a jump); `nil` spaces the values evenly.
    ///   - curves: No curve (linear segments), one curve for every segment, or one per segment
    ///     (`values.count − 1`).
    ///   - mode: How the value moves between key values (``Mode/linear`` by default).
    ///   - duration: The seconds the whole path takes.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, for no values or mismatched counts;
    ///   `.invalidInterval` for a bad duration or key times that are outside 0...1, NaN, or not
    ///   ascending; `.invalidValue` for a NaN or infinite value.
    public init(
        values: [Value], keyTimes: [Double]? = nil, curves: [TimingCurve] = [], mode: Mode = .linear,
        duration: Double
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try Keyframes(validatingValues: values, keyTimes: keyTimes, curves: curves, mode: mode, duration: duration)
        }
    }

    /// Creates a keyframe animation from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidCount(_:)`` for no values or mismatched counts;
    ///   ``FrameLinkError/invalidInterval(_:)`` for a bad duration or key times that are outside
    ///   0...1, NaN, or not ascending; ``FrameLinkError/invalidValue(_:)`` for a NaN or infinite value.
    public init(
        validatingValues values: [Value], keyTimes: [Double]? = nil, curves: [TimingCurve] = [],
        mode: Mode = .linear, duration: Double
    ) throws(FrameLinkError) {
        guard !values.isEmpty else { throw .invalidCount("keyframes need at least one value") }
        guard duration.isFinite, duration >= 0 else {
            throw .invalidInterval("keyframes duration of \(duration) s: must be finite and zero or more")
        }
        for (index, value) in values.enumerated() where !value.isFinite {
            throw .invalidValue("keyframe value \(index) is \(value): values must be finite (no NaN or infinity)")
        }
        if let keyTimes {
            guard keyTimes.count == values.count else {
                throw .invalidCount(
                    "\(keyTimes.count) key times for \(values.count) values: pass one key time per value")
            }
            for (index, time) in keyTimes.enumerated() {
                guard time >= 0, time <= 1 else {
                    throw .invalidInterval("key time \(index) is \(time): key times are fractions in 0...1")
                }
                if index > 0, time < keyTimes[index - 1] {
                    throw .invalidInterval(
                        "key times must ascend: key time \(index) (\(time)) comes before key time \(index - 1) (\(keyTimes[index - 1]))"
                    )
                }
            }
        }
        let segments = values.count - 1
        guard curves.count <= 1 || curves.count == segments else {
            throw .invalidCount(
                "\(curves.count) curves for \(segments) segments: pass none, one for all, or one per segment")
        }
        self.init(unchecked: values, keyTimes: keyTimes, curves: curves, mode: mode, duration: duration)
    }

    private init(unchecked values: [Value], keyTimes: [Double]?, curves: [TimingCurve], mode: Mode, duration: Double) {
        let count = values.count
        let segments = max(count - 1, 0)
        var times: [Double]
        if mode == .paced {
            var distances = [0.0]
            var total = 0.0
            for index in 1..<max(count, 1) {
                total += (values[index] - values[index - 1]).magnitudeSquared.squareRoot()
                distances.append(total)
            }
            times = total > 0 ? distances.map { $0 / total } : Self.evenTimes(count)
        } else {
            times = keyTimes ?? Self.evenTimes(count)
        }
        if count == 1 { times = [0] }
        self.values = values
        self.keyTimes = times
        self.mode = mode
        self.duration = duration
        if mode == .paced || curves.isEmpty {
            self.curves = Array(repeating: .linear, count: segments)
        } else if curves.count == 1 {
            self.curves = Array(repeating: curves[0], count: segments)
        } else {
            self.curves = curves
        }
        var tangents: [Value] = []
        if mode == .smooth && count > 1 {
            tangents.reserveCapacity(count)
            for index in 0..<count {
                let previous = max(index - 1, 0)
                let next = min(index + 1, count - 1)
                let span = times[next] - times[previous]
                tangents.append(span > 0 ? (values[next] - values[previous]).scaled(by: 1 / span) : .zero)
            }
        }
        self.tangents = tangents
    }

    private static func evenTimes(_ count: Int) -> [Double] {
        count > 1 ? (0..<count).map { Double($0) / Double(count - 1) } : [0]
    }

    /// The value at `time` seconds after the start.
    public func value(at time: Double) -> Value {
        let count = values.count
        let progress = duration > 0 ? time / duration : (time < 0 ? 0 : 1)
        guard count > 1, progress > keyTimes[0] else { return values[0] }
        guard progress < keyTimes[count - 1] else { return values[count - 1] }
        // The last segment whose start is at or before the progress.
        var low = 0
        var high = count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if keyTimes[middle] <= progress { low = middle } else { high = middle }
        }
        let index = low
        if mode == .discrete { return values[index] }
        let span = keyTimes[index + 1] - keyTimes[index]
        guard span > 0 else { return values[index + 1] }
        let fraction = curves[index].value(at: (progress - keyTimes[index]) / span)
        if mode != .smooth {
            return values[index].interpolated(to: values[index + 1], fraction: fraction)
        }
        // Cubic Hermite segment with Catmull-Rom tangents (in value per unit of normalized time).
        let s = fraction
        let s2 = s * s
        let s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1
        let h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2
        let h11 = s3 - s2
        return values[index].scaled(by: h00) + tangents[index].scaled(by: h10 * span)
            + values[index + 1].scaled(by: h01) + tangents[index + 1].scaled(by: h11 * span)
    }

    /// The same keyframes with the first value replaced by `value`, so the path starts where the
    /// replaced animation was.
    public func retargeted(from value: Value, velocity: Value) -> Keyframes {
        var values = self.values
        values[0] = value
        let explicitTimes: [Double]? = mode == .paced ? nil : keyTimes
        return Keyframes(unchecked: values, keyTimes: explicitTimes, curves: curves, mode: mode, duration: duration)
    }
}
