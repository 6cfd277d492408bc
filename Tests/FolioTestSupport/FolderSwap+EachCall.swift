#if canImport(Glibc)
import Foundation
import FolioSystem

extension FolderSwap {
    /// The secret the canary's files hold: found anywhere else, it was read through the link.
    package static let secret = "CANARY-SECRET-SWAP"
    /// At least this many exchanges at each kind of step (issue 43: 200).
    package static let swapsWanted = 200

    /// The canary: names as the swapped folder holds them, and a folder as it does.
    private static func makeCanary(_ canary: String) throws {
        for name in ["n0.md", "n1.md", "n2.md", "n9.md", "soup.md", "soup.sync-conflict-20261201-120000-ABCDEFG.md", "deeper/d0.md", "deeper/d1.md"] {
            try FixtureFile.write("---\ntitle: \(secret)\n---\n", to: canary + "/" + name)
        }
    }

    /// Runs `run` once per call index (the swap at that call, back `gap` calls later)
    /// until every call of a run without swaps was a swap point and `swapsWanted` swaps
    /// were made; returns the opens seen outside and the swaps made.
    package static func atEachCall(
        _ name: String, prepare: (String) throws -> (folder: String, link: String),
        probingWatches: Bool = false, run: (String) throws -> [String]
    ) throws -> (opens: [String], swaps: Int, calls: Int, runs: Int) {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("folio-swap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: top) }
        var calls = 0, swaps = 0, runs = 0, opens: [String] = []
        var index = -1
        while index < calls || swaps < swapsWanted {
            let place = top + "/\(runs)"
            let canary = place + "/canary"
            try makeCanary(canary)
            let (folder, link) = try prepare(place)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: canary)
            let watch = try CanaryOpens([canary, canary + "/deeper"])
            // Run -1 counts the calls of a run without a swap.
            let canaries = [canary, canary + "/deeper"]
            let probe: (@Sendable () -> [String])? = probingWatches ? { @Sendable () -> [String] in CanaryOpens.watchedInThisProcess(canaries).map { "watched \($0)" } } : nil
            let swap = FolderSwap(folder, with: link, atCall: index < 0 ? Int.max / 2 : index % max(calls, 1), gap: [1, 3, 9, 40][runs % 4],
                probe: probe)
            let found = try FaultInjection.$current.withValue(swap.plan(walking: runs % 2 == 0)) { try run(place) }
            swap.restore()
            opens += (found + swap.probed + watch.drain()).map { "\(name) swapped at call \(index): \($0)" }
            for written in [place] {
                let leaked = files(under: written).filter { entry in
                    !entry.key.hasPrefix("canary/") && !isThroughALink(entry.key, in: written)
                        && String(decoding: entry.value, as: UTF8.self).contains(secret)
                }
                opens += leaked.keys.sorted().map { "\(name) swapped at call \(index): the secret reached \($0)" }
            }
            if index < 0 { calls = swap.callCount }
            swaps += swap.swaps
            runs += 1
            index += 1
        }
        return (opens, swaps, calls, runs)
    }

    /// Every file below `folder`, by relative path (links to files followed, as a reader would).
    private static func files(under folder: String) -> [String: Data] {
        var found: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return found }
        while let relative = walker.nextObject() as? String {
            if let bytes = FileManager.default.contents(atPath: folder + "/" + relative) { found[relative] = bytes }
        }
        return found
    }

    /// Whether `path` below `folder`, or a folder on its way, is a symbolic link.
    private static func isThroughALink(_ path: String, in folder: String) -> Bool {
        var walked = folder
        for part in path.split(separator: "/") {
            walked += "/" + part
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: walked)) != nil { return true }
        }
        return false
    }
}
#endif
