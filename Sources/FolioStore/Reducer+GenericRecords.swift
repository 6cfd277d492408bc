import FolioFormat
import FolioModel

/// The actions that work on a record of any kind: an app's own kinds go through these.
extension Reducer {
    /// ``RecordAction/addRecord(kind:fields:body:name:)``.
    static func addRecord(
        _ kind: Kind, fields: YAMLMapping, body: String, name: String?, folder: String, _ state: inout StoreState, _ outcome: inout Outcome
    ) {
        var fields = fields
        // A file in `books/` is a note unless it says otherwise: the kind goes first.
        if fields.first(where: { $0.key == "kind" }) == nil && Kind.of(path: folder + "/x.md") != kind {
            fields.entries.insert(.init(key: "kind", value: .string(kind.rawValue)), at: 0)
        }
        let stem = name ?? ["title", "name", "text"].lazy.compactMap { key in fields.first { $0.key == key }?.value.text }.first { !$0.isEmpty } ?? ""
        let document: Document
        do { document = try Document(fields: fields, body: body) } catch {
            return outcome.errors.append(StoreError(.invalidEdit, path: nil, "\(error)"))
        }
        let problems = state.registeredKinds.problems(in: document, kind: kind, path: folder)
        guard accepts(problems, adding: kind.rawValue, &outcome) else { return }
        create(String(stem.prefix(60)), in: folder, in: &state, &outcome) { document }
    }

    /// ``RecordAction/updateFields(path:setting:removing:)``.
    static func updateFields(
        _ path: String, setting: YAMLMapping, removing: [String], body: String?, _ state: inout StoreState, _ contents: [String: [UInt8]],
        _ outcome: inout Outcome
    ) {
        // Only the registrations are taken: a copy of the state would make the edit copy it whole.
        let registered = state.registeredKinds
        edit(path, in: &state, contents, &outcome) { document in
            var updated = document
            for entry in setting { try updated.setValue(entry.value, forKey: entry.key) }
            for key in removing { try updated.removeValue(forKey: key) }
            if let body, body != updated.body { try updated.setBody(body) }
            // What the record already had is no reason to refuse an edit (it may be the fix
            // of another field); only what this edit brings is.
            let kind = Kind.of(updated, path: path)
            let before = Set(registered.problems(in: document, kind: Kind.of(document, path: path), path: path))
            let brought = registered.problems(in: updated, kind: kind, path: path).filter { !before.contains($0) }
            guard brought.isEmpty else { throw RefusedEdit(problems: brought, kind: kind) }
            return updated
        }
    }

    /// ``RecordAction/replaceContent(path:bytes:expecting:)``.
    static func replaceContent(
        _ path: String, with bytes: [UInt8], expecting: Fingerprint, _ state: inout StoreState, _ outcome: inout Outcome
    ) {
        guard let record = state[path] else { return outcome.errors.append(.noSuchRecord(path)) }
        // The app's check: what it was shown is what the store holds (else another edit came first).
        guard record.fingerprint == expecting else { return outcome.errors.append(.changedOnDisk(path)) }
        do { _ = try Document(bytes: bytes, path: path) } catch {
            return outcome.errors.append(StoreError(.invalidEdit, path: path, "the new content does not parse, so nothing was written: \(error)"))
        }
        guard Fingerprint(bytes) != record.fingerprint else { return }
        state.put(StoreState.prepare(path: path, bytes: bytes), bytes: bytes)
        outcome.changes.updated.append(path)
        outcome.effects.append(.write(path: path, bytes: bytes, replacing: record.fingerprint))
    }
}

/// An edit that would give a record validation problems: refused with them.
struct RefusedEdit: Error, CustomStringConvertible {
    var problems: [String]
    var kind: Kind
    var description: String { "cannot save the \(kind.rawValue): " + problems.joined(separator: "; ") }
}
