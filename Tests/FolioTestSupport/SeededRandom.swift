import Foundation

/// A small deterministic generator (SplitMix64) so that random tests replay from their seed.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed for a random test: `FOLIO_SEED` when set (to replay a failure), else a fresh one.
    package static func testSeed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["FOLIO_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64(UInt32.max))
    }
}
