import Folio

/// A conflict view's model: the copies a sync tool left in a shared folder, what each
/// differs in, and the user's choice, the losing version kept in the folder's trash.
@MainActor
public final class ConflictInbox {
    /// One copy to show.
    public struct Item: Equatable, Sendable {
        /// The copy (relative to the folder).
        public var copy: String
        /// The file it is a version of.
        public var file: String
        /// `time: 20m | 25m`, one line per field that clashes.
        public var clashes: [String]
        /// Whether Folio would fold it on its own (then the view need not ask).
        public var willFold: Bool

        /// An item to show.
        public init(copy: String, file: String, clashes: [String], willFold: Bool) {
            (self.copy, self.file, self.clashes, self.willFold) = (copy, file, clashes, willFold)
        }
    }

    /// The folder.
    public let folder: SyncedFolder

    /// The inbox of `folder`.
    public init(folder: SyncedFolder) { self.folder = folder }

    /// The copies to show, with what clashes.
    public func items() async throws -> [Item] {
        try await folder.conflicts().map { status in
            let clashes = try folder.difference(for: status.copy).fields.map { field in
                "\(field.key): \(field.file?.text ?? "(none)") | \(field.copy?.text ?? "(none)")"
            }
            let willFold = if case .foldable = status.verdict { true } else { false }
            return Item(copy: status.copy, file: status.file, clashes: clashes, willFold: willFold)
        }
    }

    /// Keeps `item`'s file, or its copy; the other goes to the trash.
    public func keep(_ item: Item, copy keepCopy: Bool) async throws {
        _ = try await folder.resolve(item.copy, by: keepCopy ? .keepCopy : .keepFile)
    }
}
