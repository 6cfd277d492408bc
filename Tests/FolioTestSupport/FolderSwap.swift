import Foundation
import FolioSystem

/// A folder that trades places with a symbolic link to a folder outside (`rename`'s
/// exchange, atomic) at chosen system calls of Folio's: the deterministic form of
/// Tests/Hostile/swaploop.py. Call `k` (counting every call the fault hook sees, from
/// 0) swaps the folder out for the link; call `k + gap` swaps it back. A run that ends
/// before the swap back is swapped back by ``restore()``.
package final class FolderSwap: @unchecked Sendable {
    // @unchecked Sendable is safe: every variable is touched only while holding `lock`
    // (the hook runs on whichever threads make the calls).
    private let lock = NSLock()
    private let folder: String, link: String
    private let out: Int, back: Int
    private var calls = 0
    private var swappedOut = false
    private let probe: (@Sendable () -> [String])?
    private var found: [String] = []
    /// How many exchanges were made (each way counts one).
    package private(set) var swaps = 0

    /// `folder` and `link` (a symbolic link, in the same parent) trade places at call
    /// `out`, and again at call `out + gap`; `probe`, if any, looks at each call for
    /// what the calls before did (a state that may not last to the end of the run).
    package init(_ folder: String, with link: String, atCall out: Int, gap: Int, probe: (@Sendable () -> [String])? = nil) {
        (self.folder, self.link, self.out, self.back, self.probe) = (folder, link, out, out + gap, probe)
    }

    /// What the probe found, each once.
    package var probed: [String] { lock.withLock { found } }

    /// The fault plan that counts the calls and swaps (with the component walk where
    /// `walking`, so that a swap can land between two components' opens).
    package func plan(walking: Bool) -> FaultInjection {
        FaultInjection(beforeCall: { [self] _, _ in
            lock.withLock {
                defer { calls += 1 }
                if let probe {
                    for finding in probe() where !found.contains(finding) { found.append(finding) }
                }
                if calls == out || (calls == back && swappedOut) { exchange() }
            }
        }, walksComponents: walking)
    }

    /// How many calls the hook saw.
    package var callCount: Int { lock.withLock { calls } }

    /// Puts the folder back where it was, if it is swapped out.
    package func restore() { lock.withLock { if swappedOut { exchange() } } }

    private func exchange() {
        // Outside the plan: the swap's own calls are not Folio's.
        FaultInjection.$current.withValue(nil) {
            if rename2(folder, link) { (swappedOut, swaps) = (!swappedOut, swaps + 1) }
        }
    }

    private func rename2(_ a: String, _ b: String) -> Bool {
        let parent = (a as NSString).deletingLastPathComponent
        guard let opened = try? RootedFolder(parent) else { return false }
        return (try? Syscall.exchange((a as NSString).lastPathComponent, in: opened.descriptor, with: (b as NSString).lastPathComponent,
                                     in: opened.descriptor, displayPath: a)) != nil
    }
}
