import Foundation

/// How late a simulated present returns after the vsync that released it: the delay a compositor
/// or the scheduler adds, drawn from a seeded distribution, never negative.
///
/// A blocking present cannot return before the flip it waits for, so the delay is one-sided.
public struct PresentJitter: Sendable, Equatable, CustomStringConvertible {
    enum Shape: Sendable, Equatable {
        case none
        case uniform(Int64)
        case exponential(Int64)
        /// A log-normal delay, by its median and 99th percentile in nanoseconds.
        case lognormal(median: Int64, percentile99: Int64)
        /// Delays drawn uniformly from the given ones, in nanoseconds.
        case sampled([Int64])
    }

    let shape: Shape

    /// The longest delay a uniform distribution or a sampled one may hold: 10 s, far beyond any
    /// compositor's (a present that late is a hang, not jitter).
    static let longestDelayNanoseconds: Int64 = 10_000_000_000

    /// The longest mean, median or 99th percentile a long-tailed distribution may have: 0.5 s, so
    /// that even its capped tail stays within ``longestDelayNanoseconds``.
    static let longestTypicalDelayNanoseconds: Int64 = 500_000_000

    /// Where the exponential delay is cut, in means: 20 (a 1-in-500-million tail, e⁻²⁰), so that a
    /// present never hangs.
    static let exponentialCapInMeans: Double = 20

    /// Where the log-normal delay is cut, in 99th percentiles: 20 (so at most 10 s, and for a 99th
    /// percentile up to ten times the median, a tail of under 1 in 20 million), so that a present
    /// never hangs.
    static let lognormalCapInPercentile99s: Double = 20

    /// The standard normal distribution's 99th percentile, z₀.₉₉ = 2.326…: how many standard
    /// deviations of its logarithm a log-normal's 99th percentile lies above its median.
    static let normalPercentile99: Double = 2.326_347_874_040_841

    /// The most delays ``sampled(_:)`` takes: 100,000, a long measured run (about half an hour of
    /// frames at 60 Hz), still small in memory.
    static let mostSampledDelays = 100_000

    /// No delay: present returns exactly at the vsync.
    public static let none = PresentJitter(shape: .none)

    /// A delay spread evenly between zero and `maximum`.
    ///
    /// - Parameter maximum: The longest delay, from zero to 10 seconds.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `maximum` is negative or over 10 s.
    public static func uniform(upTo maximum: Duration) -> PresentJitter {
        PresentJitter(shape: .uniform(checked(maximum, at: longestDelayNanoseconds, "uniform(upTo:)")))
    }

    /// A delay that is mostly short with a long tail (exponential with the given mean), as a busy
    /// compositor's.
    ///
    /// - Parameter mean: The mean delay, from zero to 0.5 seconds (the tail is cut at 20 means).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `mean` is negative or over 0.5 s.
    public static func exponential(mean: Duration) -> PresentJitter {
        PresentJitter(shape: .exponential(checked(mean, at: longestTypicalDelayNanoseconds, "exponential(mean:)")))
    }

    /// A log-normal delay, given by its median and its 99th percentile: what a real wake-up looks
    /// like. The scheduler never wakes a thread instantly, so almost no delay is near zero (unlike
    /// ``uniform(upTo:)`` and ``exponential(mean:)``, whose most likely delay is none); most are
    /// near the median, and a few are much longer. A desktop compositor's might have a median of
    /// 0.25 ms and a 99th percentile of 0.8 ms.
    ///
    /// The logarithm of the delay is normal: its mean is ln(`median`) and its standard deviation
    /// ln(`percentile99` / `median`) / 2.326 (the standard normal's 99th percentile). The tail is
    /// cut at 20 times `percentile99`, so a present never hangs. A 99th percentile equal to the
    /// median gives that delay every time.
    ///
    /// - Parameters:
    ///   - median: The median delay: above zero, at most 0.5 seconds.
    ///   - percentile99: The delay 99 % of presents stay within: at least `median`, at most 0.5
    ///     seconds.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if
    ///   `median` is not above zero, `percentile99` is below `median`, or either is over 0.5 s.
    public static func lognormal(median: Duration, percentile99: Duration) -> PresentJitter {
        let what = "lognormal(median:percentile99:)"
        let medianNanoseconds = checked(median, at: longestTypicalDelayNanoseconds, what)
        let percentileNanoseconds = checked(percentile99, at: longestTypicalDelayNanoseconds, what)
        guard medianNanoseconds > 0 else {
            FrameLinkError.trap(
                .invalidInterval(
                    "PresentJitter.\(what): median \(median) must be above zero (a wake-up is never instant); "
                        + "use .none for no delay"))
        }
        guard percentileNanoseconds >= medianNanoseconds else {
            FrameLinkError.trap(
                .invalidInterval(
                    "PresentJitter.\(what): the 99th percentile \(percentile99) is below the median \(median); "
                        + "pass a 99th percentile at least as long as the median"))
        }
        return PresentJitter(shape: .lognormal(median: medianNanoseconds, percentile99: percentileNanoseconds))
    }

