/// Whether the host asks the compositor for feedback on its next present: a state machine, so that
/// a compositor that stops answering (an occluded window) is noticed once, the pacing goes back to
/// its own estimate, and asking resumes once every frame waiting has been answered.
struct _FeedbackRequests {
    /// How many frames may wait for their feedback before the compositor counts as having stopped
    /// answering: 64, about a second at 60 Hz, far beyond the two or three frames a compositor
    /// keeps in flight (and the C binding's limit, `CFrameLinkWayland_maximumPending`).
    static let unansweredFrameLimit = 64

    enum State: Equatable {
        /// Feedback is asked for every present, and shown times go to the pacing.
        case asking
        /// The compositor stopped answering: nothing is asked, and late answers do not go to the
        /// pacing, until every frame waiting is answered.
        case stopped
    }

    /// What the host does before a present.
    enum Action: Equatable {
        /// Ask for feedback on this present.
        case ask
        /// Ask again, and say that feedback is back.
        case resumeAndAsk
        /// Ask nothing.
        case skip
        /// Ask nothing, tell the pacing that feedback stopped, and say so.
        case stop(unansweredFrames: Int)
    }

    /// How many shown times in a row the pacing may refuse before the compositor's times count as
    /// untrue (a clock that is off, a compositor that makes times up): 64, as many as may wait
    /// unanswered. A compositor whose times are true sees a refusal only now and then (a report
    /// that arrives in an order the pacing does not take), never 64 in a row.
    static let refusedReportLimit = 64

    private(set) var state = State.asking

    /// Shown times the pacing refused in a row.
    private(set) var refusedInARow = 0

    /// Notes whether the pacing took a shown time; true when ``refusedReportLimit`` were refused in
    /// a row: the host then stops asking for good and says why.
    mutating func pacingJudged(accepted: Bool) -> Bool {
        refusedInARow = accepted ? 0 : refusedInARow + 1
        return refusedInARow == Self.refusedReportLimit
    }

    /// Whether answers go to the pacing now.
    var forwardsToPacing: Bool { state == .asking }

    /// Decides for the present about to be made, with `unansweredFrames` waiting for feedback.
    mutating func presentWillBegin(unansweredFrames: Int) -> Action {
        switch state {
        case .asking where unansweredFrames >= Self.unansweredFrameLimit:
            state = .stopped
            return .stop(unansweredFrames: unansweredFrames)
        case .asking:
            return .ask
        case .stopped where unansweredFrames == 0:
            state = .asking
            return .resumeAndAsk
        case .stopped:
            return .skip
        }
    }
}
