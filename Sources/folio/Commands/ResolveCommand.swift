import FolioFolder
import FolioFormat
import FolioMerge
import FolioShared
import FolioSync
import FolioSystem
import FolioVersions

/// `folio resolve DIR COPY [--state DIR] [--keep file|copy] [--merge] [--take KEY=file|copy]…`.
enum ResolveCommand: FolioCommand {
    static let name = "resolve"
    static let summary = "settle a conflict copy: show how it differs, keep one side, or merge"
    static let about = """
        COPY is a conflict copy in DIR (as folio conflicts lists them), relative to DIR
        or an absolute path inside it. Without options, shows how the copy differs
        from its file: each front-matter field as 'KEY: file VALUE | copy VALUE', then
        the body's lines as '-LINE' (only in the file) and '+LINE' (only in the copy).
        --keep file keeps the file and moves the copy to the trash.
        --keep copy moves the file's content to the trash, puts the copy's content in
        the file (keeping its permissions), and moves the copy to the trash.
        --merge merges the two against the version Folio saw before either (as folio
        fold does), marking with <<<<<<< and >>>>>>> only what truly conflicts, then
        moves the copy to the trash; refused when no earlier version is known.
        --take KEY=file|copy (once per field that differs; body=file|copy for the
        body) needs no earlier version: each field comes from the side named, the
        file's former content and the copy go to the trash; refused, naming them,
        while a difference is left unchosen.
        The trash is in the folder's state (--state DIR, else the folder's default
        under $XDG_STATE_HOME/folio/ or ~/.local/state/folio/); folio restore DIR lists
        it and folio restore DIR PATH brings a file back. The next sync carries the
        result to the other replicas. Exits 0 when settled, 1 when the merge left
        conflict markers or something changed meanwhile, 2 on bad usage.
        """
    static let merge = Flag("--merge", help: "merge the copy into the file against the version seen before both")
    static let keep = Option<KeptSide>("--keep", help: "keep the file, or put the copy's content in it; the other goes to the trash")
    static let take = Option<FieldChoice>("--take", "KEY=SIDE", help: "take this field (or body) from the file or the copy; once per field that differs")
    static let dir = Positional("DIR", at: 0)
    static let copy = Positional("COPY", at: 1)
    static let arguments = ArgumentSpec(
        flags: [merge], options: [keep.info, take.info, SharedOptions.state.info], forms: [[dir, copy]], positionalNames: "DIR and COPY")

    /// Why a resolve stopped, with the exit status it means.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var status: Int32 = ExitCode.problems
    }

    /// What to do with the copy.
    enum Choice: Equatable { case show, keepFile, keepCopy, merge, take([String: ConflictResolution.Side]) }

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let state = try SharedOptions.stateDirectory(arguments)
        let choice: Choice
        let taken = try arguments.values(of: take)
        switch (try arguments.value(of: keep), arguments.isSet(merge), taken.isEmpty) {
        case (nil, false, true): choice = .show
        case (nil, true, true): choice = .merge
        case (nil, false, false): choice = .take(Dictionary(taken.map { ($0.key, $0.side) }) { $1 })
        case (let kept?, false, true):
            choice = kept == .file ? .keepFile : .keepCopy
        default:
            Output.error("folio resolve: choose one of --keep, --merge and --take")
            return ExitCode.usage
        }
        do {
            let (root, copy) = try locate(arguments.value(of: Self.copy), in: arguments.value(of: dir))
            let names = ConflictCopyNames.declared(inFolderAt: root)
            guard let original = names.originalOfAnyCopy(copy) else {
                throw Failure(description: "\(copy) is not a conflict copy (see folio conflicts \(arguments.value(of: dir)))", status: ExitCode.usage)
            }
            if choice == .show { return try show(copy, of: original, in: root) }
            var options = FoldOptions()
            options.stateDirectory = state
            // Not a dry run: the state's lock keeps a folio watch from folding this copy meanwhile.
            let folder: SharedFolder
            do { folder = try SharedFolder(root, options: options) } catch { throw Failure(description: "\(error)", status: ExitCode.of(error)) }
            return try ConflictResolution(folder: folder, copy: copy, file: original).settle(choice, display: arguments.value(of: dir))
        } catch let failure as Failure {
            Output.error("folio resolve: \(failure)")
            return failure.status
        } catch let error as SystemError {
            // Said of the copy the user named, never of Folio's temporary file.
            Output.error("folio resolve: cannot settle \(arguments.value(of: Self.copy)): " + FileProblem.advice(error, writing: true, then: "resolve again"))
            return ExitCode.of(error)
        } catch {
            Output.error("folio resolve: \(error)")
            return ExitCode.of(error)
        }
    }

    /// The folder (absolute, links resolved) and `copy` relative to it; `copy` may be
    /// relative to `folder` or absolute, and must be inside it.
    static func locate(_ copy: String, in folder: String) throws(Failure) -> (root: String, copy: String) {
        do {
            let (root, path) = try RelativePath.named(copy, in: folder)
            return (root, path.string)
        } catch {
            switch error {
            case .folderMissing:
                throw Failure(description: "\(folder): the folder is missing", status: ExitCode.usage)
            case .noSuchFile:
                throw Failure(description: "\(copy): no such file in \(folder) (folio conflicts \(folder) lists the copies)", status: ExitCode.usage)
            case .outside:
                throw Failure(description: "\(copy) is not inside \(folder): name a copy in DIR", status: ExitCode.usage)
            }
        }
    }

    /// Prints how `copy` differs from `original`: field by field, then the body's lines.
    @MainActor static func show(_ copy: String, of original: String, in root: String) throws -> Int32 {
        let folder = try RootedFolder(root)
        let copyBytes = try FileReading.contents(of: folder[copy])
        guard let fileBytes = try AtomicFile.contentsIfPresent(folder[original]) else {
            Output.print("\(original) is gone; --keep copy puts the copy back as \(original)")
            return ExitCode.success
        }
        let difference = ConflictDifference(file: fileBytes, copy: copyBytes)
        if difference.isEmpty {
            Output.print("the copy is the same as the file")
            return ExitCode.success
        }
        for field in difference.fields {
            Output.print("\(field.key): file \(field.file.map(ChangeReport.display) ?? "(none)") | copy \(field.copy.map(ChangeReport.display) ?? "(none)")")
        }
        for line in difference.lines {
            switch line {
            case .removed(let text): Output.print("-" + text)
            case .added(let text): Output.print("+" + text)
            }
        }
        return ExitCode.success
    }
}
