/// The slope of the low-quantile regression line through a window of present returns: the line
/// with a twentieth of the returns below it (``quantile``) that leaves the least weighted distance
/// to the returns (Koenker and Bassett's check loss). The vsync grid's lower hull rests on two
/// returns; where delays often come close to their least value (spread evenly, exponential) those
/// two pin the line within a few microseconds, but where they seldom do (a log-normal delay:
/// a scheduler's wake-up is never instant) the two lowest are stray values of a thin tail, and the
/// line through them tilts by tens of microseconds at the window's ends. The quantile line rests on
/// every return near the bottom of the distribution instead, so it does not depend on two of them.
///
/// The grid keeps the hull's slope unless the quantile line lies outside what the hull's own stated
/// error allows (``slope(times:numbers:hullSlope:margin:reach:)``): then the returns are not what
/// the hull's error model describes, and the quantile line is the better estimate.
struct _LowQuantileLine {
    /// The share of returns the line keeps below it: 5 %. Low enough to sit near the delay's least
    /// value, high enough that the delays' density there is not zero for a delay whose density
    /// vanishes at its floor (the 5th percentile of a log-normal delay with a 99th percentile
    /// 2.5 times its median lies at 0.55 of the median, where its density is about a third of its
    /// peak), and that a window of ``leastReturns`` has two returns below it.
    static let quantile = 0.05
    /// Returns the window needs before a quantile line is fitted: 48 (two below the 5 % quantile;
    /// fewer leave the quantile resting on one return, as the hull does).
    static let leastReturns = 48
    /// How exactly the slope is found: until the line moves by under 1 µs at the window's ends
    /// (a hundredth of what a timestamp may be off).
    static let resolution = 1_000.0

    /// Scratch storage for the residuals, allocated once (the frame path allocates nothing).
    private var residuals: [Double] = []

    init(capacity: Int) {
        residuals.reserveCapacity(capacity)
    }

    /// The slope of the quantile line when it lies outside `hullSlope ± margin` (nil when inside:
    /// the two agree within the hull's stated error), searched no further than `reach` from the
    /// hull's. Nil too when the search ends at the reach (no minimum within it), or when the
    /// returns about the quantile lie further apart than the margin allows
    /// (``quantileSpread(times:numbers:slope:)``: the quantile is not resolved). `times` and
    /// `numbers` are the window's returns and their vsync numbers (at least ``leastReturns``).
    mutating func slope(times: [Int64], numbers: [Int64], hullSlope: Double, margin: Double, reach: Double)
        -> Double?
    {
        precondition(times.count == numbers.count && times.count >= 2, "a window of returns fits a line")
        let span = Double(max(1, numbers[numbers.count - 1] - numbers[0]))
        guard reach > margin else { return nil }
        var range: ClosedRange<Double>
        let edge: Double
        if descent(times: times, numbers: numbers, slope: hullSlope - margin) > 0 {
            range = (hullSlope - reach)...(hullSlope - margin)
            edge = range.lowerBound
        } else if descent(times: times, numbers: numbers, slope: hullSlope + margin) < 0 {
            range = (hullSlope + margin)...(hullSlope + reach)
            edge = range.upperBound
        } else {
            return nil
        }
        // The check loss, minimized over the line's height, is convex in the slope: bisect on the
        // sign of its derivative.
        while (range.upperBound - range.lowerBound) * span > Self.resolution {
            let middle = (range.lowerBound + range.upperBound) / 2
            range =
                descent(times: times, numbers: numbers, slope: middle) < 0
                ? middle...range.upperBound : range.lowerBound...middle
        }
        // A slope at the edge of the reach is no minimum found, only where the search stopped
        // (the check loss still falling there): no line is resolved within the reach.
        guard !range.contains(edge) else { return nil }
        let slope = (range.lowerBound + range.upperBound) / 2
        // Taken only where the returns about the quantile pin it at least as well as the hull's
        // statement pins the hull.
        guard quantileSpread(times: times, numbers: numbers, slope: slope) <= margin * span / 2 else { return nil }
        return slope
    }

    /// How widely the returns about the quantile lie, from the line of `slope`: the distance
    /// between the returns ``quantileNeighbourhood(count:)`` ranks below and above the quantile's.
    /// Where delays have a gap about the quantile (a few prompt returns among late ones, the
    /// twentieth lowest in the gap between the modes: an independent review found the line
    /// tilted by up to a millisecond), the spread is the gap; where they have a thin but smooth
    /// tail (log-normal), tens of microseconds.
    mutating func quantileSpread(times: [Int64], numbers: [Int64], slope: Double) -> Double {
        let count = times.count
        residuals.removeAll(keepingCapacity: true)
        for index in 0..<count {
            residuals.append(Double(times[index] - times[0]) - slope * Double(numbers[index] - numbers[0]))
        }
        let rank = min(count - 1, Int(Self.quantile * Double(count)))
        let neighbourhood = Self.quantileNeighbourhood(count: count)
        let above = Self.select(&residuals, min(count - 1, rank + neighbourhood))
        let below = Self.select(&residuals, max(0, rank - neighbourhood))
        return above - below
    }

