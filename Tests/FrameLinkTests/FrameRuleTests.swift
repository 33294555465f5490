import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// The rule that paces the frame after a present, chosen from what the source knows: each rule
/// where its condition holds, and the order of precedence where two hold at once.
@Suite("_FrameRule: which rule paces the next frame")
struct FrameRuleTests {
    typealias Facts = _FrameRule.Facts

    /// One row: what is known, and the rule expected.
    struct Row: Sendable, CustomTestStringConvertible {
        var what: String
        var facts: Facts
        var rule: _FrameRule
        var testDescription: String { "\(what) → \(rule)" }
    }

    static let rows: [Row] = [
        Row(
            what: "a hidden window, whatever else holds",
            facts: Facts(windowHidden: true, lateOnVariableRefresh: true, mode: .vsync, blocked: true),
            rule: .hiddenWindow),
        Row(
            what: "a late frame on a variable-refresh display, before a paced range",
            facts: Facts(lateOnVariableRefresh: true, pacesRequestedRateDirectly: true, mode: .vsync),
            rule: .lateOnVariableRefresh),
        Row(
            what: "a requested rate on a variable-refresh display, before the phase probe",
            facts: Facts(pacesRequestedRateDirectly: true, phaseProbeRuns: true), rule: .requestedRateOnVariableRefresh),
        Row(
            what: "a requested rate on a variable-refresh display under forced deadline pacing is plain deadline",
            facts: Facts(automatic: false, pacesRequestedRateDirectly: true), rule: .deadline),
        Row(
            what: "the phase probe, in deadline mode, even when the present blocked",
            facts: Facts(phaseProbeRuns: true, mode: .deadline, blocked: true), rule: .phaseProbe),
        Row(
            what: "a phase probe left over in vsync mode does not pace",
            facts: Facts(phaseProbeRuns: true, mode: .vsync),
            rule: .followVsync),
        Row(what: "pacing off", facts: Facts(automatic: false, mode: .unpaced, blocked: true), rule: .unpaced),
        Row(what: "vsync mode, blocked or not", facts: Facts(mode: .vsync), rule: .followVsync),
        Row(
            what: "measuring, and the present blocked", facts: Facts(mode: .deadline, blocked: true, isProbing: true),
            rule: .measuringBlockingPresent),
        Row(
            what: "measuring, a blocking present of an emulated vsync (no phase) is not followed",
            facts: Facts(mode: .deadline, blocked: true, keepsNoPhase: true), rule: .deadline),
        Row(
            what: "a blocking present faster than the display is not followed",
            facts: Facts(mode: .deadline, blocked: true, vsyncIsFasterThanDisplay: true), rule: .deadline),
        Row(
            what: "the first frames, presents returning at once: back to back",
            facts: Facts(mode: .deadline, isProbing: true), rule: .backToBack),
        Row(
            what: "forced deadline pacing never goes back to back",
            facts: Facts(automatic: false, mode: .deadline, isProbing: true), rule: .deadline),
        Row(
            what: "an emulated vsync held the frame past its deadline",
            facts: Facts(mode: .deadline, blocked: true, keepsNoPhase: true, returnedPastDeadline: true),
            rule: .heldPastDeadline),
        Row(
            what: "a vsync faster than the display held the frame past its deadline",
            facts: Facts(mode: .deadline, blocked: true, vsyncIsFasterThanDisplay: true, returnedPastDeadline: true),
            rule: .heldPastDeadline),
        Row(
            what: "forced deadline pacing, a present that blocked past the deadline",
            facts: Facts(automatic: false, mode: .deadline, blocked: true, returnedPastDeadline: true), rule: .deadline),
        Row(
            what: "a present past its deadline that did not block is a late frame: the deadline grid",
            facts: Facts(mode: .deadline, keepsNoPhase: true, returnedPastDeadline: true), rule: .deadline),
        Row(what: "deadline mode, nothing else", facts: Facts(mode: .deadline), rule: .deadline),
    ]

    @Test("each rule where its condition holds, first in order of precedence", arguments: rows)
    func chooses(row: Row) {
        #expect(_FrameRule.choose(row.facts) == row.rule)
    }

    @Test("every rule is chosen by some row above")
    func everyRuleIsReachable() {
        let chosen = Set(Self.rows.map(\.rule))
        for rule in _FrameRule.allCases { #expect(chosen.contains(rule), "\(rule) is never chosen") }
    }

    @Test("a source records the rule it paced by: vsync, a hidden window, vsync again once shown")
    @MainActor
    func sourceRecordsTheRule() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(2_000)), jitter: .uniform(upTo: .microseconds(200)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var rules: [Int64: _FrameRule] = [:]
        DisplayLink { link in
            rules[link.frameIndex] = source.pacer.frameRule
            source.isWindowHidden = (200..<260).contains(link.frameIndex)
            lab.work(for: .milliseconds(4))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 400)
        #expect(
            rules[2] == .measuringBlockingPresent, "double buffering blocks at once: the present paces while measured")
        #expect(rules[199] == .followVsync)
        #expect(rules[230] == .hiddenWindow)
        #expect(rules[399] == .followVsync)
    }
}
