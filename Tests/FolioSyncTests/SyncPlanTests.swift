@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
import Testing

/// Every combination of archive, A and B for one path, with the step it must give.
@Suite struct SyncPlanTests {
    static let x = SHA256.hash(Array("x".utf8)), y = SHA256.hash(Array("y".utf8)), z = SHA256.hash(Array("z".utf8))

    @Test func eachCaseOfDESIGNsTable() {
        func step(_ base: SHA256.Digest?, _ a: SHA256.Digest?, _ b: SHA256.Digest?) -> SyncStep? {
            SyncPlan.step("p", base: base, a: a, b: b)
        }
        let (x, y, z) = (Self.x, Self.y, Self.z)
        #expect(step(x, x, x) == nil)                      // unchanged
        #expect(step(nil, nil, nil) == nil)
        #expect(step(x, y, x) == .copy("p", from: .a))     // changed on one side → copied
        #expect(step(x, x, y) == .copy("p", from: .b))
        #expect(step(nil, x, nil) == .copy("p", from: .a)) // created on one side
        #expect(step(x, y, y) == .agree("p"))              // changed the same way
        #expect(step(nil, x, x) == .agree("p"))            // created the same on both
        #expect(step(x, y, z) == .merge("p"))              // changed differently
        #expect(step(nil, x, y) == .merge("p"))            // created differently on both
        #expect(step(x, nil, x) == .delete("p", in: .b))   // deleted on one side, unchanged on the other
        #expect(step(x, x, nil) == .delete("p", in: .a))
        #expect(step(x, nil, y) == .restore("p", from: .b)) // deleted vs edited: the edit wins
        #expect(step(x, y, nil) == .restore("p", from: .a))
        #expect(step(x, nil, nil) == .forget("p"))          // deleted on both
    }

    @Test func renamesAreMovesAndAnEditFollowsTheMove() {
        let (x, y) = (Self.x, Self.y)
        // Renamed on A, untouched on B.
        #expect(SyncPlan.steps(archive: ["old": x], a: ["new": x], b: ["old": x]) == [.move(from: "old", to: "new", on: .b, edited: false)])
        // Renamed on A, edited on B: the edit goes to the new name.
        #expect(SyncPlan.steps(archive: ["old": x], a: ["new": x], b: ["old": y]) == [.move(from: "old", to: "new", on: .b, edited: true)])
        // Renamed and edited on the same side: a removal and a new file.
        #expect(SyncPlan.steps(archive: ["old": x], a: ["new": y], b: ["old": x]) == [.copy("new", from: .a), .delete("old", in: .b)])
        // Two copies appearing: not a rename.
        #expect(SyncPlan.steps(archive: ["old": x], a: ["n1": x, "n2": x], b: ["old": x]).count == 3)
    }
}
