/// Writes SVG text element by element, escaping attribute values and text, with numbers to a tenth
/// of a pixel.
struct _SVGWriter {
    /// The document so far.
    private(set) var text = ""

    /// Opens `<name …>`; close it with ``close(_:)``.
    ///
    /// - Parameters:
    ///   - name: The element's name.
    ///   - attributes: The attributes, in order.
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<" + name + Self.attributeText(attributes) + ">\n"
    }

    /// Closes the element `name`.
    ///
    /// - Parameter name: The element's name.
    mutating func close(_ name: String) {
        text += "</" + name + ">\n"
    }

    /// Writes an empty element `<name …/>`.
    ///
    /// - Parameters:
    ///   - name: The element's name.
    ///   - attributes: The attributes, in order.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += "<" + name + Self.attributeText(attributes) + "/>\n"
    }

    /// Writes a `<text>` element at (`x`, `y`) holding `content`.
    ///
    /// - Parameters:
    ///   - content: The text (escaped here).
    ///   - x: The anchor's x, in pixels.
    ///   - y: The baseline's y, in pixels.
    ///   - attributes: More attributes, in order (`text-anchor`, `font-size`…).
    mutating func label(
        _ content: String, x: Double, y: Double, _ attributes: KeyValuePairs<String, String> = [:]
    ) {
        text +=
            "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\"" + Self.attributeText(attributes) + ">"
            + Self.escaped(content) + "</text>\n"
    }

    /// Writes raw markup (a declaration, a comment) as it is.
    ///
    /// - Parameter markup: Well-formed markup.
    mutating func raw(_ markup: String) {
        text += markup
    }

    /// A coordinate or a length: a tenth of a pixel at most, trailing zeros dropped.
    ///
    /// - Parameter value: The number.
    static func number(_ value: Double) -> String {
        _NumberText.short(value, digits: 1)
    }

    /// `text` with the five characters XML reserves replaced by their entities.
    ///
    /// - Parameter text: Any text.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// ` name="value"` for each attribute, values escaped.
    private static func attributeText(_ attributes: KeyValuePairs<String, String>) -> String {
        var result = ""
        for (name, value) in attributes { result += " " + name + "=\"" + escaped(value) + "\"" }
        return result
    }
}
