import Testing
@testable import FolioStore

@Suite struct QueryTests {
    func paths(_ query: String) throws -> [String] {
        try ReducerTests().state().records(matching: Query(parsing: query)).map(\.path)
    }

    @Test func theIssuesExampleParses() throws {
        let query = try Query(parsing: "kind:recipe tag:pasta time<30m \"guanciale\" done:false priority>=2 date>=2026-11-01 sort:-date limit:10")
        #expect(query.terms == [
            .field(key: "kind", value: "recipe"), .field(key: "tag", value: "pasta"), .compare(key: "time", .less, .number(1800)),
            .text(words: ["guanciale"], phrase: true), .field(key: "done", value: "false"),
            .compare(key: "priority", .greaterOrEqual, .number(2)),
            .compare(key: "date", .greaterOrEqual, .date(.init(year: 2026, month: 11, day: 1)!)),
        ])
        #expect(query.sortKey == "date" && query.descending && query.limit == 10)
    }

    @Test func answers() throws {
        #expect(try paths("kind:recipe tag:pasta time<30m") == ["recipes/carbonara.md"])
        #expect(try paths("kind:recipe time>30m").isEmpty)
        #expect(try paths("uova") == ["recipes/carbonara.md"])
        #expect(try paths("perche") == ["recipes/carbonara.md"])
        #expect(try paths("\"uova e guanciale\"") == ["recipes/carbonara.md"])
        #expect(try paths("\"guanciale e uova\"").isEmpty)
        #expect(try paths("\"con uova\"") == ["recipes/carbonara.md"])
        #expect(try paths("\"uova con\"").isEmpty)
        #expect(try paths("kind:todo done:false") == ["todos/bike.md", "todos/milk.md"])
        #expect(try paths("kind:todo priority>=2") == ["todos/rent.md"])
        #expect(try paths("kind:todo sort:-date limit:2") == ["todos/bike.md", "todos/milk.md"])
        #expect(try paths("kind:todo date>=2026-11-15 sort:date") == ["todos/milk.md", "todos/bike.md"])
        #expect(try paths("distance>=10") == ["workouts/long.md"])
        #expect(try paths("complexity:high") == ["workouts/long.md"])
        #expect(try paths("kind:workout sort:-distance") == ["workouts/long.md", "workouts/run.md"])
        #expect(try paths("title:\"buy milk\"") == ["todos/milk.md"])
    }

    @Test(arguments: [
        ("kind:", 5, QueryError.Kind.missingValue, "missing value after 'kind:'"), (":recipe", 0, .missingKey, "missing key before ':'"),
        ("time<soon", 5, .notAValue, "'soon' is not a number"), ("\"open", 0, .unterminatedQuote, "unterminated quote"),
        ("a limit:x", 8, .notAValue, "limit must be a whole number"), ("time=<3", 4, .unknownComparison, "unknown comparison '=<'"),
        ("\"\"", 0, .emptyPhrase, "an empty phrase matches nothing"), ("sort:-", 6, .missingKey, "missing key after 'sort:-'"),
    ])
    func malformedQueriesPointAtTheCharacter(query: String, position: Int, kind: QueryError.Kind, message: String) {
        #expect {
            _ = try Query(parsing: query)
        } throws: { error in
            guard let error = error as? QueryError else { return false }
            return error.kind == kind && error.position == position && error.message.hasPrefix(message)
        }
    }
}

/// Queries answer as typed reads read: a yes or no is a Bool, front-matter text is text.
@Suite struct QueryAgreesWithTypedReadsTests {
    static let books: [String: String] = [
        "books/dune.md": "---\nkind: book\ntitle: Dune\nauthor: Frank Herbert\nfinished: no\ngenres: [science fiction, classic]\n---\nSpice.\n",
        "books/emma.md": "---\nkind: book\ntitle: Emma\nauthor: Jane Austen\nfinished: true\n---\n",
        "books/left.md": "---\nkind: book\ntitle: The Left Hand of Darkness\nauthor: Ursula K. Le Guin\nfinished: yes\n---\n",
    ]

    func paths(_ query: String) throws -> [String] {
        try StoreState(files: Self.books.mapValues { Array($0.utf8) }).records(matching: Query(parsing: query)).map(\.path)
    }

    @Test func aYesOrNoIsFoundAsTheBoolTypedReadsTakeItFor() throws {
        #expect(try paths("finished:false") == ["books/dune.md"])
        #expect(try paths("finished:no") == ["books/dune.md"])
        #expect(try paths("finished:true") == ["books/emma.md", "books/left.md"])
        #expect(try paths("finished:yes") == ["books/emma.md", "books/left.md"])
    }

    @Test func frontMatterTextIsFullText() throws {
        #expect(try paths("herbert") == ["books/dune.md"])
        #expect(try paths("\"frank herbert\"") == ["books/dune.md"])
        #expect(try paths("fiction spice") == ["books/dune.md"])
        #expect(try paths("\"ursula k le\"") == ["books/left.md"])
        // `key:value` matches a whole value (folded), or one item of a list.
        #expect(try paths("author:\"frank herbert\"") == ["books/dune.md"])
        #expect(try paths("author:herbert").isEmpty)
        #expect(try paths("genres:classic") == ["books/dune.md"])
    }
}
