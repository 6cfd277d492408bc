/// git's conflict markers in a file: a line opening with `<<<<<<< `, a later `=======`
/// and a later `>>>>>>> `. A file holding them is never committed by a sync, nor taken
/// as a version.
enum ConflictMarkers {
    /// Whether `bytes` (text) hold a whole set of markers.
    static func held(by bytes: [UInt8]) -> Bool {
        // Binary files (a NUL early on) are not looked into.
        guard !bytes.prefix(8_000).contains(0) else { return false }
        var stage = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            switch stage {
            case 0 where line.starts(with: "<<<<<<< ".utf8) || line.elementsEqual("<<<<<<<".utf8): stage = 1
            case 1 where line.starts(with: "=======".utf8): stage = 2
            case 2 where line.starts(with: ">>>>>>> ".utf8) || line.elementsEqual(">>>>>>>".utf8): return true
            default: break
            }
        }
        return false
    }
}
