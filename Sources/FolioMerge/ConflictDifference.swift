import FolioFormat

/// How a conflict copy differs from its file, for a person to settle it: each
/// front-matter field whose value differs (with both values), then the body's lines
/// only in the file or only in the copy. A side that does not parse is compared line
/// by line, whole.
public struct ConflictDifference: Sendable, Hashable {
    /// A field whose values differ.
    public struct Field: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The file's value (nil: the file has no such field).
        public var file: YAMLValue?
        /// The copy's value (nil: the copy has no such field).
        public var copy: YAMLValue?

        /// The field `key`, `file` in the file and `copy` in the copy.
        public init(key: String, file: YAMLValue?, copy: YAMLValue?) { (self.key, self.file, self.copy) = (key, file, copy) }
    }

    /// The fields that differ: the copy's in its order, then those only the file has.
    public var fields: [Field]
    /// The lines of the bodies (or of the whole files, when one does not parse) only
    /// in the file (`removed`) or only in the copy (`added`).
    public var lines: [LineDifferences.Line]

    /// Whether the two hold the same bytes.
    public var isEmpty: Bool { fields.isEmpty && lines.isEmpty }
    /// Whether the file is gone (the copy is all there is: every field and line of it is
    /// listed as added).
    public var fileIsGone = false

    /// A copy whose file is gone: all of it, as added.
    public init(fileGoneWithCopy copy: [UInt8]) {
        self.init(file: [], copy: copy)
        fileIsGone = true
    }

    /// How `copy` differs from `file`.
    public init(file: [UInt8], copy: [UInt8]) {
        guard file != copy else {
            (fields, lines) = ([], [])
            return
        }
        // A side that does not parse is no error here: both are then compared line by line.
        guard let fileDocument = try? Document(bytes: file), let copyDocument = try? Document(bytes: copy) else {
            (fields, lines) = ([], LineDifferences.changes(from: file, to: copy))
            return
        }
        fields = Self.fields(from: fileDocument.fields, to: copyDocument.fields)
        lines = LineDifferences.changes(from: Array(fileDocument.bytes[fileDocument.layout.body]), to: Array(copyDocument.bytes[copyDocument.layout.body]))
    }

    /// The fields whose values differ between `file` and `copy`.
    public static func fields(from file: YAMLMapping, to copy: YAMLMapping) -> [Field] {
        copy.entries.filter { file[$0.key] != $0.value }.map { Field(key: $0.key, file: file[$0.key], copy: $0.value) }
            + file.entries.filter { copy[$0.key] == nil }.map { Field(key: $0.key, file: $0.value, copy: nil) }
    }
}
