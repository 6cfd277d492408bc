/// A path compared byte for byte (Swift's `String` compares by canonical equivalence).
struct PathBytes: Hashable {
    let bytes: [UInt8]
    init(_ path: String) { bytes = Array(path.utf8) }
    var path: String { String(decoding: bytes, as: UTF8.self) }
}
