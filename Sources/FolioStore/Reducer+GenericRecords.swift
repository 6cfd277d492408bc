import FolioFormat
import FolioModel
import FolioSystem

/// The actions that work on a record of any kind: an app's own kinds go through these.
extension Reducer {
    /// ``RecordAction/addRecord(kind:fields:body:name:folder:)``.
    static func addRecord(
        _ kind: Kind, fields: YAMLMapping, body: String, name: String?, folder: String, _ state: inout StoreState, _ outcome: inout Outcome
    ) {
        var fields = fields
        // A file in `books/` is a note unless it says otherwise: the kind goes first. Only
        // a folder the folder's own folio.yaml declares says it for every reader; an app's
        // registration lives in the app, so its records say their kind.
        if fields.first(where: { $0.key == "kind" }) == nil && Kind.of(path: folder + "/x.md", folders: state.kindRules.declared.folders) != kind {
            fields.entries.insert(.init(key: "kind", value: .string(kind.rawValue)), at: 0)
        }
        guard RelativePath(folder).staysInside else {
            return outcome.errors.append(StoreError(.invalidEdit, path: nil, "'\(folder)' is not a folder below the store's: give a path such as runs/2026"))
        }
        var named: (stem: String, extension: String)?
        if let name {
            guard let file = fileName(name) else {
                return outcome.errors.append(StoreError(.invalidEdit, path: nil, "'\(name)' is not a file name a record can have: give a name without '/', not starting with '.'"))
            }
            named = file
        }
        let stem = ["title", "name", "text"].lazy.compactMap { key in fields.first { $0.key == key }?.value.text }.first { !$0.isEmpty } ?? ""
        let document: Document
        do { document = try Document(fields: fields, body: body) } catch {
            return outcome.errors.append(StoreError(.invalidEdit, path: nil, "\(error)"))
        }
        let problems = state.kindRules.problems(in: document, kind: kind, path: folder)
        guard accepts(problems, adding: kind.rawValue, &outcome) else { return }
        create(String(stem.prefix(60)), named: named, in: folder, in: &state, &outcome) { document }
    }

    /// ``RecordAction/updateFields(path:setting:removing:)``.
    static func updateFields(
        _ path: String, setting: YAMLMapping, removing: [String], body: String?, _ state: inout StoreState, _ contents: [String: [UInt8]],
        _ outcome: inout Outcome
    ) {
        // Only the kind rules are taken: a copy of the state would make the edit copy it whole.
        let rules = state.kindRules
        edit(path, in: &state, contents, &outcome) { document in
            var updated = document
            for entry in setting { try updated.setValue(entry.value, forKey: entry.key) }
            for key in removing { try updated.removeValue(forKey: key) }
            if let body, body != updated.body { try updated.setBody(body) }
            let (kind, brought) = rules.problems(broughtBy: updated, over: document, at: path)
            guard brought.isEmpty else { throw RefusedEdit(problems: brought, kind: kind) }
            return updated
        }
    }

    /// ``RecordAction/replaceContent(path:bytes:expecting:)``.
    static func replaceContent(
        _ path: String, with bytes: [UInt8], expecting: Fingerprint, _ state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome
    ) {
        guard let record = state[path] else { return outcome.errors.append(.noSuchRecord(path)) }
        // The app's check: what it was shown is what the store holds (else another edit came first).
        guard record.fingerprint == expecting else { return outcome.errors.append(.changedOnDisk(path)) }
        let document: Document
        do { document = try Document(bytes: bytes, path: path) } catch {
            return outcome.errors.append(StoreError(.invalidEdit, path: path, "the new content does not parse, so nothing was written: \(error)"))
        }
        guard Fingerprint(bytes) != record.fingerprint else { return }
        // Without the bytes it held (not given), the new content is compared with none. They
        // parsed when read: were they not to now, nothing is compared either.
        let old = (state.heldBytes(of: record) ?? contents[path]).flatMap { try? Document(bytes: $0, path: path) }
        let (kind, brought) = state.kindRules.problems(broughtBy: document, over: old, at: path)
        guard accepts(brought, saving: kind.rawValue, at: path, &outcome) else { return }
        state.put(StoreState.prepare(path: path, bytes: bytes, folders: state.kindRules.folders), bytes: bytes)
        outcome.changes.updated.append(path)
        outcome.effects.append(.write(path: path, bytes: bytes, replacing: record.fingerprint))
    }
}

extension Reducer {
    /// Reads the records in `contents` again with the folders' kinds as they are now
    /// (a kind was declared or registered, or its folder changed): those whose kind
    /// changed are updated. `contents` holds their bytes (read at the edge); a file whose
    /// bytes are no longer its record's is left for the watcher.
    public static func rekind(_ state: inout StoreState, contents: [String: [UInt8]]) -> ChangeSet {
        var changes = ChangeSet()
        let folders = state.kindRules.folders
        for (path, bytes) in contents.sorted(by: { $0.key < $1.key }) {
            guard let held = state[path], Fingerprint(bytes) == held.fingerprint else { continue }
            let prepared = StoreState.prepare(path: path, bytes: bytes, folders: folders)
            guard prepared.0.kind != held.kind else { continue }
            state.put(prepared, bytes: bytes)
            // The bytes are the file's already: nothing is to be written.
            state.clearPending(path, ifStill: bytes)
            changes.updated.append(path)
        }
        return changes
    }
}

/// An edit that would give a record validation problems: refused with them.
struct RefusedEdit: Error, CustomStringConvertible {
    var problems: [String]
    var kind: Kind
    var description: String { "cannot save the \(kind.rawValue): " + problems.joined(separator: "; ") }
}
