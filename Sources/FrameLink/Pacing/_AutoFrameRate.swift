/// The automatic frame rate (like Android's Swappy): present on every 2nd vsync while frames run
/// over budget, and on every vsync again once they are comfortably under it. A state machine in
/// swift-nio's style: ``noteFrameCost(_:budget:)`` takes each frame's cost and says what to do.
struct _AutoFrameRate {
    /// The rate the source presents at.
    enum State: Equatable {
        /// Every vsync (or every frame of the rate asked for).
        case fullRate
        /// Every 2nd one, since the frames cost `cost` on average over the `budget` of the full rate.
        case halved(cost: Int64, budget: Int64)
    }

    /// What the source does after a frame's cost.
    enum Action: Equatable {
        /// Nothing changes.
        case none
        /// Present on every 2nd vsync from now on.
        case halve
        /// Present on every vsync again.
        case restore
    }

    /// Frames averaged before halving: 10, a sixth of a second at 60 Hz: one slow frame is a
    /// hitch, ten in a row is a workload.
    /// The factor by which a halved rate slows presents: 2 (every 2nd vsync, or deadline).
    static let halvingFactor = 2

    static let halvingFrames = 10
    /// The share of the budget the mean of ``halvingFrames`` must exceed to halve: 95 %, so frames
    /// that fit a period only with no margin (the next hiccup drops one) are halved too.
    static let halvingPercent: Int64 = 95
    /// Frames averaged before going back to the full rate: 30, three times ``halvingFrames``, so
    /// the rate does not flip back and forth on a workload near the budget.
    static let restoringFrames = 30
    /// The share of the full rate's budget the mean of ``restoringFrames`` must stay under to go
    /// back: 70 %, a margin that a frame's usual variation does not cross.
    static let restoringPercent: Int64 = 70

    private(set) var state = State.fullRate
    private var costs = _Ring(capacity: restoringFrames)

    /// Whether the rate is halved.
    var isHalved: Bool { state != .fullRate }

    /// Takes a frame's `cost` against the full rate's `budget` (both in nanoseconds).
    mutating func noteFrameCost(_ cost: Int64, budget: Int64) -> Action {
        costs.append(cost)
        switch state {
        case .fullRate:
            guard costs.count >= Self.halvingFrames else { return .none }
            let mean = costs.mean(last: Self.halvingFrames)
            guard mean * 100 > budget * Self.halvingPercent else { return .none }
            state = .halved(cost: mean, budget: budget)
            costs.removeAll()
            return .halve
        case .halved:
            guard costs.count >= Self.restoringFrames,
                costs.mean(last: Self.restoringFrames) * 100 < budget * Self.restoringPercent
            else { return .none }
            state = .fullRate
            costs.removeAll()
            return .restore
        }
    }

    /// Goes back to the full rate (automatic frame rate turned off).
    mutating func turnOff() -> Action {
        costs.removeAll()
        guard isHalved else { return .none }
        state = .fullRate
        return .restore
    }
}
