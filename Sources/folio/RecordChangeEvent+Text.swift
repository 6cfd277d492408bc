import FolioStore

extension RecordChangeEvent {
    /// `updated recipes/carbonara.md: time 15m → 20m`, and the like.
    var sentence: String {
        switch self {
        case .moved(let from, let to, let title, _):
            let what = [kindText, title.map(shown)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            return "moved \(shown(from)) → \(shown(to))" + (what.isEmpty ? "" : ": \(what)")
        case .removed(let path): return "removed \(shown(path))"
        case .invalid(_, let error): return "invalid \(shown(Self.text(of: error)))"
        case .settingsChanged: return "settings changed (\(shown(Settings.fileName)))"
        case .added(let path, let title): return "added \(shown(path)): \(shown(title))"
        case .updated(let path, _, let changes):
            guard !changes.isEmpty else { return "updated \(shown(path)): body changed" }
            let parts = changes.map { change -> String in
                switch (change.old, change.new) {
                case (let old?, let new?): return "\(change.key) \(ChangeReport.display(old)) → \(ChangeReport.display(new))"
                case (nil, let new?): return "\(change.key) added: \(ChangeReport.display(new))"
                default: return "\(change.key) removed"
                }
            }
            return "updated \(shown(path)): " + parts.joined(separator: ", ")
        }
    }

    /// A moved record's kind as told: its kind, `invalid` when its file does not parse,
    /// nil when the store no longer holds it.
    var kindText: String? {
        guard case .moved(_, _, _?, let kind) = self else { return nil }
        return kind?.rawValue ?? "invalid"
    }
}
