import FolioSystem
import FolioFormat
import FolioMerge

/// A version as a set of comparable parts: for a document, each front-matter key with
/// its value and each body line; for other text, its lines (line endings aside).
package struct VersionUnits {
    package var units: Set<String> = []

    package init(_ bytes: [UInt8], path: String) {
        // A probe: a version that does not parse is compared by its lines.
        if FileMerge.isDocument(path), let document = try? Document(bytes: bytes) {
            for entry in document.fields.entries { units.insert("key\u{0}" + entry.key + "\u{0}" + entry.value.json(indent: nil)) }
            for line in FoldInvariant.lines(Array(bytes[document.layout.body])) { units.insert("line\u{0}" + String(decoding: line, as: UTF8.self)) }
        } else {
            for line in FoldInvariant.lines(bytes) { units.insert("line\u{0}" + String(decoding: line, as: UTF8.self)) }
        }
    }
}
