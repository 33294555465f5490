/// A CPU load that a pacer runs under: a number of busy-loop processes at normal priority.
struct Load: Sendable {
    /// How many busy-loop processes run.
    var busyProcesses: Int

    /// The load as a table heading says it.
    var title: String {
        switch busyProcesses {
        case 0: "quiet machine"
        case 1: "one busy-loop process (one core busy)"
        default: "\(busyProcesses) busy-loop processes (every core of a 2-core machine busy)"
        }
    }
}
