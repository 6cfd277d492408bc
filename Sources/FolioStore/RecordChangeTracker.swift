import FolioFormat
import FolioSystem

/// Tells a store's changes as ``RecordChangeEvent``s, with the fields each update
/// changed: it remembers the front matter of every valid record as last told, since the
/// store keeps only fingerprints and the file as it was is gone once it changed. One
/// follows a store for as long as its changes are told (`folio watch`).
package struct RecordChangeTracker: Sendable {
    /// The front matter of a valid record as last told: parsed, or as the bytes of its
    /// front-matter block (what the load read), parsed only when the record changes.
    private enum Remembered: Sendable {
        case fields(YAMLMapping)
        case frontMatter([UInt8])
    }

    private var remembered: [String: Remembered] = [:]

    /// Remembers the front matter of every record of `state`: from `reads` (the files as
    /// the store's load read them), cut on every core to their front-matter blocks and
    /// parsed only when a record changes, or read again through the state's source (it
    /// keeps fingerprints) without them.
    package init(state: StoreState, reads: [FileRead] = []) {
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
    static func frontMatterBlock(of bytes: [UInt8]) -> [UInt8] {
        let layout = bytes.withUnsafeBufferPointer { try? FrontMatter.layout(of: $0) }
        guard let end = layout?.closer?.upperBound else { return [] }
        return Array(bytes[..<end])
    }

    /// The fields last told for `path` (none for a record not known or not valid).
    private func fields(at path: String) -> YAMLMapping {
        switch remembered[path] {
        case .fields(let fields): return fields
        case .frontMatter(let block): return (try? Document(bytes: block, path: path))?.fields ?? YAMLMapping()
        case nil: return YAMLMapping()
        }
    }

    /// The events that tell `changes`, read against `state` (the store's state now, which
    /// may be past them): the moves, the removals, the additions, the updates, then the
    /// settings. What is remembered follows, for the next changes.
    package mutating func events(for changes: ChangeSet, in state: StoreState) -> [RecordChangeEvent] {
        var events: [RecordChangeEvent] = []
        for move in changes.moved {
            remembered[move.to] = remembered.removeValue(forKey: move.from)
            // A move can change both: a note's title is its file name, the kind comes from the folder.
            let record = state[move.to]
            events.append(.moved(from: move.from, to: move.to, title: record?.title, kind: record.flatMap { $0.isValid ? $0.kind : nil }))
        }
        for path in changes.removed {
            remembered[path] = nil
            events.append(.removed(path: path))
        }
        for (path, isNew) in changes.added.map({ ($0, true) }) + changes.updated.map({ ($0, false) }) {
            // Gone since: its removal is in a later change set.
            guard let record = state[path] else { continue }
            if let error = record.error {
                remembered[path] = nil
                events.append(.invalid(path: path, error: error))
                continue
            }
            let new = state.fields(of: record)
            events.append(isNew ? .added(path: path, title: record.title) : .updated(path: path, title: record.title, changes: Self.differences(from: fields(at: path), to: new)))
            remembered[path] = .fields(new)
        }
        if changes.settingsChanged { events.append(.settingsChanged) }
        return events
    }

    /// The keys whose values differ, in the new order, then the removed keys: the order
    /// FolioMerge's `ConflictDifference.fields` gives a copy's fields, which the store
    /// cannot call (it does not depend on the merge).
    package static func differences(from old: YAMLMapping, to new: YAMLMapping) -> [RecordChangeEvent.FieldChange] {
        new.entries.filter { old[$0.key] != $0.value }.map { RecordChangeEvent.FieldChange(key: $0.key, old: old[$0.key], new: $0.value) }
            + old.entries.filter { new[$0.key] == nil }.map { RecordChangeEvent.FieldChange(key: $0.key, old: $0.value, new: nil) }
    }
}
