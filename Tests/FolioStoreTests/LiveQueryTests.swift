import FolioTestSupport
import Foundation
import Testing
@testable import FolioStore

/// A live query kept from change sets answers as the query run afresh would.
@MainActor @Suite struct LiveQueryTests {
    static let queries = [
        "kind:todo done:false", "tag:pasta", "uova", "\"uova e guanciale\"", "priority>=2", "kind:recipe sort:-date limit:3",
        "kind:todo sort:priority", "title:\"buy milk\"", "date>=2026-11-10",
    ]
    static let words = ["uova", "e", "guanciale", "pepe", "sale"]

    static func randomFile(_ n: Int, using random: inout SeededRandom) -> [UInt8] {
        let kind = ["todo", "recipe", "note"].randomElement(using: &random)!
        let body = (0..<Int.random(in: 0...6, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        let title = Bool.random(using: &random) ? "Buy milk" : "T\(n)"
        return Array("""
            ---
            kind: \(kind)
            title: \(title)
            tags: [\(["pasta", "soup", "x"].randomElement(using: &random)!)]
            done: \(Bool.random(using: &random) ? "yes" : "no")
            priority: \(Int.random(in: 0...4, using: &random))
            date: 2026-11-\(10 + Int.random(in: 0...19, using: &random))
            ---
            \(body)

            """.utf8)
    }

    /// 600 steps of nine live queries against fresh runs: a few seconds of work, on the
    /// main actor (a `LiveQuery` lives there). It gives the main actor back after each
    /// step: run in one piece it held it for seconds, and the main-actor tests running
    /// beside it (store loads, watchers) waited that long for every turn.
    @Test func liveResultsEqualAFreshRunAfterEveryChange() async throws {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var state = StoreState()
        let lives = try Self.queries.map { LiveQuery(query: try Query(parsing: $0), state: state) }
        var paths: [String] = []
        for step in 0..<600 {
            let action: Action
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5 where !paths.isEmpty, 5 where !paths.isEmpty:
                action = .fileChanged(path: paths.randomElement(using: &random)!, bytes: Self.randomFile(step, using: &random))
            case 6 where !paths.isEmpty:
                let path = paths.remove(at: Int.random(in: 0..<paths.count, using: &random))
                action = .fileRemoved(path: path)
            case 7 where !paths.isEmpty:
                let from = paths.remove(at: Int.random(in: 0..<paths.count, using: &random))
                let to = "moved/m\(step).md"
                paths.append(to)
                action = .fileMoved(from: from, to: to, bytes: state.contents(of: state[from]!)!)
            default:
                let path = ["todos", "recipes", "notes"].randomElement(using: &random)! + "/f\(step).md"
                paths.append(path)
                action = .fileChanged(path: path, bytes: Self.randomFile(step, using: &random))
            }
            let changes = Reducer.reduce(&state, action, contents: [:]).changes
            await Task.yield()
            for live in lives {
                live.follow(changes, in: state)
                let fresh = state.records(matching: live.query)
                #expect(live.results == fresh, "query \(live.query), step \(step), seed \(seed)")
                if live.results != fresh { return }
            }
        }
        // Most change sets were merged, not run again.
        let plain = lives.filter { $0.query.sortKey == nil && $0.query.limit == nil }
        #expect(plain.allSatisfy { $0.fullRuns == 0 })
    }

    @Test func theStoreKeepsALiveQueryCurrentInTheSameTurn() async throws {
        let folder = try Fixtures.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Store.load(folder.path, removedFiles: nil)
        let open = try store.liveQuery("kind:todo done:false")
        let before = open.results.map(\.path)
        #expect(before.contains("todos/buy-milk.md"))
        let task = store.send(.toggleDone(path: "todos/buy-milk.md"))
        // The state changed at once: so did the live results.
        #expect(!open.results.map(\.path).contains("todos/buy-milk.md"))
        #expect(await task.value.changes.origin == .action)
        #expect(await task.value.changes.changedFields == ["todos/buy-milk.md": ["done"]])
    }
}
