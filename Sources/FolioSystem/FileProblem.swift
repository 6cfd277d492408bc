/// What a failed read or write of a user's file means and what to do, in words: said
/// of the user's path (the report's key), never of Folio's temporary file. Shared by
/// the sync, the fold, the store and the command line, so one fault reads alike in all.
package enum FileProblem {
    /// Why a file could not be read, and the fix.
    package static func reading(_ error: SystemError, then retry: String = "sync again") -> String {
        "cannot read it: " + advice(error, writing: false, then: retry)
    }

    /// Why a folder could not be listed, and the fix.
    package static func readingFolder(_ error: SystemError, then retry: String = "sync again") -> String {
        "cannot read the folder: " + advice(error, writing: false, then: retry)
    }

    /// Why a file could not be written, and the fix.
    package static func writing(_ error: SystemError, then retry: String = "sync again") -> String {
        "cannot write it: " + advice(error, writing: true, then: retry)
    }

    /// The line for a path that could not be read (or written): `PATH: error: cannot
    /// open: Permission denied. Give your user read permission …`. A name Folio leaves
    /// out (not UTF-8, an NFC/NFD twin) says so, with the rename to make.
    package static func line(_ error: SystemError, writing: Bool = false, then retry: String = "try again") -> String {
        let what = error.isLeftOutName ? error.reason : "cannot \(error.operation.rawValue): " + advice(error, writing: writing, then: retry)
        return "\(TextEscaping.name(error.path)): error: " + what
    }

    /// ``advice(_:writing:then:)`` for an error of any type: a system error's advice, else
    /// the error as it describes itself.
    package static func advice(any error: any Error, writing: Bool, then retry: String = "sync again") -> String {
        (error as? SystemError).map { advice($0, writing: writing, then: retry) } ?? "\(error)"
    }

    /// The system's reason, then what to do about it, ending with `retry` ("sync
    /// again", "try again") where trying again is the last step.
    package static func advice(_ error: SystemError, writing: Bool, then retry: String = "sync again") -> String {
        let reason = Syscall.describe(error.code)
        switch error.code {
        case Syscall.permissionDenied:
            return writing
                ? "\(reason). Give your user write permission on its folder (chmod u+w), or name it in .folioignore to leave it out"
                : "\(reason). Give your user read permission (chmod u+r, or ask its owner), or name it in .folioignore to leave it out"
        case Syscall.diskFull:
            return "\(reason). Free some space on that disk, then \(retry)"
        case Syscall.readOnlyFileSystem:
            return "\(reason) (a locked card or a read-only mount). Make it writable, then \(retry)"
        case Syscall.symbolicLinkInTheWay:
            return "\(reason). Replace the link with a real folder or file to sync it"
        case Syscall.notRegularFile:
            return reason + ": left alone"
        case Syscall.noSuchFile, Syscall.notADirectory:
            return "\(reason): check the path"
        case Syscall.inputOutputError:
            return "\(reason). Check the disk: it may be failing or was unplugged"
        default:
            return "\(reason). Check that it can be \(writing ? "written" : "read"), then \(retry)"
        }
    }
}
