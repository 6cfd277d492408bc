/// A file's size and 64-bit FNV-1a hash: enough to tell whether it is still the
/// file the store read, without keeping its bytes.
public struct Fingerprint: Sendable, Hashable {
    /// The size in bytes.
    public let size: Int
    /// The FNV-1a hash of the bytes.
    public let hash: UInt64

    /// The fingerprint of `bytes`.
    public init(_ bytes: [UInt8]) {
        size = bytes.count
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = h
    }
}
