import Testing
@testable import FolioFormat
@testable import FolioModel

/// An app's own record type, read from and written to front matter through `Codable`.
@Suite struct RecordTypeTests {
    struct Book: RecordType, Codable, Equatable {
        static let kind = Kind(rawValue: "book")
        var title: String
        var author: String
        var rating: Int?
        var finished: Bool
        var started: CalendarDate?
        var genres: [String]?

        var problems: [String] {
            guard let rating, !(1...5).contains(rating) else { return [] }
            return ["rating \(rating) is not from 1 to 5"]
        }
    }

    /// A built-in type's `init` passed as a function reads a document: `init(_:)` and the
    /// protocol's `init(document:)` must not make `.map(Todo.init)` ambiguous (this file
    /// would not compile). Both read the same.
    @Test func aBuiltInTypesInitReadsDocumentsAsAFunction() throws {
        let documents = try ["---\ntitle: Milk\ndone: yes\n---\n", "---\ntitle: Bread\n---\nWholemeal.\n"].map { try Document(text: $0) }
        let todos = documents.map(Todo.init)
        #expect(todos.map(\.title) == ["Milk", "Bread"])
        #expect(todos.map(\.done) == [true, false])
        #expect(documents.map { Todo(document: $0) } == todos)
        #expect(documents.map(Recipe.init).map(\.title) == ["Milk", "Bread"])
        #expect(documents.map(Workout.init).count == 2)
        #expect(documents.map(Quote.init).count == 2)
        func read<T: RecordType>(_ type: T.Type, _ document: Document) throws -> T { try T(document: document) }
        #expect(try read(Todo.self, documents[1]) == todos[1])
    }

    @Test func aDocumentIsReadAsTypedViewsReadIt() throws {
        let document = try Document(text: """
            ---
            title: Dune
            author: Frank Herbert
            rating: "4"
            finished: no
            started: 2026-11-02
            genres: science fiction
            extra: kept
            ---
            Spice.
            """)
        let book = try Book(document: document)
        #expect(book == Book(title: "Dune", author: "Frank Herbert", rating: 4, finished: false, started: CalendarDate(year: 2026, month: 11, day: 2), genres: ["science fiction"]))
        #expect(book.problems.isEmpty)
    }

    @Test func fieldsAreWrittenInOrderAndANilIsNoField() throws {
        let book = Book(title: "Emma", author: "Jane Austen", rating: nil, finished: true, started: CalendarDate(year: 2026, month: 1, day: 5), genres: ["classic"])
        let fields = try book.frontMatter()
        #expect(fields == ["title": .string("Emma"), "author": .string("Jane Austen"), "finished": .bool(true), "started": .timestamp("2026-01-05"), "genres": .sequence([.string("classic")])])
        // Written and read back, it is the same book.
        let document = try Document(fields: fields, body: "")
        #expect(try Book(document: document) == book)
    }

    /// A `Double` that is a whole number is written as one (`15`, not `15.0`), and reads
    /// back as the same `Double`; others as decimals.
    @Test func wholeNumbersAreWrittenAsWholeNumbers() throws {
        struct Run: RecordType, Codable, Equatable {
            static let kind = Kind(rawValue: "run")
            var title: String
            var distance: Double
            var pace: Float
        }
        for (distance, written) in [(15.0, "15"), (-0.0, "0"), (10.5, "10.5"), (1e16, "1.0e+16"), (0.1, "0.1")] {
            let run = Run(title: "Park", distance: distance, pace: 5)
            let document = try Document(fields: try run.frontMatter(), body: "")
            #expect(String(decoding: document.bytes, as: UTF8.self) == "---\ntitle: Park\ndistance: \(written)\npace: 5\n---\n")
            #expect(try Run(document: document) == run)
        }
    }

    @Test(arguments: [
        ("---\nauthor: A\nfinished: no\n---\n", "title: required, and missing: add 'title: …'"),
        ("---\ntitle: T\nauthor: A\nfinished: maybe\n---\n", "finished: expected yes or no, found 'maybe'"),
        ("---\ntitle: T\nauthor: A\nfinished: no\nrating: nine\n---\n", "rating: expected a whole number, found 'nine'"),
        ("---\ntitle: T\nauthor: A\nfinished: no\nstarted: soon\n---\n", "started: 'soon' is not a date: write it as YYYY-MM-DD"),
        ("---\ntitle: T\nauthor: A\nfinished: no\nrating: 9\n---\n", "rating 9 is not from 1 to 5"),
        ("---\ntitle: T\nauthor: A\nfinished: no\ngenres: [a, [b]]\n---\n", "genres[1]: expected text, found a list"),
    ])
    func whatIsWrongIsSaidByField(text: String, problem: String) throws {
        let document = try Document(text: text)
        #expect(Book.problems(in: document) == [problem], "read as \(String(describing: try? Book(document: document)))")
    }
}
