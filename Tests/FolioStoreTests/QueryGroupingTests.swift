import FolioFormat
import Testing
@testable import FolioStore

/// `OR`, `NOT` and `-term`, relative dates, and a todo's `due:` read as its date.
@Suite struct QueryGroupingTests {
    static let files: [String: String] = [
        "recipes/carbonara.md": "---\ntitle: Carbonara\ntags: [pasta]\ntime: 15m\n---\n",
        "recipes/bread.md": "---\ntitle: Bread\ntags: [bread]\ntime: 3h\n---\n",
        "recipes/soup.md": "---\ntitle: Soup\ntime: 30m\n---\n",
        "todos/flour.md": "---\ntitle: Order flour\ndue: 2026-12-01\n---\n",
        "todos/mum.md": "---\ntitle: Call mum\ndate: 2026-12-20\n---\n",
        "todos/tax.md": "---\ntitle: Taxes\n---\n",
    ]
    static let today = CalendarDate(year: 2026, month: 12, day: 7)!

    func paths(_ text: String) throws -> [String] {
        let state = StoreState(files: Self.files.mapValues { Array($0.utf8) })
        return state.records(matching: try Query(parsing: text, today: Self.today)).map(\.path)
    }

    @Test func orFindsWhatMeetsEitherGroup() throws {
        #expect(try paths("tag:pasta OR tag:bread") == ["recipes/bread.md", "recipes/carbonara.md"])
        #expect(try paths("kind:recipe time<20m OR kind:todo date>2026-12-10") == ["recipes/carbonara.md", "todos/mum.md"])
        // sort: and limit: apply to the whole, wherever written.
        #expect(try paths("tag:pasta sort:-time OR tag:bread") == ["recipes/bread.md", "recipes/carbonara.md"])
        #expect(try paths("tag:pasta OR tag:bread sort:time limit:1") == ["recipes/carbonara.md"])
    }

    @Test func notAndAMinusLeaveOut() throws {
        #expect(try paths("kind:recipe NOT tag:pasta") == ["recipes/bread.md", "recipes/soup.md"])
        #expect(try paths("kind:recipe -tag:pasta") == ["recipes/bread.md", "recipes/soup.md"])
        #expect(try paths("-tag:pasta kind:recipe -time>1h") == ["recipes/soup.md"])
        #expect(try paths("kind:recipe -soup") == ["recipes/bread.md", "recipes/carbonara.md"])
        let query = try Query(parsing: "kind:recipe -tag:pasta OR kind:todo", today: Self.today)
        #expect(query.terms == [.field(key: "kind", value: "recipe")] && query.excluded == [.field(key: "tag", value: "pasta")])
        #expect(query.alternatives.map(\.terms) == [[.field(key: "kind", value: "todo")]])
        #expect(query.keys == ["kind", "tag"])
    }

    @Test func relativeDatesCountFromToday() throws {
        #expect(try paths("date<today") == ["todos/flour.md"])
        #expect(try paths("date>=today date<today+2w") == ["todos/mum.md"])
        #expect(try paths("date>today-7d date<today") == ["todos/flour.md"])
        let bound = try Query(parsing: "date>=today+1w", today: Self.today).terms
        #expect(bound == [.compare(key: "date", .greaterOrEqual, .date(CalendarDate(year: 2026, month: 12, day: 14)!))])
    }

    /// A todo's date is one field, whatever the file calls it.
    @Test func aTodosDueIsItsDate() throws {
        #expect(try paths("kind:todo sort:date") == ["todos/flour.md", "todos/mum.md", "todos/tax.md"])
    }

    @Test func aGroupOrANotWithoutItsTermIsRefusedWhereItIs() throws {
        for (text, position, message) in [
            ("tag:pasta OR", 12, "OR needs terms on both sides, e.g. tag:pasta OR tag:bread"),
            ("OR tag:pasta", 0, "OR needs terms on both sides, e.g. tag:pasta OR tag:bread"),
            ("kind:recipe NOT", 12, "NOT needs a term after it, e.g. NOT tag:pasta"),
            ("kind:recipe -limit:3", 13, "only a term can be left out (NOT tag:pasta, -soup), not sort: or limit:"),
            ("date<today+3x", 5, "'today+3x' is not a number, a duration (30m, 1h30m) or a date (2026-11-01, today, today-7d, today+2w)"),
        ] {
            let error = #expect(throws: QueryError.self) { try Query(parsing: text, today: Self.today) }
            #expect(error?.position == position && error?.message == message, "\(text): \(String(describing: error))")
        }
    }
}
