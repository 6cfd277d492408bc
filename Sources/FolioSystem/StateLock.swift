import Dispatch

/// An advisory lock (`flock`) on a state folder, so that two Folio processes never
/// write one archive or history at once. The file `STATE/lock` holds the holder's pid,
/// for the message a second process gives. Within one process, taking the lock again
/// (a `folio watch A B` whose every sync takes it too) shares the first hold; the lock
/// is released when the last holder is gone (or the process ends: the kernel drops it).
public final class StateLock: Sendable {
    /// The state folder locked.
    public let state: String

    /// Why a lock could not be had.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another process holds it; its pid when it wrote one.
        case busy(state: String, holder: Int32?)
        /// The lock file could not be opened or locked.
        case system(SystemError)

        /// What happened and what to do.
        public var description: String {
            switch self {
            case .busy(let state, let holder):
                let who = holder.map { "another folio process (pid \($0))" } ?? "another folio process"
                return "\(state) is in use by \(who); wait for it to finish, or stop it, then run again"
            case .system(let error):
                return "cannot lock the state folder \(error.path): " + FileProblem.advice(error, writing: true, then: "try again") + " (or choose another with --state DIR)"
            }
        }
    }

    /// Takes the lock on `state` (created if missing, mode 0700), waiting up to `wait`
    /// for another process to let it go.
    public static func acquire(_ state: String, wait: Duration = .seconds(5)) throws(Failure) -> StateLock {
        let folder: RootedFolder
        do { folder = try RootedFolder.creating(state, mode: 0o700) } catch { throw .system(error) }
        let path = state + "/lock"
        let shared: Bool = registry.sync {
            guard let held = held[path] else { return false }
            held.count += 1
            return true
        }
        if shared { return StateLock(state: state) }
        let fd: Int32
        do { fd = try folder["lock"].open(for: .updating, mode: 0o600) } catch { throw .system(error) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(wait.components.seconds) * 1_000_000_000
            + UInt64(wait.components.attoseconds / 1_000_000_000)
        while true {
            let locked: Bool
            do { locked = try Syscall.tryLockExclusively(fd, path: path) } catch {
                Syscall.close(fd)
                throw .system(error)
            }
            if locked { break }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                // Only to name the holder in the message: an unreadable PID still says the state is busy.
                let text = (try? Syscall.read(fd, count: 32, at: 0, path: path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                Syscall.close(fd)
                throw .busy(state: state, holder: Int32(text.split(separator: "\n").first ?? ""))
            }
            usleepMilliseconds(50)
        }
        // Only a diagnostic: losing it loses nothing.
        try? Syscall.replaceContents(fd, Array("\(Syscall.processID())\n".utf8), path: path)
        registry.sync { held[path] = Hold(fd: fd) }
        return StateLock(state: state)
    }

    private init(state: String) { self.state = state }

    deinit {
        let path = state + "/lock"
        let closing: Int32? = Self.registry.sync {
            guard let hold = Self.held[path] else { return nil }
            hold.count -= 1
            guard hold.count == 0 else { return nil }
            Self.held[path] = nil
            return hold.fd
        }
        // Released before the close: a program another thread is starting holds a copy of
        // the descriptor until it execs, and would hold the lock that long (a sync right
        // after this one was seen refused under load). The pid is left (a stale pid only
        // names a past holder, and the next holder overwrites it).
        if let closing {
            // A failed unlock leaves the close to release it, as before.
            try? Syscall.unlock(closing, path: path)
            Syscall.close(closing)
        }
    }

    /// The descriptors this process holds, by lock file, with how many holders share each.
    private final class Hold {
        let fd: Int32
        var count = 1
        init(fd: Int32) { self.fd = fd }
    }

    private static let registry = DispatchQueue(label: "folio.state-locks")
    // Safe: read and written only on `registry`, a serial queue.
    nonisolated(unsafe) private static var held: [String: Hold] = [:]

    private static func usleepMilliseconds(_ milliseconds: Int) {
        let until = DispatchTime.now() + .milliseconds(milliseconds)
        while DispatchTime.now() < until { _ = DispatchSemaphore(value: 0).wait(timeout: until) }
    }
}
