import Foundation
import FolioSystem

/// Acting in a window of Folio's — between a check and the step it guards, or right
/// after a rename — through the fault hook, and saving as other programs do: the
/// deterministic half of the race tests (Tests/Crash/racewriter.py is the other).
package enum RaceWindow {
    /// A hook that acts once, in a window of the sync's: at the first system call
    /// `operation` on a path `matching` (as the system-call layer names it: a rename by
    /// its target) made once a call `after` on such a path was made (or at once when
    /// nil). `acted` tells whether it did.
    package static func acting(
        at operation: SystemError.Operation, matching: @escaping @Sendable (String) -> Bool, after trigger: SystemError.Operation? = nil,
        _ act: @escaping @Sendable () -> Void
    ) -> (hook: FaultInjection, acted: @Sendable () -> Bool) {
        final class State: @unchecked Sendable {
            // Safe: a lock guards both flags (the copies run on two threads).
            let lock = NSLock()
            var armed = false, acted = false
        }
        let state = State()
        state.armed = trigger == nil
        let hook = FaultInjection(beforeCall: { called, target in
            guard matching(target) else { return }
            let now: Bool = state.lock.withLock {
                if !state.armed {
                    if called == trigger { state.armed = true }
                    return false
                }
                guard called == operation, !state.acted else { return false }
                state.acted = true
                return true
            }
            if now { act() }
        })
        return (hook, { state.lock.withLock { state.acted } })
    }

    /// ``acting(at:matching:after:_:)`` on the one path `path`.
    package static func acting(
        at operation: SystemError.Operation, on path: String, after trigger: SystemError.Operation? = nil, _ act: @escaping @Sendable () -> Void
    ) -> (hook: FaultInjection, acted: @Sendable () -> Bool) {
        acting(at: operation, matching: { $0 == path }, after: trigger, act)
    }

    /// Saves `text` at `path` as an editor does: a new file renamed over the old one.
    package static func save(_ text: String, at path: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + ".editor-save", contents: Data(text.utf8))
        _ = rename(path + ".editor-save", path)
    }

    /// Appends `text` to the file at `path` in place, as a log or `echo >>` does.
    package static func append(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
