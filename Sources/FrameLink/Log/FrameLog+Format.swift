extension FrameLog {
    /// A file format for frame logs.
    ///
    /// Both start with a header naming the format (`framelink-frame-log`), its version
    /// (``FrameLog/formatVersion``) and the refresh period; then one frame per line:
    ///
    /// ```text
    /// # framelink-frame-log version=3 period_ns=16666667
    /// index,timestamp_ns,interval_ns,dropped,present_wait_ns,events_ns,timers_ns,links_ns,render_ns,present_ns,input_events,input_latency_mean_ns,input_latency_max_ns,shown_ns
    /// 2,33333334,16666667,0,16000000,10000,20000,400000,200000,0,2,21500000,24000000,-1
    /// ```
    ///
    /// ```text
    /// {"format":"framelink-frame-log","version":3,"period_ns":16666667}
    /// {"index":2,"timestamp_ns":33333334,"interval_ns":16666667,"dropped":0,"present_wait_ns":16000000,…}
    /// ```
    ///
    /// Columns 11 to 13 (version 2) are the input read in the previous frame: the number of events,
    /// their mean and their longest latency to the screen. The last (version 3), `shown_ns`, is when
    /// the frame's present reached the screen as presentation feedback reported it
    /// (``FrameRecord/shownAt``), or −1 when nothing reported it. Version 2 logs, without it, are
    /// read with no shown times; version 1 logs, without the input either, with no input. Logs written by FrameLink 0.1.0 (CSV with a `# period_ns=` line after the column line; JSON
    /// lines without a header and `period_ns` in every record) are read as version 0.
    public enum Format: Sendable, Hashable, CaseIterable {
        /// Comma-separated integers under a column line.
        case csv
        /// One JSON object per line.
        case jsonLines
    }
}
