import FolioFormat
import FolioMerge
import FolioStore
import FolioSystem

/// How `folio watch` tells what changed: one line per change, in words or as JSON,
/// with the fields that changed (the front matter of each record is remembered, since
/// the store keeps only fingerprints and the old file is gone).
@MainActor
struct ChangeReport {
    /// The front matter of each valid record as last reported: parsed, or as the bytes
    /// of its front-matter block (what the load read), parsed only when the record changes.
    private enum Remembered {
        case fields(YAMLMapping)
        case frontMatter([UInt8])
    }

    private var remembered: [String: Remembered] = [:]

    /// Remembers the front matter of every record of `store`: from `reads` (the files as
    /// the store's load read them), cut on every core to their front-matter blocks and
    /// parsed only when a record changes, or read again from disk (the store keeps
    /// fingerprints) without them.
    init(store: Store, reads: [FileRead] = []) {
        let state = store.state
        if reads.isEmpty {
            let found = Array(state.records.values.filter(\.isValid)).mapOnEveryCore { run in run.map { (path: $0.path, fields: state.fields(of: $0)) } }
            for read in found { remembered[read.path] = .fields(read.fields) }
            return
        }
        let found = reads.mapOnEveryCore { run in
            run.compactMap { read -> (path: String, block: [UInt8])? in
                guard let record = state[read.path], record.isValid else { return nil }
                return (path: read.path, block: Self.frontMatterBlock(of: read.bytes))
            }
        }
        for read in found { remembered[read.path] = .frontMatter(read.block) }
    }

    /// The bytes of a file up to the end of its front matter (none without one).
    nonisolated static func frontMatterBlock(of bytes: [UInt8]) -> [UInt8] {
        let layout = bytes.withUnsafeBufferPointer { try? FrontMatter.layout(of: $0) }
        guard let end = layout?.closer?.upperBound else { return [] }
        return Array(bytes[..<end])
    }

    /// The fields last reported for `path` (none for a record not known or not valid).
    private func fields(at path: String) -> YAMLMapping {
        switch remembered[path] {
        case .fields(let fields): return fields
        case .frontMatter(let block): return (try? Document(bytes: block, path: path))?.fields ?? YAMLMapping()
        case nil: return YAMLMapping()
        }
    }

    /// The lines that report `changes` (text, or JSON objects with `json`).
    mutating func lines(for changes: ChangeSet, in store: Store, json: Bool) -> [String] {
        var events: [YAMLMapping] = []
        for move in changes.moved {
            remembered[move.to] = remembered.removeValue(forKey: move.from)
            // A move can change both: a note's title is its file name, the kind comes from the folder.
            var event: YAMLMapping = ["event": .string("moved"), "from": .string(move.from), "to": .string(move.to)]
            if let record = store.state[move.to] {
                event["title"] = .string(record.title)
                event["kind"] = .string(record.isValid ? record.kind.rawValue : "invalid")
            }
            events.append(event)
        }
        for path in changes.removed {
            remembered[path] = nil
            events.append(["event": .string("removed"), "path": .string(path)])
        }
        for (path, kind) in changes.added.map({ ($0, "added") }) + changes.updated.map({ ($0, "updated") }) {
            guard let record = store.state[path] else { continue }
            if let error = record.error {
                remembered[path] = nil
                events.append(["event": .string("invalid"), "path": .string(path), "error": .string("\(error.location): \(error.message)")])
                continue
            }
            let new = store.state.fields(of: record)
            var event: YAMLMapping = ["event": .string(kind), "path": .string(path), "title": .string(record.title)]
            if kind == "updated" { event["changes"] = .sequence(Self.differences(from: fields(at: path), to: new)) }
            remembered[path] = .fields(new)
            events.append(event)
        }
        if changes.settingsChanged { events.append(["event": .string("settings"), "path": .string(Settings.fileName)]) }
        return events.map { json ? YAMLValue.mapping($0).json(indent: nil) : Self.sentence($0) }
    }

    /// The keys whose values differ, in the new order, then the removed keys.
    static func differences(from old: YAMLMapping, to new: YAMLMapping) -> [YAMLValue] {
        ConflictDifference.fields(from: old, to: new).map { field in
            var change: YAMLMapping = ["key": .string(field.key)]
            if let value = field.copy { change["new"] = value }
            if let before = field.file { change["old"] = before }
            return .mapping(change)
        }
    }

    /// `updated recipes/carbonara.md: time 15m → 20m`, and the like.
    static func sentence(_ event: YAMLMapping) -> String {
        let kind = event["event"]?.text ?? ""
        let path = shown(event["path"]?.text ?? "")
        switch kind {
        case "moved":
            let what = [event["kind"]?.text, event["title"]?.text.map(shown)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            return "moved \(shown(event["from"]?.text ?? "")) → \(shown(event["to"]?.text ?? ""))" + (what.isEmpty ? "" : ": \(what)")
        case "removed": return "removed \(path)"
        case "invalid": return "invalid \(event["error"]?.text.map(shown) ?? path)"
        case "settings": return "settings changed (\(path))"
        case "added": return "added \(path): \(shown(event["title"]?.text ?? ""))"
        default:
            let changes = event["changes"]?.sequenceValue ?? []
            guard !changes.isEmpty else { return "updated \(path): body changed" }
            let parts = changes.compactMap(\.mappingValue).map { change -> String in
                let key = change["key"]?.text ?? ""
                switch (change["old"], change["new"]) {
                case (let old?, let new?): return "\(key) \(display(old)) → \(display(new))"
                case (nil, let new?): return "\(key) added: \(display(new))"
                default: return "\(key) removed"
                }
            }
            return "updated \(path): " + parts.joined(separator: ", ")
        }
    }

    /// A value as a person reads it: scalars as they are, collections as JSON.
    static func display(_ value: YAMLValue) -> String {
        switch value {
        case .string(let text), .timestamp(let text): return text
        case .mapping, .sequence: return value.json(indent: nil)
        default: return value.text ?? value.json(indent: nil)
        }
    }
}
