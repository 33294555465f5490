#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bound on a spring's distance from its target: a·e^(rate1·t) + b·e^(rate2·t), or
/// (a + b·t)·e^(rate1·t) when `linear` (critical damping).
struct _SpringEnvelope {
    let a: Double
    let b: Double
    let rate1: Double
    let rate2: Double
    let linear: Bool

    func callAsFunction(_ time: Double) -> Double {
        linear ? (a + b * time) * exp(rate1 * time) : a * exp(rate1 * time) + b * exp(rate2 * time)
    }

    /// Where the bound starts to decrease for good.
    var decreasingFrom: Double {
        linear && b > 0 ? max(0, -1 / rate1 - a / b) : 0
    }

    /// The first time from which the bound stays below `threshold`, to within 0.1 µs.
    func settlingTime(below threshold: Double) -> Double {
        let start = decreasingFrom
        var low: Double
        var high: Double
        if self(start) < threshold {
            guard start > 0 else { return 0 }
            (low, high) = (0, start)
        } else {
            low = start
            high = max(start, 0.001) * 2
            while self(high) >= threshold && high < 1e9 { high *= 2 }
        }
        while high - low > 1e-7 {
            let middle = (low + high) / 2
            if self(middle) >= threshold { low = middle } else { high = middle }
        }
        return high
    }
}
