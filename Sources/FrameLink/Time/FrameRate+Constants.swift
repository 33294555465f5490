extension FrameRate: ExpressibleByIntegerLiteral {
    /// Creates a rate of a whole number of frames per second written as a literal: `let rate:
    /// FrameRate = 50`, or `preferredFrameRate = 30`.
    ///
    /// A literal is a constant in the program, so a rate that is not positive is a programmer
    /// error: it stops the program with a message, as the standard library does. Rates that come
    /// from outside the program (a settings file, a command line) go through the throwing
    /// ``init(validating:)`` instead.
    ///
    /// - Parameter value: Frames per second, above zero.
    public init(integerLiteral value: Int64) {
        guard value > 0 else {
            FrameLinkError.trap(
                .invalidFrameRate(
                    "literal \(value): use a positive literal (30, 60, 144…); for a rate read at run time, "
                        + "use the throwing FrameRate(validating:)"))
        }
        self.init(unchecked: value)
    }

    /// Exactly 24 frames per second (film).
    public static let hz24: FrameRate = 24
    /// Exactly 48 frames per second.
    public static let hz48: FrameRate = 48
    /// Exactly 50 frames per second (PAL television).
    public static let hz50: FrameRate = 50
    /// NTSC's 59.94 Hz: exactly 60000/1001 frames per second (a period of 16,683,333 ns). Not the
    /// same as `FrameRate(framesPerSecond: 59.94)`, which is 59940/1000 = 2997/50.
    public static let hz59_94 = FrameRate(lowestTerms: 60_000, over: 1_001)
    /// Exactly 75 frames per second.
    public static let hz75: FrameRate = 75
    /// Exactly 90 frames per second (many VR headsets).
    public static let hz90: FrameRate = 90
    /// Exactly 144 frames per second.
    public static let hz144: FrameRate = 144
    /// Exactly 165 frames per second.
    public static let hz165: FrameRate = 165
    /// Exactly 240 frames per second.
    public static let hz240: FrameRate = 240
}
