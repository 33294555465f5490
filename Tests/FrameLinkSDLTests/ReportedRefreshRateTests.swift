import XCTest

@testable import FrameLinkSDL

/// A refresh rate SDL reports is data from outside: a rate no display has is taken as unreported.
final class ReportedRefreshRateTests: XCTestCase {
    func testRatesOutsideOneToAThousandHertzAreUnreported() {
        for (reported, taken) in [
            (Int32(0), Int?.none), (-60, nil), (1, 1), (23, 23), (59, 59), (144, 144), (500, 500), (1_000, 1_000),
            (1_001, nil), (Int32.max, nil), (Int32.min, nil),
        ] {
            XCTAssertEqual(SDLHost.plausibleRefreshRate(reported), taken, "SDL reported \(reported) Hz")
        }
    }
}
