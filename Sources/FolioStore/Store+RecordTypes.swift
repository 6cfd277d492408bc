import FolioFormat
import FolioModel

/// An app's own record types: registered, listed, added and updated by value.
extension Store {
    /// Registers `type`: the reducer refuses an add or update of its kind that it
    /// refuses (``RecordType/problems``, or a document it cannot read), and
    /// ``list(of:)`` keeps its records.
    public func register<R: RecordType>(_ type: R.Type) {
        let folders = state.kindRules.folders
        state.kindRules.registered[R.kind] = RegisteredKind(type)
        tell(rekind(from: folders))
        refreshRegisteredLists([R.kind])
        refreshProblems(nil)
    }

    /// The records of a registered type that parse, by title then path: kept, and
    /// worked out again only when a change touches one (observed like ``recipes``).
    /// Empty for a type not registered.
    public func list<R: RecordType>(of type: R.Type) -> [Record] {
        // The built-in kinds need no registration; their lists are worked out when asked.
        registeredLists[R.kind] ?? state.listed(R.kind).sorted { ($0.title, $0.path) < ($1.title, $1.path) }
    }

    /// The record at `path` read as `type`; nil when there is none, it is of another
    /// kind, its file no longer holds what the store read, or it is not one (``RecordType/problems(in:)`` says why).
    public func value<R: RecordType>(_ type: R.Type, at path: String) -> R? {
        (try? heldDocument(R.self, at: path).get()).flatMap { try? R(document: $0.document) }
    }

    /// Adds `record` as a new file in its type's folder, named from its title, never
    /// replacing a file.
    @discardableResult
    public func add<R: RecordType>(_ record: R) async -> ActionResult {
        await add(record, name: nil, folder: R.folder)
    }

    /// Adds `record` as a new file named `name` (`.md` added when it has no extension;
    /// `-2`, `-3`… before it when taken: never replacing a file), in `folder` (a path
    /// below the store's root; default the type's folder).
    @discardableResult
    public func add<R: RecordType>(_ record: R, named name: String, in folder: String? = nil) async -> ActionResult {
        await add(record, name: name, folder: folder ?? R.folder)
    }

    /// Adds `record` as a new file in `folder` (a path below the store's root), named
    /// from its title, never replacing a file.
    @discardableResult
    public func add<R: RecordType>(_ record: R, in folder: String) async -> ActionResult {
        await add(record, name: nil, folder: folder)
    }

    private func add<R: RecordType>(_ record: R, name: String?, folder: String?) async -> ActionResult {
        do {
            let document = try record.newDocument()
            return await dispatch(.records(.addRecord(kind: R.kind, fields: document.fields, body: document.body, name: name, folder: folder)))
        } catch {
            return ActionResult(refusing: [StoreError(.invalidRecord, path: nil, "cannot write the \(R.kind): \(error)")])
        }
    }

    /// Writes into the file at `path` only the fields of `record` that differ from what
    /// the file holds (and its body, when it has one of its own that differs), removing
    /// the fields it no longer has: one guarded write, refused when the file changed
    /// since the store read it. Fields the type does not know stay as they are.
    @discardableResult
    public func update<R: RecordType>(_ record: R, at path: String) async -> ActionResult {
        switch heldDocument(R.self, at: path) {
        case .success(let held): await update(record, at: path, held: held)
        case .failure(let error): ActionResult(refusing: [error])
        }
    }

    /// ``update(_:at:)`` of the record the store holds at `path`, read already.
    private func update<R: RecordType>(_ record: R, at path: String, held: (record: Record, document: Document)) async -> ActionResult {
        let updated: Document
        do { updated = try record.updating(held.document) } catch {
            return ActionResult(refusing: [StoreError(.invalidRecord, path: path, "cannot write the \(R.kind): \(error)")])
        }
        // Checked again against the file by the reducer and at the write: an edit saved meanwhile stays.
        return await dispatch(.records(.replaceContent(path: path, bytes: updated.bytes, expecting: held.record.fingerprint)))
    }

    /// Reads the record at `path` as `type`, lets `change` edit it, and writes what
    /// changed (``update(_:at:)``): `store.update(Item.self, at: path) { $0.done.toggle() }`.
    /// Refused, with why, when there is no such record or it does not read as `type`.
    @discardableResult
    public func update<R: RecordType>(_ type: R.Type, at path: String, _ change: (inout R) -> Void) async -> ActionResult {
        let held: (record: Record, document: Document)
        var value: R
        do {
            held = try heldDocument(R.self, at: path).get()
            value = try R(document: held.document)
        } catch let error as StoreError {
            return ActionResult(refusing: [error])
        } catch {
            return ActionResult(refusing: [StoreError(.invalidRecord, path: path, "cannot read it as a \(R.kind): \(RecordReadError.describe(error)); nothing was changed")])
        }
        change(&value)
        // The document just read serves the write: the file is not read and parsed twice.
        return await update(value, at: path, held: held)
    }

    /// The record at `path` and its document, when it is one of `R`'s kind as the store read it.
    private func heldDocument<R: RecordType>(_ type: R.Type, at path: String) -> Result<(record: Record, document: Document), StoreError> {
        guard let held = state[path] else { return .failure(.noSuchRecord(path)) }
        if let error = held.error { return .failure(.unparseable(path, error)) }
        guard held.kind == R.kind else {
            return .failure(StoreError(.wrongKind, path: path, "this is a \(held.kind.rawValue), not a \(R.kind.rawValue): nothing was changed"))
        }
        guard let document = state.document(of: held) else { return .failure(.changedOnDisk(path)) }
        return .success((held, document))
    }

    /// The records whose kind a change of the folders' kinds (from `old`) may change,
    /// read again (their bytes read here, at the edge): what changed.
    func rekind(from old: [String: Kind]) -> ChangeSet {
        let new = state.kindRules.folders
        guard new != old else { return ChangeSet() }
        var contents: [String: [UInt8]] = [:]
        for path in state.paths where Kind.of(path: path, folders: old) != Kind.of(path: path, folders: new) {
            if let record = state[path], let bytes = state.contents(of: record) { contents[path] = bytes }
        }
        return Reducer.rekind(&state, contents: contents)
    }

    /// Works out again the lists of the registered `kinds`.
    func refreshRegisteredLists(_ kinds: Set<Kind>) {
        for kind in kinds where state.kindRules.registered[kind] != nil {
            let list = state.listed(kind).sorted { ($0.title, $0.path) < ($1.title, $1.path) }
            let old = registeredLists[kind] ?? []
            guard list != old else { continue }
            // As for the built-in lists: a record's list is known, so that its removal touches it.
            for record in old where listed[record.path] == kind { listed[record.path] = nil }
            for record in list { listed[record.path] = kind }
            registeredLists[kind] = list
        }
    }
}
