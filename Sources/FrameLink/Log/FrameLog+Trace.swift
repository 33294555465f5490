extension FrameLog {
    /// The log as a Chrome trace-event JSON document, which Perfetto (ui.perfetto.dev) and
    /// `chrome://tracing` open: one track of frames, each a slice with its phases nested inside,
    /// dropped frames as instant events, and a frame-time counter.
    ///
    /// - Each record becomes a slice named `frame N` from the start of its interval to its
    ///   timestamp. Inside it, the work of the frame before runs first (`events`, `timers`, `links`,
    ///   `render`, one after another from the slice's start), and the `present` and the wait for the
    ///   frame boundary (`present wait`) end the slice, back to back as they ran; phases that took
    ///   no time are left out.
    /// - A record with dropped frames adds an instant event `dropped N` at the start of its slice,
    ///   whose arguments give the count and the longest work phase, and, when `drops` names the
    ///   frame (the loop's ``FrameStatistics/drops``), the blamed callback's label or the gap.
    /// - A counter `frame time` gives the interval in milliseconds, sampled at the start of each
    ///   slice so that each value shows under its own frame.
    /// - When any frame carries input (``FrameRecord/inputEvents``), a counter `input latency` gives
    ///   the mean and longest latency to the screen of the input read in the frame, in milliseconds,
    ///   and the number of events, sampled at the start of each slice (0 without input).
    /// - When the log kept callbacks (``recordsCallbacks``), each labelled callback's run is a slice
    ///   on a second track, `callbacks`, at the time it ran.
    /// - When presentation feedback reported when frames reached the screen
    ///   (``FrameRecord/shownAt``), each is an instant event `shown` on a third track, `screen`, at
    ///   that time, whose arguments give the frame and the time from its present call to the screen.
    ///
    /// Times are microseconds with nanosecond decimals (`ts`, `dur`), the format's unit; the process
    /// is `FrameLink` (pid 1) and the frames its thread 1. The output is the same for the same log.
    ///
    /// ```swift
    /// try loop.frameLog?.writeTrace(toFile: "frames.json", drops: loop.statistics.drops)
    /// // open frames.json at ui.perfetto.dev
    /// ```
    ///
    /// - Parameter drops: Drop reports for the log's frames, for the blamed callbacks' labels
    ///   (optional: a log read from a file has none).
    /// - Returns: The JSON document.
    public func chromeTrace(drops: [FrameDrop] = []) -> String {
        var culprits: [Int64: FrameDrop] = [:]
        for drop in drops { culprits[drop.frameIndex] = drop }
        var events: [String] = [
            #"{"name":"process_name","ph":"M","pid":1,"tid":1,"args":{"name":"FrameLink"}}"#,
            #"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"frames"}}"#,
        ]
        events.reserveCapacity(records.count * 7 + 2)
        let hasInput = records.contains { $0.inputEvents > 0 }
        for record in records {
            let start = record.timestampNanoseconds - record.intervalNanoseconds
            events.append(
                Self.slice(
                    "frame \(record.index)", start: start, duration: record.intervalNanoseconds,
                    arguments:
                        #"{"interval_ms":\#(Self.milliseconds(record.intervalNanoseconds)),"dropped":\#(record.droppedFrames)}"#
                ))
            // The frame's work from its start, in order; the present and the wait for the next
            // frame end it (they run back to back up to the timestamp, as they were booked);
            // housekeeping between the render and the present is the gap left between them.
            var mark = start
            for phase in FramePhase.work where phase != .present {
                let duration = min(record.phases[nanoseconds: phase], record.timestampNanoseconds - mark)
                guard duration > 0 else { continue }
                events.append(Self.slice(phase.description, start: mark, duration: duration, arguments: nil))
                mark += duration
            }
            let wait = min(record.phases[nanoseconds: .presentWait], record.timestampNanoseconds - mark)
            let present = min(record.phases[nanoseconds: .present], record.timestampNanoseconds - wait - mark)
            if present > 0 {
                events.append(
                    Self.slice(
                        FramePhase.present.description, start: record.timestampNanoseconds - wait - present,
                        duration: present,
                        arguments: nil))
            }
            if wait > 0 {
                events.append(
                    Self.slice(
                        FramePhase.presentWait.description, start: record.timestampNanoseconds - wait, duration: wait,
                        arguments: nil))
            }
            if record.droppedFrames > 0 {
                var arguments =
                    #"{"dropped":\#(record.droppedFrames),"phase":"\#(record.phases.longestWorkPhase)""#
                if let drop = culprits[record.index] {
                    if drop.isGap {
                        arguments += #","gap_ms":\#(Self.milliseconds(drop.gapDurationNanoseconds))"#
                    } else if let culprit = drop.culprit {
                        arguments += #","culprit":"\#(Self.escaped(culprit))""#
                    }
                }
                arguments += "}"
                // At the start of the frame's slice, so that it sits in the interval that dropped.
                events.append(
                    #"{"name":"dropped \#(record.droppedFrames)","ph":"i","s":"t","ts":\#(Self.microseconds(start)),"pid":1,"tid":1,"args":\#(arguments)}"#
                )
            }
            // A counter holds its value until the next sample: sampled at the slice's start, the
            // frame time shows under the frame it belongs to.
            events.append(
                #"{"name":"frame time","ph":"C","ts":\#(Self.microseconds(start)),"pid":1,"tid":1,"args":{"ms":\#(Self.milliseconds(record.intervalNanoseconds))}}"#
            )
            // The input the slice's frame read, shown at the frame the slice ends in.
            if hasInput {
                events.append(
                    #"{"name":"input latency","ph":"C","ts":\#(Self.microseconds(start)),"pid":1,"tid":1,"args":{"mean_ms":\#(Self.milliseconds(record.inputLatencyMeanNanoseconds)),"max_ms":\#(Self.milliseconds(record.inputLatencyMaxNanoseconds)),"events":\#(record.inputEvents)}}"#
                )
            }
        }
        if records.contains(where: { $0.shownAt != nil }) {
            events.append(#"{"name":"thread_name","ph":"M","pid":1,"tid":3,"args":{"name":"screen"}}"#)
            for record in records {
                guard let shown = record.shownAt?.nanoseconds else { continue }
                let fromPresent = shown - record.presentStart
                events.append(
                    #"{"name":"shown","ph":"i","s":"t","ts":\#(Self.microseconds(shown)),"pid":1,"tid":3,"args":{"frame":\#(record.index),"present_to_screen_ms":\#(Self.milliseconds(fromPresent))}}"#
                )
            }
        }
        if !callbackSlices.isEmpty {
            events.append(#"{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"callbacks"}}"#)
            for slice in callbackSlices where slice.durationNanoseconds > 0 {
                events.append(
                    #"{"name":"\#(Self.escaped(slice.label))","ph":"X","ts":\#(Self.microseconds(slice.startNanoseconds)),"dur":\#(Self.microseconds(slice.durationNanoseconds)),"pid":1,"tid":2}"#
                )
            }
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// Writes ``chromeTrace(drops:)`` to `path` safely (a temporary file renamed over it), after
    /// checking the log as ``write(toFile:format:)`` does.
    ///
    /// - Parameters:
    ///   - path: The file to write, such as `frames.json`.
    ///   - drops: Drop reports for the blamed callbacks' labels (optional).
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the first wrong record, or the path and the
    ///   system's reason.
    public func writeTrace(toFile path: String, drops: [FrameDrop] = []) throws(FrameLinkError) {
        try validate()
        try _FrameLogFile.writeBytes(Array(chromeTrace(drops: drops).utf8), toFile: path)
    }

    private static func slice(_ name: String, start: Int64, duration: Int64, arguments: String?) -> String {
        var text =
            #"{"name":"\#(name)","ph":"X","ts":\#(microseconds(start)),"dur":\#(microseconds(duration)),"pid":1,"tid":1"#
        if let arguments { text += #","args":\#(arguments)"# }
        return text + "}"
    }

    /// Nanoseconds as microseconds with three decimals, exactly (no floating point).
    private static func microseconds(_ nanoseconds: Int64) -> String {
        decimal(nanoseconds, places: 3)
    }

    /// Nanoseconds as milliseconds with six decimals, exactly.
    private static func milliseconds(_ nanoseconds: Int64) -> String {
        decimal(nanoseconds, places: 6)
    }

    private static func decimal(_ value: Int64, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let fraction = String(magnitude % UInt64(scale))
        return sign + "\(magnitude / UInt64(scale))." + String(repeating: "0", count: places - fraction.count)
            + fraction
    }

    /// A label as the inside of a JSON string.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
