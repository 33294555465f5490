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
    }

    let shape: Shape

    /// No delay: present returns exactly at the vsync.
    public static let none = PresentJitter(shape: .none)

    /// A delay spread evenly between zero and `maximum`.
    ///
    /// - Parameter maximum: The longest delay, from zero to 10 seconds.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `maximum` is negative or over 10 s.
    public static func uniform(upTo maximum: Duration) -> PresentJitter {
        PresentJitter(shape: .uniform(checked(maximum, at: 10_000_000_000, "uniform(upTo:)")))
    }

    /// A delay that is mostly short with a long tail (exponential with the given mean), as a busy
    /// compositor's.
    ///
    /// - Parameter mean: The mean delay, from zero to 0.5 seconds (the tail is cut at 20 means).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `mean` is negative or over 0.5 s.
    public static func exponential(mean: Duration) -> PresentJitter {
        PresentJitter(shape: .exponential(checked(mean, at: 500_000_000, "exponential(mean:)")))
    }

    /// The distribution, such as `"uniform 0–1.5 ms"`.
    public var description: String {
        switch shape {
        case .none: "no jitter"
        case .uniform(let maximum): "uniform 0–\(Milliseconds(maximum)) ms"
        case .exponential(let mean): "exponential, mean \(Milliseconds(mean)) ms"
        }
    }

    /// The mean delay in nanoseconds.
    var meanNanoseconds: Int64 {
        switch shape {
        case .none: 0
        case .uniform(let maximum): maximum / 2
        case .exponential(let mean): mean
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
            return Int64(min(-Double(mean) * log(1 - random.unit()), Double(mean) * 20).rounded())
        }
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
