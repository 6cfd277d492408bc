import FolioFormat
import FolioModel

/// Every problem in the folder, placed in its file.
extension Store {
    /// Every problem in the folder, in path order then the file's order, each with its
    /// `path:line:col`: files that do not parse, what `folio.yaml`'s `kinds:` declares
    /// wrong, values a record's kind refuses — the built-in rules, `folio.yaml`'s
    /// declaration, a registered ``RecordType``'s own ``RecordType/problems`` — and
    /// records that do not decode as their registered type (those stay in the lists as
    /// records: a problem here says why they cannot be read as the type). A kind both
    /// registered and declared gives one message per fault (``KindRules/locatedProblems(in:kind:path:)``).
    ///
    /// Worked out when first asked for (every file is read once more then), and kept
    /// current with each change after; observed like the lists: a view that shows them
    /// is redrawn when they change.
    public var problems: [Problem] {
        _ = problemsChanged
        if problemsByPath == nil {
            var all: [String: [Problem]] = [:]
            for path in Array(state.paths) + [Settings.fileName] {
                let found = problems(at: path)
                if !found.isEmpty { all[path] = found }
            }
            problemsByPath = all
        }
        return (problemsByPath ?? [:]).sorted { $0.key < $1.key }.flatMap(\.value)
    }

    /// The problems of the file at `path` (relative), as ``problems`` lists them.
    public func problems(at path: String) -> [Problem] {
        if path == Settings.fileName { return settingsProblems() }
        guard let record = state[path] else { return [] }
        if let error = record.error { return [Problem(error, path: path)] }
        guard let document = state.document(of: record) else { return [] }
        return state.kindRules.locatedProblems(in: document, kind: record.kind, path: path).map { Problem($0) }
    }

    /// What `folio.yaml` gets wrong: it does not parse, a declaration under `kinds:`
    /// cannot be used, or an entry of `conflictCopies:` is no pattern.
    private func settingsProblems() -> [Problem] {
        guard let bytes = state.settingsBytes else { return [] }
        do throws(FormatError) {
            return Settings.problems(in: try Document(yamlBytes: bytes, path: Settings.fileName), path: Settings.fileName)
        } catch {
            return [Problem(error, path: Settings.fileName)]
        }
    }

    /// Works the problems of `paths` out again (all, when nil: the kinds' rules changed),
    /// once they have been asked for; observers are told only when they changed.
    func refreshProblems(_ paths: [String]?) {
        guard var kept = problemsByPath else { return }
        let paths = paths ?? (Array(kept.keys) + state.paths + [Settings.fileName])
        for path in Set(paths) {
            let found = problems(at: path)
            kept[path] = found.isEmpty ? nil : found
        }
        guard kept != problemsByPath else { return }
        problemsByPath = kept
        problemsChanged += 1
    }
}