    /// A delay drawn from the ones you give: each present's delay is one of them, chosen uniformly
    /// (a value given twice is twice as likely). Use it to replay the distribution measured on a
    /// real machine, such as the delays between each vsync and the return of the present it
    /// released.
    ///
    /// - Parameter delays: The delays, each from zero to 10 seconds; 1 to 100,000 of them.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, if `delays` is
    ///   empty or holds more than 100,000 values; with a `FrameLinkError.invalidInterval` message if
    ///   one is negative or over 10 s.
    public static func sampled(_ delays: [Duration]) -> PresentJitter {
        guard !delays.isEmpty else {
            FrameLinkError.trap(.invalidCount("PresentJitter.sampled: no delays; pass at least one"))
        }
        guard delays.count <= mostSampledDelays else {
            FrameLinkError.trap(
                .invalidCount(
                    "PresentJitter.sampled: \(delays.count) delays; pass at most \(mostSampledDelays) "
                        + "(a sample of them draws the same)"))
        }
        return PresentJitter(shape: .sampled(delays.map { checked($0, at: longestDelayNanoseconds, "sampled") }))
    }

    /// The distribution, such as `"uniform 0–1.5 ms"`.
    public var description: String {
        switch shape {
        case .none: "no jitter"
        case .uniform(let maximum): "uniform 0–\(Milliseconds(maximum)) ms"
        case .exponential(let mean): "exponential, mean \(Milliseconds(mean)) ms"
        case .lognormal(let median, let percentile99):
            "log-normal, median \(Milliseconds(median)) ms, 99th percentile \(Milliseconds(percentile99)) ms"
        case .sampled(let delays): "sampled from \(delays.count) delays, mean \(Milliseconds(meanNanoseconds)) ms"
        }
    }

    /// The mean delay (of the distribution as drawn, with its tail cut where the lab cuts it).
    ///
    /// How fast a pacer can learn the vsync from present returns depends on it: the returns pin the
    /// vsync's phase within a given error only after a number of them that grows with the mean
    /// delay.
    public var mean: Duration { .nanoseconds(meanNanoseconds) }

    /// The mean delay in nanoseconds (of the capped distribution, for a log-normal one).
    var meanNanoseconds: Int64 {
        switch shape {
        case .none: 0
        case .uniform(let maximum): maximum / 2
        case .exponential(let mean): mean
        case .lognormal(let median, let percentile99): Self.cappedLognormalMean(median, percentile99)
        case .sampled(let delays):
            // Each delay is at most 10 s and there are at most 100,000: the sum fits easily.
            Int64((delays.reduce(Int128(0)) { $0 + Int128($1) } + Int128(delays.count / 2)) / Int128(delays.count))
        }
    }

    /// One delay in nanoseconds.
    func draw(_ random: inout _SplitMix64) -> Int64 {
        switch shape {
        case .none:
            return 0
        case .uniform(let maximum):
            return Int64((random.unit() * Double(maximum)).rounded())
        case .exponential(let mean):
            // Capped at 20 means (a 1-in-500-million tail): a present never hangs.
            return Int64(
                min(-Double(mean) * log(1 - random.unit()), Double(mean) * Self.exponentialCapInMeans).rounded())
        case .lognormal(let median, let percentile99):
            // A standard normal value (Box–Muller, from two uniform ones; 1 - unit() is never zero).
            let normal = sqrt(-2 * log(1 - random.unit())) * cos(2 * Double.pi * random.unit())
            let (mu, sigma) = Self.lognormalParameters(median, percentile99)
            let cap = Double(percentile99) * Self.lognormalCapInPercentile99s
            return Int64(min(exp(mu + sigma * normal), cap).rounded())
        case .sampled(let delays):
            return delays[Int(random.next(upperBound: UInt64(delays.count)))]
        }
    }

    /// The mean and standard deviation of the logarithm of a log-normal delay (in nanoseconds) with
    /// the given median and 99th percentile.
    private static func lognormalParameters(_ median: Int64, _ percentile99: Int64) -> (mu: Double, sigma: Double) {
        let mu = log(Double(median))
        return (mu, (log(Double(percentile99)) - mu) / normalPercentile99)
    }

    /// The mean of a log-normal delay cut at its cap c: E[min(X, c)] =
    /// e^(μ + σ²/2) Φ((ln c − μ − σ²) / σ) + c (1 − Φ((ln c − μ) / σ)).
    private static func cappedLognormalMean(_ median: Int64, _ percentile99: Int64) -> Int64 {
        let (mu, sigma) = lognormalParameters(median, percentile99)
        guard sigma > 0 else { return median }
        let cap = Double(percentile99) * lognormalCapInPercentile99s
        let logCap = log(cap)
        // Φ(x) = erfc(−x / √2) / 2.
        func normalCDF(_ x: Double) -> Double { erfc(-x / 2.0.squareRoot()) / 2 }
        let below = exp(mu + sigma * sigma / 2) * normalCDF((logCap - mu - sigma * sigma) / sigma)
        let above = cap * (1 - normalCDF((logCap - mu) / sigma))
        return Int64((below + above).rounded())
    }

    private static func checked(_ duration: Duration, at most: Int64, _ what: String) -> Int64 {
        let nanoseconds = duration.wholeNanoseconds
        guard nanoseconds >= 0 else {
            FrameLinkError.trap(
                .invalidInterval("PresentJitter.\(what): \(duration) is negative; a present cannot return early"))
        }
        guard nanoseconds <= most else {
            FrameLinkError.trap(
                .invalidInterval("PresentJitter.\(what): \(duration) is longer than \(Duration.nanoseconds(most))"))
        }
        return nanoseconds
    }
}
