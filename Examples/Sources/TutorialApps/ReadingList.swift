import Folio

/// A reading list: books of the app's own kind, kept as Markdown files in `books/`.
/// The same kind is declared in the folder's `folio.yaml` too (``declaration``), so
/// that `folio check` and `folio add DIR book` hold a hand-written book to the rules the
/// app holds its own to.
@MainActor
public final class ReadingList {
    /// A book.
    public struct Book: RecordType, Codable, Equatable {
        /// `book`: its files go in `books/`.
        public static let kind = Kind(rawValue: "book")
        /// The title.
        public var title: String
        /// Who wrote it.
        public var author: String
        /// From 1 to 5, once read.
        public var rating: Int?
        /// Whether it has been read.
        public var finished: Bool

        /// A book.
        public init(title: String, author: String, rating: Int? = nil, finished: Bool = false) {
            (self.title, self.author, self.rating, self.finished) = (title, author, rating, finished)
        }

        /// A rating out of its range.
        public var problems: [String] {
            guard let rating, !(1...5).contains(rating) else { return [] }
            return ["rating \(rating) is not from 1 to 5"]
        }
    }

    /// What `folio.yaml` says of a book, for the tools without Swift.
    public static let declaration = """
        kinds:
          book:
            fields:
              title: {type: text, required: true}
              author: {type: text, required: true}
              rating: {type: integer, min: 1, max: 5}
              finished: boolean

        """

    /// The folder's store.
    public let store: Store

    /// The list over `store`.
    public init(store: Store) {
        self.store = store
        store.register(Book.self)
    }

    /// The books, by title.
    public var books: [Book] { store.list(of: Book.self).compactMap { store.value(Book.self, at: $0.path) } }

    /// The books not yet finished.
    public var toRead: [Book] { books.filter { !$0.finished } }

    /// Adds a book; the result has its file's path, or why it was refused.
    @discardableResult
    public func add(_ book: Book) async -> ActionResult { await store.add(book) }

    /// Marks the book at `path` finished with `rating`: one write of the fields that change.
    @discardableResult
    public func finish(_ path: String, rating: Int) async -> ActionResult {
        guard var book = store.value(Book.self, at: path) else { return ActionResult(refusing: [.noSuchRecord(path)]) }
        (book.finished, book.rating) = (true, rating)
        return await store.update(book, at: path)
    }
}
