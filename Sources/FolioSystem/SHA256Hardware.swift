import CFolioSystem

/// SHA-256's compression on the processor's own instructions (the x86 SHA extensions),
/// where it has them: the hash of a sync's every file read. Elsewhere ``isAvailable`` is
/// false and the hash runs its own rounds, on the constants kept here for both.
package enum SHA256Hardware {
    /// SHA-256's 64 round constants, for the portable rounds too (kept once, in C).
    package static let roundConstants: [UInt32] = withUnsafeBytes(of: folio_sha256_round_constants) { Array($0.bindMemory(to: UInt32.self)) }

    /// Whether ``compress(_:_:blocks:)`` may be called here.
    package static let isAvailable = folio_sha256_hardware() == 1

    /// Compresses `blocks` 64-byte blocks from `data` into `state` (the words A to H).
    package static func compress(_ state: UnsafeMutablePointer<UInt32>, _ data: UnsafePointer<UInt8>, blocks: Int) {
        folio_sha256_blocks(state, data, blocks)
    }
}
