import FolioFolder
import FolioShared
import FolioSync
import FolioVersions

extension ConflictResolution {
    /// Carries out `choice` and says what was done; `display` is the folder as the user
    /// named it, for the commands the messages suggest. A failure is thrown as
    /// ``ResolveCommand/Failure``, worded for the command line.
    func settle(_ choice: ResolveCommand.Choice, display: String) throws -> Int32 {
        let outcome: Outcome
        do {
            switch choice {
            case .keepFile: outcome = try settle(.keepFile)
            case .keepCopy: outcome = try settle(.keepCopy)
            case .merge, .show: outcome = try settle(.merge)
            case .take(let choices):
                let fromCopy = try take(choices)
                let taken = fromCopy.isEmpty ? "nothing from the copy" : fromCopy.joined(separator: ", ") + " from the copy"
                Output.print("took \(taken), the rest from \(file); the file's former content and \(copy) are in the trash (folio restore \(display) lists them)")
                return ExitCode.success
            }
        } catch let failure as Failure {
            throw ResolveCommand.Failure(description: describe(failure, display: display))
        } catch let failure as FieldChoiceFailure {
            throw ResolveCommand.Failure(description: "cannot settle \(copy): \(failure)", status: failure.unreadable == nil ? ExitCode.usage : ExitCode.problems)
        }
        switch outcome {
        case .keptFile:
            Output.print("kept \(file); \(copy) is in the trash (folio restore \(display) \(copy) brings it back)")
        case .keptCopy:
            Output.print("put \(copy) in \(file); the file's former content and the copy are in the trash (folio restore \(display) lists them)")
        case .copyHeldTheFile:
            Output.print("\(copy) held what \(file) holds; it is in the trash")
        case .merged(let base, let conflicts):
            let summary = "merged \(copy) into \(file) (base: \(base.rawValue)); the copy is in the trash"
            guard conflicts > 0 else {
                Output.print(summary)
                return ExitCode.success
            }
            Output.print(summary + "\n\(conflicts) conflict\(conflicts == 1 ? "" : "s") marked in \(file) between <<<<<<< and >>>>>>>: edit \(conflicts == 1 ? "it" : "them") away")
            return ExitCode.problems
        }
        return ExitCode.success
    }

    /// What went wrong, and what to do.
    private func describe(_ failure: Failure, display: String) -> String {
        switch failure {
        case .fileGone:
            "\(file) is gone, so there is nothing to merge into: --keep copy puts the copy back as \(file)"
        case .noBase:
            "cannot merge \(copy): no earlier version of \(file) is known to serve as the base; "
                + "see how they differ (folio resolve \(display) \(copy)), then --keep file, --keep copy, or --take KEY=file|copy for each field that differs"
        case .changed(let path):
            "\(path) changed while it was being resolved; look again (folio resolve \(folder.root) \(copy))"
        }
    }
}
