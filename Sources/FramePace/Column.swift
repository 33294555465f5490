/// Text columns for FramePace's tables.
enum Column {
    /// `text` padded with spaces to `width` characters, on the left when `right`.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
