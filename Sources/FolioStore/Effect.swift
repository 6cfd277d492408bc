/// A file-system change for the store to carry out after the reducer has run.
public enum Effect: Sendable, Hashable {
    /// Write `bytes` to `path`, but only if the file still has the fingerprint `replacing` (nil: must not exist).
    case write(path: String, bytes: [UInt8], replacing: Fingerprint?)
    /// Delete `path`, but only if it still has the fingerprint `expecting`.
    case delete(path: String, expecting: Fingerprint)
}

extension Effect {
    /// The file the effect concerns.
    public var path: String {
        switch self {
        case .write(let path, _, _), .delete(let path, _): return path
        }
    }
}
