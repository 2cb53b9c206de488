/// A sine good to about 1e-4 (range reduction and a short series): enough for a weight trend or
/// a route's loop, and the same on every platform.
func sinApprox(_ angle: Double) -> Double {
    let twoPi = 6.283_185_307_179_586
    // Into -π...π, where the series converges fast.
    var reduced = angle - twoPi * (angle / twoPi).rounded(.down)
    if reduced > 3.141_592_653_589_793 { reduced -= twoPi }
    let square = reduced * reduced
    return reduced
        * (1 - square / 6 * (1 - square / 20 * (1 - square / 42 * (1 - square / 72 * (1 - square / 110)))))
}

/// The cosine, as the sine a quarter turn on.
func cosApprox(_ angle: Double) -> Double { sinApprox(angle + 1.570_796_326_794_896_6) }
