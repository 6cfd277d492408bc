import FolioSystem

/// What a failed read or write of a user's file means and what to do, in words: said
/// of the user's path (the report's key), never of Folio's temporary file.
enum FileProblem {
    /// Why a file could not be read, and the fix.
    static func reading(_ error: SystemError) -> String { "cannot read it: " + advice(error, writing: false) }

    /// Why a folder could not be listed, and the fix.
    static func readingFolder(_ error: SystemError) -> String { "cannot read the folder: " + advice(error, writing: false) }

    /// Why a file could not be written, and the fix.
    static func writing(_ error: SystemError) -> String { "cannot write it: " + advice(error, writing: true) }

    /// The system's reason, then what to do about it.
    static func advice(_ error: SystemError, writing: Bool) -> String {
        let reason = Syscall.describe(error.code)
        switch error.code {
        case Syscall.permissionDenied:
            return writing
                ? "\(reason). Give your user write permission on its folder (chmod u+w), or name it in .folioignore to leave it out"
                : "\(reason). Give your user read permission (chmod u+r, or ask its owner), or name it in .folioignore to leave it out"
        case Syscall.diskFull:
            return "\(reason). Free some space on that disk, then sync again"
        case Syscall.readOnlyFileSystem:
            return "\(reason) (a locked card or a read-only mount). Make it writable, then sync again"
        case Syscall.symbolicLinkInTheWay:
            return "\(reason). Replace the link with a real folder or file to sync it"
        case Syscall.notRegularFile:
            return reason + ": left alone"
        case Syscall.inputOutputError:
            return "\(reason). Check the disk: it may be failing or was unplugged"
        default:
            return "\(reason). Check that it can be \(writing ? "written" : "read"), then sync again"
        }
    }
}
