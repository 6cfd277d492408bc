import Foundation
import FolioSync
import FolioSystem
import Testing
@testable import folio

/// The lines a fault prints name the user's path and say what to do, exactly.
@Suite struct ErrorAdviceTests {
    @Test func aFileThatCannotBeReadSaysWhyAndTheFix() {
        let denied = SystemError(operation: .open, path: "/notes/a.md", code: EACCES)
        #expect(FileProblem.line(denied) == "/notes/a.md: error: cannot open: Permission denied. "
            + "Give your user read permission (chmod u+r, or ask its owner), or name it in .folioignore to leave it out")
        let full = SystemError(operation: .write, path: "/notes/a.md", code: ENOSPC)
        #expect(FileProblem.line(full, writing: true) == "/notes/a.md: error: cannot write: No space left on device. Free some space on that disk, then try again")
        let missing = SystemError(operation: .open, path: "/notes", code: ENOENT)
        #expect(FileProblem.line(missing) == "/notes: error: cannot open: No such file or directory: check the path")
    }

    @Test func aNameFolioLeavesOutSaysWhichRenameToMake() {
        let latin1 = SystemError(operation: .readDirectory, path: "/notes/caf\\xE9.md", code: Syscall.invalidName)
        #expect(FileProblem.line(latin1) == "/notes/caf\\xE9.md: error: left out: the name is not valid UTF-8: "
            + "rename it (convmv -f latin1 -t utf8 --notest NAME, for a name from an older system)")
        let twin = SystemError(operation: .readDirectory, path: "/notes/café.md", code: Syscall.normalizationTwin)
        #expect(FileProblem.line(twin).hasSuffix("error: left out: another name in this folder differs from this one only by "
            + "Unicode normalization (an NFC and an NFD spelling); both are left out: rename or remove one"))
    }

    @Test func watchingAPairSaysTheFixThatWorksForWatch() {
        let mass = SyncError(.massDeletion, "this sync would delete 9 of the 10 files in B, because they are gone from A: refusing.",
                             goAhead: .init(condition: "If you really deleted them", flag: "--allow-mass-delete"))
        #expect(mass.description == "this sync would delete 9 of the 10 files in B, because they are gone from A: refusing. "
            + "If you really deleted them, run again with --allow-mass-delete.")
        #expect(WatchCommand.failure(mass, a: "My Notes", b: "/sync/notes") == "this sync would delete 9 of the 10 files in B, because they are "
            + "gone from A: refusing. If you really deleted them, run folio sync 'My Notes' /sync/notes --allow-mass-delete once (watching goes on). "
            + "Nothing is synced until then.")
        let gone = SyncError(.replicaMissing, "/sync/notes: the folder is missing")
        #expect(WatchCommand.failure(gone, a: "a", b: "b") == "/sync/notes: the folder is missing — waiting for it to come back")
        let state = SyncError(.stateIO, "cannot open the state folder /s: Permission denied")
        #expect(WatchCommand.failure(state, a: "a", b: "b")
            == "cannot open the state folder /s: Permission denied. Nothing is synced until this is fixed; tried again every few seconds.")
    }

    @Test func aFailureRetriedIsSaidWhenItStartsOrChanges() {
        let said = SaidOnce()
        #expect(said.isNew("gone"))
        #expect(!said.isNew("gone"))
        #expect(said.isNew("full"))
        said.reset()
        #expect(said.isNew("full"))
    }

    #if canImport(Glibc)
    @Test func theInotifyLimitsAreNamedNotTheKernelsWords() {
        for code in [ENOSPC, EMFILE] {
            let line = WatchCommand.cannotWatch("notes", SystemError(operation: .watch, path: "notes", code: code))
            #expect(line == "cannot watch notes: the inotify limits (fs.inotify.max_user_watches, fs.inotify.max_user_instances) are reached. "
                + "Raise them (sudo sysctl fs.inotify.max_user_instances=1024 fs.inotify.max_user_watches=524288), or watch with --poll 2s")
        }
    }
    #endif

    @Test func aConflictKeptSaysTheResolveCommand() {
        #expect(ConflictStatus.settling("r.sync-conflict-1.md", in: "My Notes")
            == "compare them with folio resolve 'My Notes' r.sync-conflict-1.md, then keep one with --keep file or --keep copy")
    }
}
