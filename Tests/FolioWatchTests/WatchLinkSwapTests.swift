#if canImport(Glibc)
import Foundation
import Testing
@testable import FolioWatch
import FolioSystem
import FolioTestSupport

/// The watch's steps with a folder swapped for a link to a folder outside at each system
/// call in turn (see `FolderSwap.atEachCall`): the watcher starts, a folder and files
/// appear below the swapped one, and the watcher catches up. Nothing outside is opened,
/// and no inotify watch of this process lands on the outside folders — a watch added by
/// path would follow a link that replaced a folder on the way.
@Suite struct WatchLinkSwapTests {
    @Test func aWatchNeverOpensNorWatchesAFolderSwappedInFromOutside() throws {
        let result = try FolderSwap.atEachCall("watch", prepare: { place in
            let folder = place + "/B"
            try FixtureFile.write("---\ntitle: n0\n---\n", to: folder + "/sub/n0.md")
            try FixtureFile.write("---\ntitle: d0\n---\n", to: folder + "/sub/deeper/d0.md")
            return (folder + "/sub", folder + "/link")
        }, probingWatches: true, run: { place in
            let watcher = InotifyWatcher(root: place + "/B", pollingInterval: .milliseconds(10), faults: FaultInjection.current) { _ in }
            try? watcher.start()
            defer { watcher.stop() }
            // Made below B as Folio would (never through the link: the test's own writes
            // are not the watcher's), outside the plan.
            FaultInjection.$current.withValue(nil) {
                guard let folder = try? RootedFolder(place + "/B") else { return }
                try? folder["sub/deeper/new"].makeDirectories()
                try? AtomicFile.write(Array("---\ntitle: n1\n---\n".utf8), to: folder["sub/n1.md"])
            }
            watcher.drain()
            return CanaryOpens.watchedInThisProcess([place + "/canary", place + "/canary/deeper"]).map { "watched \($0)" }
        })
        print("WatchLinkSwapTests: \(result.runs) runs, \(result.calls) calls a run, \(result.swaps) swaps, \(result.opens.count) opens or watches outside")
        #expect(result.swaps >= FolderSwap.swapsWanted)
        #expect(result.opens == [])
    }
}
#endif
