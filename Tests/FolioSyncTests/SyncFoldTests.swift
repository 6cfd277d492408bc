@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
import FolioTestSupport
import Foundation
import Testing

/// The pair sync's folding of other tools' conflict copies, with the history's base:
/// the reproduction from the shared-folder issue, a clash, and a copy present at the
/// first sync.
@Suite struct SyncFoldTests {
    static let recipe = ConflictCopyFixture.recipe
    static let copyName = ConflictCopyFixture.copyName

    /// Two replicas that synced the recipe, then the laptop's time 20m; Syncthing, on the
    /// laptop side, then kept that version as a copy and put `phone` in place.
    static func replicasWithTheLaptopsEditKeptAsACopy(beside phone: String) throws -> Replicas {
        let replicas = try Replicas()
        try replicas.write(Self.recipe, "r.md", in: .b)
        _ = try replicas.sync()
        try replicas.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), "r.md", in: .b)
        _ = try replicas.sync()
        try FileManager.default.moveItem(atPath: replicas.path(.a, "r.md"), toPath: replicas.path(.a, Self.copyName))
        try replicas.write(phone, "r.md", in: .a)
        return replicas
    }

    @Test func aCopyOfAVersionTheArchiveHoldsIsFoldedAgainstTheOneBefore() throws {
        // The archive held time: 20m (the laptop's edit, synced); Syncthing on the phone
        // side kept it as a copy and put servings: 6 in place. The base must be the
        // version before both (15m / 4), not the archive's (20m / 4, one of the sides).
        let replicas = try Self.replicasWithTheLaptopsEditKeptAsACopy(beside: Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"))
        defer { replicas.remove() }
        let report = try replicas.sync()
        let both = Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m").replacingOccurrences(of: "servings: 4", with: "servings: 6")
        #expect(report.folded == [Self.copyName] && report.keptCopies.isEmpty)
        #expect(replicas.read("r.md", in: .a) == both && replicas.read("r.md", in: .b) == both)
        #expect(replicas.read(Self.copyName, in: .a) == nil && replicas.read(Self.copyName, in: .b) == nil)
        #expect(try replicas.sync().folded.isEmpty)
    }

    @Test func aSameLineClashIsNeverMergedTheCopyIsKeptAndReported() throws {
        let replicas = try Self.replicasWithTheLaptopsEditKeptAsACopy(beside: Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 25m"))
        defer { replicas.remove() }
        let report = try replicas.sync()
        #expect(report.folded.isEmpty)
        // Kept, reported, and copied across like any file.
        #expect(report.keptCopies == ["A:" + Self.copyName: "time (25m | 20m)"])
        // Both versions stay, on both sides.
        #expect(replicas.read("r.md", in: .b)!.contains("time: 25m") && replicas.read(Self.copyName, in: .b)!.contains("time: 20m"))
        // The next sync changes nothing (the copy, a file of both replicas now, is left to
        // folio conflicts and folio resolve).
        let again = try replicas.sync()
        #expect(again.copied.isEmpty && again.merged.isEmpty && again.folded.isEmpty && again.deleted.isEmpty)
        #expect(replicas.read(Self.copyName, in: .a)!.contains("time: 20m"))
    }

    @Test func aCopyPresentAtTheFirstSyncIsFoldedWhenABaseIsKnown() throws {
        let replicas = try Replicas()
        defer { replicas.remove() }
        // Syncthing's own kept version is the base (the folder has .stversions).
        try replicas.write(Self.recipe, ".stversions/r~20261130-100000.md", in: .a)
        try replicas.write(Self.recipe.replacingOccurrences(of: "time: 15m", with: "time: 20m"), Self.copyName, in: .a)
        try replicas.write(Self.recipe.replacingOccurrences(of: "servings: 4", with: "servings: 6"), "r.md", in: .a)
        let report = try replicas.sync()
        #expect(report.folded == [Self.copyName])
        #expect(replicas.read("r.md", in: .b)!.contains("time: 20m") && replicas.read("r.md", in: .b)!.contains("servings: 6"))
        #expect(replicas.read(Self.copyName, in: .b) == nil)
    }
}
