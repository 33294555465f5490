import CSDL2
import Foundation
import FrameLink

/// The heads-up display: a bar graph of the last 240 frame intervals with the frame budget line
/// (dropped frames in red, late ones in yellow), a clock ticked by a `.default`-mode timer, and text
/// lines (when a font is available): fps, frame time, dropped frames, hitch-time ratio, pacing mode,
/// sprite count and time scale.
///
/// The clock shows the run-loop-mode lesson: its timer is in `.default`, so it stops while the left
/// mouse button drags (the loop is in `.tracking`), while the sprites (a `.common` link) keep moving.
@MainActor
final class HUD {
    /// Seconds counted by the `.default` clock timer.
    private(set) var clockTicks = 0

    /// Whether the HUD is hidden (`H`): nothing is drawn.
    var isHidden = false

    private let statistics: FrameStatistics
    private let budget: Duration
    private let width: Int32
    private let height: Int32
    private var text: TextRenderer?
    private var lines: [String] = []

    /// Pixels of bar height per millisecond of frame interval.
    private static let pixelsPerMillisecond: Float = 4
    /// The tallest bar, in milliseconds (longer intervals are clipped and drawn red).
    private static let graphMilliseconds: Float = 40

    /// Creates a HUD for a `width`×`height` canvas that graphs `statistics` against a frame budget of
    /// `budget` (one refresh period); `text` draws the text lines, or `nil` to draw none.
    init(statistics: FrameStatistics, budget: Duration, width: Int, height: Int, text: TextRenderer?) {
        self.statistics = statistics
        self.budget = budget
        self.width = Int32(width)
        self.height = Int32(height)
        self.text = text
    }

    /// Advances the clock by one second (the `.default` timer calls this).
    func tick() {
        clockTicks += 1
    }

    /// Replaces the text lines drawn at the top left.
    func setLines(_ newLines: [String]) {
        lines = newLines
    }

    /// The mean frame rate over the recent intervals, or 0 before any.
    var recentFramesPerSecond: Double {
        var total = Duration.zero
        var count = 0
        statistics.forEachRecentFrame { interval, _ in
            total += interval
            count += 1
        }
        return total > .zero ? Double(count) / (total / .seconds(1)) : 0
    }

    /// The most recent frame interval in milliseconds, or 0 before any.
    var lastFrameMilliseconds: Double {
        var last = Duration.zero
        statistics.forEachRecentFrame { interval, _ in last = interval }
        return last / .milliseconds(1)
    }

    /// Draws the graph, the clock and the text, unless the HUD is hidden.
    func draw(on renderer: OpaquePointer) {
        guard !isHidden else { return }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        drawGraph(on: renderer)
        drawClock(on: renderer)
        drawText(on: renderer)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }

    private func drawGraph(on renderer: OpaquePointer) {
        let capacity = Int32(statistics.recentCapacity)
        let barWidth: Float = 2
        let graphHeight = Self.graphMilliseconds * Self.pixelsPerMillisecond
        let left: Float = 12
        let bottom = Float(height) - 12
        var panel = SDL_FRect(
            x: left - 6, y: bottom - graphHeight - 6, w: Float(capacity) * barWidth + 12, h: graphHeight + 12)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
        SDL_RenderFillRectF(renderer, &panel)

        var x = left
        statistics.forEachRecentFrame { interval, dropped in
            let milliseconds = Float(interval / .milliseconds(1))
            let barHeight = min(milliseconds, Self.graphMilliseconds) * Self.pixelsPerMillisecond
            if dropped {
                SDL_SetRenderDrawColor(renderer, 235, 64, 52, 255)
            } else if interval > budget + budget / 10 {
                SDL_SetRenderDrawColor(renderer, 241, 196, 15, 255)
            } else {
                SDL_SetRenderDrawColor(renderer, 46, 204, 113, 255)
            }
            var bar = SDL_FRect(x: x, y: bottom - barHeight, w: barWidth, h: max(barHeight, 1))
            SDL_RenderFillRectF(renderer, &bar)
            x += barWidth
        }

        // The budget line (one refresh period, 16.7 ms at 60 Hz) and a fainter one at twice that.
        let budgetMilliseconds = Float(budget / .milliseconds(1))
        for (multiple, alpha) in [(Float(1), UInt8(255)), (Float(2), UInt8(110))] {
            let y = bottom - min(budgetMilliseconds * multiple, Self.graphMilliseconds) * Self.pixelsPerMillisecond
            SDL_SetRenderDrawColor(renderer, 255, 255, 255, alpha)
            var line = SDL_FRect(x: left, y: y, w: Float(capacity) * barWidth, h: 1)
            SDL_RenderFillRectF(renderer, &line)
        }
        if let text {
            let label =
                "frame time, last \(capacity) frames; lines: \(format(Double(budgetMilliseconds), decimals: 1)) ms budget and 2×"
            var labelPanel = SDL_Rect(
                x: Int32(left) - 6, y: Int32(bottom - graphHeight - 6) - text.lineHeight - 4,
                w: text.width(of: label) + 12, h: text.lineHeight + 4)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
            SDL_RenderFillRect(renderer, &labelPanel)
            text.draw(label, x: Int32(left), y: labelPanel.y + 2, on: renderer)
        }
    }

    private func drawClock(on renderer: OpaquePointer) {
        let radius: Float = 44
        let centerX = Float(width) - radius - 20
        let centerY = radius + 20
        var face = SDL_FRect(x: centerX - radius - 8, y: centerY - radius - 8, w: 2 * radius + 16, h: 2 * radius + 16)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
        SDL_RenderFillRectF(renderer, &face)

        SDL_SetRenderDrawColor(renderer, 200, 200, 200, 255)
        for mark in 0..<60 {
            let angle = Float(mark) * .pi / 30
            let inner = mark % 5 == 0 ? radius - 8 : radius - 3
            SDL_RenderDrawLineF(
                renderer, centerX + inner * sin(angle), centerY - inner * cos(angle),
                centerX + radius * sin(angle), centerY - radius * cos(angle))
        }
        let hand = Float(clockTicks % 60) * .pi / 30
        SDL_SetRenderDrawColor(renderer, 241, 196, 15, 255)
        for offset in [Float(-1), 0, 1] {
            SDL_RenderDrawLineF(
                renderer, centerX + offset, centerY + offset,
                centerX + offset + (radius - 6) * sin(hand), centerY + offset - (radius - 6) * cos(hand))
        }
        if let text {
            let label = "\(clockTicks) s (.default timer)"
            let labelWidth = text.width(of: label)
            var panel = SDL_Rect(
                x: width - 12 - labelWidth - 8, y: Int32(centerY + radius + 8), w: labelWidth + 8,
                h: text.lineHeight + 4)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
            SDL_RenderFillRect(renderer, &panel)
            text.draw(label, x: panel.x + 4, y: panel.y + 2, on: renderer)
        }
    }

    private func drawText(on renderer: OpaquePointer) {
        guard let text, !lines.isEmpty else { return }
        let widest = lines.map { text.width(of: $0) }.max() ?? 0
        var panel = SDL_Rect(x: 6, y: 6, w: widest + 12, h: Int32(lines.count) * text.lineHeight + 8)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
        SDL_RenderFillRect(renderer, &panel)
        var y: Int32 = 10
        for line in lines {
            text.draw(line, x: 12, y: y, on: renderer)
            y += text.lineHeight
        }
    }
}

/// `value` with exactly `decimals` digits after the point (no Foundation formatting needed).
func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var result = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        let fraction = String(scaled % Int64(scale))
        result += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return result
}
