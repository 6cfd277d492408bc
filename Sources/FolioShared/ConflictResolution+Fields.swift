import FolioFormat
import FolioMerge
import FolioSystem

/// Settling a copy field by field, when no earlier version is known to merge against
/// (`folio resolve DIR COPY --take time=file --take servings=copy`).
extension ConflictResolution {
    /// The side a field, or the body, is taken from.
    public enum Side: String, Sendable, Hashable, CaseIterable {
        /// The file's.
        case file
        /// The copy's.
        case copy
    }

    /// The key that stands for the body in ``take(_:)``'s choices.
    public static let bodyKey = "body"

    /// Why ``take(_:)`` could not settle the copy; nothing was written.
    public struct FieldChoiceFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The fields (and `body`) that differ but were not chosen, in the copy's order.
        public var undecided: [String]
        /// Keys chosen that do not differ (or do not exist on either side).
        public var unknown: [String]
        /// The side that does not parse as a document, if one does not.
        public var unreadable: String?

        /// What was wrong, and what to do.
        public var description: String {
            if let unreadable { return "\(unreadable) does not parse as a document, so it cannot be taken field by field: --keep file or --keep copy" }
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("\(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "does" : "do") not differ between the file and the copy") }
            if !undecided.isEmpty {
                parts.append("\(undecided.joined(separator: ", ")) \(undecided.count == 1 ? "differs" : "differ") too: say which side to take, e.g. --take \(undecided[0])=file or --take \(undecided[0])=copy")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// The file as `choices` make it: each field that differs taken from the side
    /// chosen for it (``bodyKey`` for the body); every difference must be chosen. Pure:
    /// the result's bytes, from the file's and the copy's.
    public static func taking(_ choices: [String: Side], file: [UInt8], copy: [UInt8]) throws(FieldChoiceFailure) -> [UInt8] {
        guard var result = try? Document(bytes: file) else { throw FieldChoiceFailure(undecided: [], unknown: [], unreadable: "the file") }
        guard let other = try? Document(bytes: copy) else { throw FieldChoiceFailure(undecided: [], unknown: [], unreadable: "the copy") }
        let fields = ConflictDifference.fields(from: result.fields, to: other.fields)
        var differing = fields.map(\.key)
        if result.body != other.body { differing.append(bodyKey) }
        let failure = FieldChoiceFailure(
            undecided: differing.filter { choices[$0] == nil }, unknown: choices.keys.filter { !differing.contains($0) }.sorted(), unreadable: nil)
        guard failure.undecided.isEmpty && failure.unknown.isEmpty else { throw failure }
        do {
            for field in fields where choices[field.key] == .copy {
                if let value = field.copy { try result.setValue(value, forKey: field.key) } else { try result.removeValue(forKey: field.key) }
            }
            if choices[bodyKey] == .copy { try result.setBody(other.body) }
        } catch {
            // Each edit parses its result again; one that cannot is no choice to write.
            throw FieldChoiceFailure(undecided: [], unknown: [], unreadable: "the result (\(error))")
        }
        return result.bytes
    }

    /// Settles the copy field by field (``taking(_:file:copy:)``): the result in the
    /// file (its former content to the trash), the copy to the trash. Needs no base.
    /// Returns the keys taken from the copy, in order.
    @discardableResult
    public func take(_ choices: [String: Side]) throws -> [String] {
        let (copyBytes, copyStamp) = try read(copy)
        guard let (fileBytes, fileStamp) = try readIfPresent(file) else { throw Failure.fileGone }
        let result = try Self.taking(choices, file: fileBytes, copy: copyBytes)
        // As keepCopy: the file's version set aside before it is replaced.
        try trash.keep(fileBytes, asFolderFile: file, mode: fileStamp.permissions)
        try write(result, over: fileStamp)
        try trashCopyAndRecordFile(copyStamp)
        return choices.filter { $0.value == .copy }.keys.sorted()
    }
}
