@testable import FolioShared
@testable import FolioSync
@testable import FolioSystem
@testable import FolioVersions
import Testing

/// The report as typed events, and the path-keyed views spelled from them.
@Suite struct SyncReportTests {
    @Test func eventsAreKeptTypedAndSpelledAsBefore() {
        var report = SyncReport()
        report.record(.copied(ReplicaPath(.b, "b.md")))
        report.record(.copied(ReplicaPath(.a, "a.md")))
        report.record(.moved(from: "old.md", to: "new.md", on: .b))
        report.record(.skipped(replica: .a, path: "link.md", reason: "a symbolic link", byDesign: true))
        report.record(.skipped(replica: nil, path: "X.md", reason: "names that differ only by case", byDesign: false))
        report.record(.keptCopy(ReplicaPath(.b, "n.sync-conflict-1.md"), reason: "no base"))
        report.record(.conflict(path: "c.md", copy: nil))
        report.record(.conflict(path: "c.md", copy: "c.conflict.md"))
        report.record(stateNotWritten: "disk full")
        report.sortCopiesAndDeletions()
        #expect(report.copies == [ReplicaPath(.a, "a.md"), ReplicaPath(.b, "b.md")])
        #expect(report.copied == ["a.md", "b.md"])
        #expect(report.moved == ["old.md → new.md"])
        #expect(report.skipped == ["A:link.md": "a symbolic link", "X.md": "names that differ only by case", "state": "disk full"])
        #expect(report.passedOver == ["A:link.md"])
        #expect(report.keptCopies == ["B:n.sync-conflict-1.md": "no base"])
        // A later word on the same conflict replaces the earlier.
        #expect(report.conflicts == ["c.md": "c.conflict.md"])
        #expect(report.couldNotWriteState && report.foundProblems)
        #expect(report.events == [
            .copied(ReplicaPath(.a, "a.md")), .copied(ReplicaPath(.b, "b.md")), .moved(from: "old.md", to: "new.md", on: .b),
            .keptCopy(ReplicaPath(.b, "n.sync-conflict-1.md"), reason: "no base"), .conflict(path: "c.md", copy: "c.conflict.md"),
            .skipped(replica: .a, path: "link.md", reason: "a symbolic link", byDesign: true),
            .skipped(replica: nil, path: "X.md", reason: "names that differ only by case", byDesign: false),
            .stateNotWritten(reason: "disk full"),
        ])
    }

    @Test func aSkipByDesignIsNoProblemAndASecondPassForgetsACopyItFolded() {
        var first = SyncReport()
        first.record(.skipped(replica: .b, path: "fifo", reason: "not a regular file", byDesign: true))
        first.record(.keptCopy(ReplicaPath(.a, "n.sync-conflict-1.md"), reason: "changed"))
        var second = SyncReport()
        second.record(.folded(copy: "n.sync-conflict-1.md"))
        #expect(first.foundProblems)
        let both = first.followed(by: second)
        #expect(both.copiesKept.isEmpty && both.folded == ["n.sync-conflict-1.md"])
        #expect(!both.foundProblems && both.passedOver == ["B:fifo"])
    }
}
