import Folio

/// An item to buy, the shopping list's own kind: one file per item in `shopping/`.
public struct Item: RecordType, Codable, Equatable {
    public static let kind = Kind(rawValue: "item")
    public static let folder = "shopping"
    public var title: String
    public var quantity: String?
    public var done = false

    public init(_ title: String, quantity: String? = nil, done: Bool = false) {
        (self.title, self.quantity, self.done) = (title, quantity, done)
    }
}

/// The shopping list's model, over a folder two phones share through Syncthing (or
/// Dropbox): items kept current, ticked off, and the sync tool's conflict copies folded
/// back as they arrive — those that cannot be are listed for the user.
@MainActor
public final class ShoppingList {
    public let folder: SyncedFolder
    /// The items, by title.
    public let items: LiveValues<Item>

    /// Opens the shared folder `path`; Folio's own state goes in `state`.
    public init(_ path: String, state: String) async throws {
        var fold = FoldOptions()
        fold.stateDirectory = state
        folder = try await SyncedFolder.open(path, foldOptions: fold)
        folder.store.register(Item.self)
        items = folder.store.liveValues(of: Item.self)
    }

    @discardableResult
    public func add(_ item: Item) async -> ActionResult { await folder.store.add(item) }

    /// Ticks the item at `path` off, or back on.
    @discardableResult
    public func toggle(_ path: String) async -> ActionResult {
        await folder.store.update(Item.self, at: path) { $0.done.toggle() }
    }

    /// The conflict copies Folio could not fold, for the user to settle.
    public var conflicts: [ConflictCopyStatus] { folder.conflictStatuses }

    /// Waits until what the folder holds is read and its copies folded.
    public func settle() async { await folder.settle() }

    public func close() { folder.close() }
}
