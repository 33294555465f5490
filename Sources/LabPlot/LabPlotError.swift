/// An error that ends LabPlot with one line on stderr and exit status 1: the plot could not be
/// written.
struct LabPlotError: Error, CustomStringConvertible {
    /// The line to print, naming the path and the system's reason.
    var description: String
}
