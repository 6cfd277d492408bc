import Foundation
import Testing

/// `folio demo` runs start to end and leaves Fixtures/ untouched.
@Suite struct DemoCommandTests {
    @Test func runsAndTouchesNothingOutsideItsCopy() async throws {
        let fixtures = FolioBinary.packageRoot.appendingPathComponent("Fixtures/recipes/pasta-alla-carbonara.md")
        let before = try Data(contentsOf: fixtures)
        let run = try await FolioBinary.run(["demo"], in: FolioBinary.packageRoot)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1. folio check: read 34 Markdown files"))
        #expect(run.stdout.contains("- time: 15m"))
        #expect(run.stdout.contains("+ time: 20m"))
        #expect(run.stdout.contains("folio query 'kind:recipe tag:pasta time<30m' → Pasta alla Carbonara (recipes/pasta-alla-carbonara.md)"))
        #expect(run.stdout.contains("dispatch(.toggleDone(…)) changed one line: done: true"))
        #expect(run.stdout.contains("todos/call-mum.md:2:8: error: unterminated double-quoted string"))
        #expect(run.stdout.contains("   updated workouts/2026-10-25-long-run.md: distance 21.1 → 22.5\n"))
        #expect(run.stdout.contains("git merge-file: 2 conflict(s).\n   folio merge-file: 0 conflicts"))
        #expect(run.stdout.contains("   | servings: 6\n"))
        #expect(run.stdout.contains("   merged   recipes/hamburger.md\n"))
        #expect(run.stdout.contains("   conflict todos/fix-bike.md: the newer title stays, the other is kept as todos/fix-bike.sync-conflict-"))
        #expect(run.stdout.contains("   folded   quotes/dont-panic.sync-conflict-20261130-120000-7XQ4ZZZ.md back into quotes/dont-panic.md (against the version Folio saw before either edit)\n"))
        #expect(run.stdout.contains("   The replicas agree again; nothing was lost"))
        #expect(try Data(contentsOf: fixtures) == before)
    }
}
