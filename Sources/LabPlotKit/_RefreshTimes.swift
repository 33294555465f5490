import FrameLink

/// The times of a display's refreshes, in order, searched by time.
struct _RefreshTimes {
    /// The refresh times, earliest first.
    let times: [FrameInstant]

    /// The last refresh at or before `instant`, if any.
    ///
    /// - Parameter instant: A time on the lab's clock.
    func last(atOrBefore instant: FrameInstant) -> FrameInstant? {
        let index = firstIndex(after: instant)
        return index > 0 ? times[index - 1] : nil
    }

    /// The first refresh after `instant`, if the run got that far.
    ///
    /// - Parameter instant: A time on the lab's clock.
    func first(after instant: FrameInstant) -> FrameInstant? {
        let index = firstIndex(after: instant)
        return index < times.count ? times[index] : nil
    }

    /// The index of the first refresh after `instant` (the count if there is none), by bisection.
    private func firstIndex(after instant: FrameInstant) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
