#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sine and cosine of `angle` together, about twice as fast as separate `sin` and `cos` calls
/// and as accurate (within a few ulp), so that 100,000 springs fit in a frame.
///
/// fdlibm's method: Cody-Waite reduction by π/2 in three 33-bit parts (exact products for
/// |angle| < 2²⁰·π/2), then its minimax kernels on [−π/4, π/4]. Larger or non-finite angles go to
/// libm.
@usableFromInline @inline(__always)
func _sineAndCosine(_ angle: Double) -> (sine: Double, cosine: Double) {
    guard abs(angle) < 1e5 else { return (sin(angle), cos(angle)) }
    let quadrant = (angle * (2 / Double.pi)).rounded()
    let reduced =
        ((angle - quadrant * 1.570_796_326_734_125_614_17e+00) - quadrant * 6.077_100_506_303_965_976_60e-11)
        - quadrant * 2.022_266_248_711_166_455_80e-21
    let z = reduced * reduced
    let sineTail =
        -1.666_666_666_666_663_243_48e-01
        + z
        * (8.333_333_333_322_489_461_24e-03
            + z
            * (-1.984_126_982_985_794_931_34e-04
                + z
                * (2.755_731_370_707_006_767_89e-06
                    + z * (-2.505_076_025_340_686_341_95e-08 + z * 1.589_690_995_211_550_102_21e-10))))
    let sine = reduced + reduced * z * sineTail
    let cosineTail =
        4.166_666_666_666_660_190_37e-02
        + z
        * (-1.388_888_888_887_410_957_49e-03
            + z
            * (2.480_158_728_947_672_941_78e-05
                + z
                * (-2.755_731_435_139_066_330_35e-07
                    + z * (2.087_572_321_298_174_827_90e-09 + z * -1.135_964_755_778_819_482_65e-11))))
    let cosine = 1 - 0.5 * z + z * z * cosineTail
    switch Int(quadrant) & 3 {
    case 0: return (sine, cosine)
    case 1: return (cosine, -sine)
    case 2: return (-sine, -cosine)
    default: return (-cosine, sine)
    }
}
