/// An error that says why a lab scenario cannot be run or plotted: an option out of range, a
/// malformed frame range, a move without its rate.
package struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The explanation, naming the option and the accepted values, such as
    /// `"--buffers 9 is out of range: a swap chain has 2...8 buffers"`.
    package let description: String

    /// Creates an error with its explanation.
    ///
    /// - Parameter description: One line naming the option and what it accepts.
    package init(_ description: String) {
        self.description = description
    }
}
