import CFolioSystem

/// SHA-256's compression on the processor's own instructions (the x86 SHA extensions),
/// where it has them: the hash of a sync's every file read. Elsewhere ``isAvailable`` is
/// false and the hash runs its own rounds.
package enum SHA256Hardware {
    /// Whether ``compress(_:_:blocks:)`` may be called here.
    package static let isAvailable = folio_sha256_hardware() == 1

    /// Compresses `blocks` 64-byte blocks from `data` into `state` (the words A to H).
    package static func compress(_ state: UnsafeMutablePointer<UInt32>, _ data: UnsafePointer<UInt8>, blocks: Int) {
        folio_sha256_blocks(state, data, blocks)
    }
}