    /// How many ranks either side of the quantile's ``quantileSpread(times:numbers:slope:)``
    /// looks: the square root of the quantile's rank (its order statistic's standard deviation,
    /// in ranks), at least one: 5 for 512 returns, 1 for 48.
    static func quantileNeighbourhood(count: Int) -> Int {
        max(1, Int(Double(Int(quantile * Double(count))).squareRoot()))
    }

    /// The derivative of the check loss, at its best height, with respect to the slope: negative
    /// when a steeper line fits better.
    mutating func descent(times: [Int64], numbers: [Int64], slope: Double) -> Double {
        let count = times.count
        func x(_ index: Int) -> Double { Double(numbers[index] - numbers[0]) }
        func y(_ index: Int) -> Double { Double(times[index] - times[0]) }
        residuals.removeAll(keepingCapacity: true)
        var meanX = 0.0
        for index in 0..<count {
            residuals.append(y(index) - slope * x(index))
            meanX += x(index)
        }
        meanX /= Double(count)
        let height = Self.select(&residuals, min(count - 1, Int(Self.quantile * Double(count))))
        var derivative = 0.0
        for index in 0..<count {
            let residual = y(index) - slope * x(index) - height
            // A return above the line pulls it up by the quantile, one below pulls it down by the
            // rest (returns on it are free to go either way).
            if residual > 0 {
                derivative -= Self.quantile * (x(index) - meanX)
            } else if residual < 0 {
                derivative += (1 - Self.quantile) * (x(index) - meanX)
            }
        }
        return derivative
    }

    /// The `k`-th smallest of `values` (Hoare's selection; reorders them).
    static func select(_ values: inout [Double], _ k: Int) -> Double {
        var comparisons = 0
        return select(&values, k, comparisons: &comparisons)
    }

    /// The `k`-th smallest of `values`, adding the comparisons made to `comparisons`.
    ///
    /// Each pass partitions around the median of the values at the range's quarter points (a
    /// window whose delays rise then fall, or fall then rise, put the range's middle value at an
    /// end of its order: Hoare's middle pivot then took about 130 comparisons per value for 512);
    /// after ``mostSelectionPasses(count:)`` passes the range is heap-sorted, so that no order of
    /// values costs more than about 2 n log₂ n on top.
    static func select(_ values: inout [Double], _ k: Int, comparisons: inout Int) -> Double {
        precondition(k >= 0 && k < values.count, "select an element that exists")
        var left = 0
        var right = values.count - 1
        var passesLeft = mostSelectionPasses(count: values.count)
        while left < right {
            guard passesLeft > 0 else {
                heapSort(&values, left...right, comparisons: &comparisons)
                break
            }
            passesLeft -= 1
            let span = right - left
            let (a, b, c) = (values[left + span / 4], values[left + span / 2], values[left + 3 * span / 4])
            let pivot = max(min(a, b), min(max(a, b), c))
            comparisons += 3
            var i = left
            var j = right
            while i <= j {
                while values[i] < pivot {
                    i += 1
                    comparisons += 1
                }
                while values[j] > pivot {
                    j -= 1
                    comparisons += 1
                }
                comparisons += 2
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                right = j
            } else if k >= i {
                left = i
            } else {
                break
            }
        }
        return values[k]
    }

    /// The partitioning passes ``select(_:_:comparisons:)`` makes before it heap-sorts what is
    /// left: twice the passes that halving `count` values down to one takes (2 ⌈log₂ count⌉ + 2),
    /// so ordinary orders never reach it.
    static func mostSelectionPasses(count: Int) -> Int {
        2 * (Int.bitWidth - max(1, count).leadingZeroBitCount) + 2
    }

    /// Sorts `values[range]` in place by heap sort (no allocation), counting its comparisons.
    static func heapSort(_ values: inout [Double], _ range: ClosedRange<Int>, comparisons: inout Int) {
        let base = range.lowerBound
        let count = range.count
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end {
                    comparisons += 1
                    if values[base + child] < values[base + child + 1] { child += 1 }
                }
                comparisons += 1
                guard values[base + root] < values[base + child] else { return }
                values.swapAt(base + root, base + child)
                root = child
            }
        }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            values.swapAt(base, base + end)
            siftDown(0, end)
        }
    }
}
