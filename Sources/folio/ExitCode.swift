import FolioStore
import FolioSync
import FolioSystem
/// Exit statuses, as git uses them.
enum ExitCode {
    static let success: Int32 = 0
    static let problems: Int32 = 1
    static let usage: Int32 = 2
    /// An I/O failure: a full disk, a permission refused.
    static let ioFailure: Int32 = 3

    /// The status an error means: a path that is not there (or not a folder), a replica
    /// or state folder refused, 2; the disk's refusal (a full disk, a permission), 3;
    /// anything else the command found, 1.
    static func of(_ error: any Error) -> Int32 {
        switch error {
        case let error as SystemError: error.isMissingPath ? usage : ioFailure
        case let error as SyncError: error.kind.isIO ? ioFailure : usage
        case let error as StoreError: error.kind == .io ? ioFailure : problems
        default: problems
        }
    }
}
