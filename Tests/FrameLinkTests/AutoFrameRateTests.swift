import Testing

@testable import FrameLink

/// The automatic frame rate's state machine on its own: what each run of frame costs does.
@Suite("_AutoFrameRate: halve over budget, restore well under it")
struct AutoFrameRateTests {
    static let budget: Int64 = 16_000_000

    /// Feeds `costs` (in hundredths of the budget) and returns the actions, in order, with the
    /// frame each came at (0-based).
    func actions(_ costs: [Int64], from start: _AutoFrameRate = _AutoFrameRate()) -> [(Int, _AutoFrameRate.Action)] {
        var machine = start
        var result: [(Int, _AutoFrameRate.Action)] = []
        for (index, percent) in costs.enumerated() {
            let action = machine.noteFrameCost(Self.budget * percent / 100, budget: Self.budget)
            if action != .none { result.append((index, action)) }
        }
        return result
    }

    @Test(
        "halving needs ten frames whose mean is over 95 % of the budget",
        arguments: [
            (Array(repeating: Int64(96), count: 10), [9]), (Array(repeating: Int64(95), count: 40), []),
            (Array(repeating: Int64(96), count: 9), []), ([Int64](repeating: 50, count: 9) + [1_000], [9]),
            (Array(repeating: Int64(200), count: 25), [9]),
        ] as [([Int64], [Int])])
    func halving(costs: [Int64], halvedAt: [Int]) {
        let found = actions(costs)
        #expect(found.map(\.0) == halvedAt)
        #expect(found.allSatisfy { $0.1 == .halve })
    }

    @Test("once halved, thirty frames under 70 % restore the full rate; 70 % or more keep it halved")
    func restoring() {
        var halved = _AutoFrameRate()
        for _ in 0..<10 { _ = halved.noteFrameCost(Self.budget, budget: Self.budget) }
        #expect(halved.state == .halved(cost: Self.budget, budget: Self.budget))
        #expect(actions(Array(repeating: 69, count: 30), from: halved).map(\.0) == [29])
        #expect(actions(Array(repeating: 70, count: 200), from: halved).isEmpty)
        #expect(actions(Array(repeating: 69, count: 29), from: halved).isEmpty)
    }

    @Test("turning it off restores the full rate once; off at the full rate does nothing")
    func turningOff() {
        var machine = _AutoFrameRate()
        #expect(machine.turnOff() == .none)
        for _ in 0..<10 { _ = machine.noteFrameCost(Self.budget * 2, budget: Self.budget) }
        #expect(machine.isHalved)
        #expect(machine.turnOff() == .restore)
        #expect(!machine.isHalved)
        #expect(machine.turnOff() == .none)
    }
}
