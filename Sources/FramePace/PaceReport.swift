import Foundation

/// The table `make pace` prints for one load, and whether FrameLink met its targets there.
enum PaceReport {
    /// One pacer's line.
    struct Row {
        /// The pacer.
        var pacer: Pacer
        /// What it measured.
        var tally: PaceTally
        /// How FrameLink's waits were scheduled (nil for the probe).
        var scheduling: String?
        /// Why the pacer could not run (its grant was not to be had), or nil.
        var unavailableReason: String?
    }

    /// FrameLink's CPU may be at most this share of the hybrid probe's.
    static let cpuTarget = 0.8

    /// Prints the table for `rows` under `load`, then the verdict on the targets.
    static func print(_ rows: [Row], load: Load, period: Double) {
        Swift.print("\nUnder load: \(load.title)")
        let thresholds = PaceTally.thresholds.map { String(format: ">%.2g ms", $0) }
        Swift.print(
            Column.pad("pacer", 26) + thresholds.map { Column.pad($0, 9, right: true) }.joined()
                + Column.pad("p50", 8, right: true) + Column.pad("p99", 8, right: true)
                + Column.pad("max", 8, right: true)
                + Column.pad("CPU %", 8, right: true) + "  intervals")
        for row in rows {
            if let reason = row.unavailableReason {
                Swift.print(Column.pad(row.pacer.title, 26) + "  not measured: \(reason)")
                continue
            }
            let misses = row.tally.missesPer10000(period: period)
            let errors = row.tally.errorPercentiles(period: period)
            Swift.print(
                Column.pad(row.pacer.title, 26)
                    + misses.map { Column.pad(String(format: "%.1f", $0), 9, right: true) }.joined()
                    + Column.pad(String(format: "%.3f", errors.p50), 8, right: true)
                    + Column.pad(String(format: "%.3f", errors.p99), 8, right: true)
                    + Column.pad(String(format: "%.3f", errors.max), 8, right: true)
                    + Column.pad(String(format: "%.1f", row.tally.cpuPercent), 8, right: true)
                    + "  \(row.tally.intervals.count)" + (row.scheduling.map { "  (\($0))" } ?? ""))
        }
        guard let ours = rows.first(where: { $0.pacer == .frameLink }) else { return }
        var verdicts: [String] = []
        for probe in [Pacer.hybrid, .sdlDelay] {
            guard let theirs = rows.first(where: { $0.pacer == probe }) else { continue }
            let worse = zip(
                PaceTally.thresholds,
                zip(ours.tally.missesPer10000(period: period), theirs.tally.missesPer10000(period: period))
            )
            .filter { $0.1.0 > $0.1.1 }.map { String(format: ">%.2g ms", $0.0) }
            verdicts.append(
                worse.isEmpty
                    ? "FrameLink ≤ \(probe.title) at every threshold"
                    : "FrameLink misses more than \(probe.title) at \(worse.joined(separator: ", "))")
        }
        if let hybrid = rows.first(where: { $0.pacer == .hybrid }), hybrid.tally.cpuPercent > 0 {
            let ratio = ours.tally.cpuPercent / hybrid.tally.cpuPercent
            verdicts.append(
                String(format: "CPU %.2f× the hybrid probe's (target ≤ %.1f×)", ratio, cpuTarget)
                    + (ratio <= cpuTarget ? "" : ": over"))
        }
        if !verdicts.isEmpty { Swift.print("Targets: " + verdicts.joined(separator: "; ")) }
    }
}
