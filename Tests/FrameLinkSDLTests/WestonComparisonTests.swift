import Testing

/// The Weston check's own judge, on records made up here: it passes what agrees with the
/// compositor and fails each kind of disagreement.
@Suite struct WestonComparisonTests {
    /// A timeline of five repaints 16 ms apart starting at 1 s; `showing` says which showed the window.
    func timeline(showing: [Bool]) throws -> WestonTimeline {
        var lines = [
            #"{ "id":1, "type":"weston_surface", "desc":"top-level window 'Game' of game" }"#,
            #"{ "id":2, "type":"weston_output", "name":"screen0" }"#,
            #"{ "T":[0, 500000000], "N":"core_repaint_req", "wo":2 }"#,
        ]
        for (index, shows) in showing.enumerated() {
            let time = 1_000_000_000 + index * 16_000_000
            lines.append(#"{ "T":[1, \#(index * 16_000_000)], "N":"core_commit_damage", "ws":1 }"#)
            lines.append(#"{ "T":[1, \#(index * 16_000_000 + 1)], "N":"core_repaint_begin", "wo":2 }"#)
            if shows {
                lines.append(#"{ "T":[1, \#(index * 16_000_000 + 2)], "N":"core_flush_damage", "ws":1, "wo":2 }"#)
            }
            lines.append(
                #"{ "T":[1, \#(index * 16_000_000 + 5)], "N":"core_repaint_finished", "wo":2, "vblank_monotonic":[\#(time / 1_000_000_000), \#(time % 1_000_000_000)] }"#
            )
        }
        return try WestonTimeline(jsonLines: lines.joined(separator: "\n"), window: "'Game'")
    }

    func log(_ rows: [String]) throws -> PresentationLogRows {
        try PresentationLogRows(
            csv: (["frame,outcome,compositor_ns,shown_ns,refresh_ns,sequence,missed_refreshes,flags"] + rows)
                .joined(separator: "\n"))
    }

    @Test func aLogThatAgreesWithTheCompositorPasses() throws {
        let record = try timeline(showing: [true, true, false, true, true])
        let frames = try log([
            "1,shown,0,1000000100,,,,0", "2,shown,0,1016000000,,,0,0", "3,shown,0,1048000000,,,1,0",
            "4,discarded,,,,,,0", "5,shown,0,1064000000,,,,0", "6,unanswered,,,,,,0",
        ])
        let verdict = WestonComparison(log: frames, timeline: record, tolerance: 50_000)
        #expect(verdict.failures.isEmpty, "\(verdict.failures)")
        #expect(verdict.judgedFrames == 4)
        #expect(verdict.missedRefreshesCompared == 2)
        #expect(verdict.compositorMissedRefreshes == 1)
    }

    @Test func eachDisagreementFails() throws {
        let record = try timeline(showing: [true, true, false, true, true])
        let cases: [(rows: [String], failure: String)] = [
            (["1,shown,0,1000100000,,,,0"], "no repaint of the compositor then"),
            (["1,shown,0,1000000000,,,,0", "2,shown,0,1032000000,,,,0"], "showed nothing new of the window"),
            (["1,shown,0,1000000000,,,,0", "2,shown,0,1048000000,,,,0"], "that FrameLink did not report"),
            (
                ["1,shown,0,1016000000,,,,0", "2,shown,0,1048000000,,,0,0"],
                "counts 0 missed refreshes, the compositor 1"
            ),
            (["1,shown,0,1000000000,,,,0", "3,shown,0,1016000000,,,,0"], "from frame 1 to 3"),
            (["1,unanswered,,,,,,0", "2,shown,0,1016000000,,,,0"], "unanswered but later frames were answered"),
        ]
        for (rows, failure) in cases {
            let verdict = WestonComparison(log: try log(rows), timeline: record, tolerance: 50_000)
            #expect(verdict.failures.contains { $0.contains(failure) }, "\(rows): \(verdict.failures)")
        }
    }
}
