import Foundation
import FolioFormat
import FolioModel

extension Reducer {
    /// What the disk holds now (the watcher, the sync, a re-read): the state follows it.
    static func matchDisk(_ change: DiskChange, _ state: inout StoreState, _ outcome: inout Outcome) {
        switch change {
        case .fileChanged(let path, let bytes):
            // Paths are keyed as Strings, which equate NFC and NFD spellings: a file now
            // spelled otherwise is another file, the one held removed (by its spelling).
            if let held = state[path], !held.path.utf8.elementsEqual(path.utf8) {
                outcome.changes.append(reduce(&state, .fileRemoved(path: held.path), contents: [:]).changes)
            }
            if state[path]?.fingerprint == Fingerprint(bytes) { break }
            let existed = state[path] != nil
            state.put(StoreState.prepare(path: path, bytes: bytes, folders: state.kindRules.folders), bytes: bytes)
            if existed { outcome.changes.updated.append(path) } else { outcome.changes.added.append(path) }
        case .fileMoved(let from, let to, let bytes):
            guard let held = state[from]?.path, state[to] == nil else {
                // Not a plain move as the state stands: a removal and a change say the same.
                outcome.changes.append(reduce(&state, .fileRemoved(path: from), contents: [:]).changes)
                outcome.changes.append(reduce(&state, .fileChanged(path: to, bytes: bytes), contents: [:]).changes)
                break
            }
            state.remove(from)
            state.put(StoreState.prepare(path: to, bytes: bytes, folders: state.kindRules.folders), bytes: bytes)
            outcome.changes.moved.append(.init(from: held, to: to))
        case .fileRemoved(let path):
            if let held = state[path] {
                state.remove(path)
                // Said by the spelling held, which is the one listeners know.
                outcome.changes.removed.append(held.path)
            }
        case .settingsFileChanged(let bytes):
            // Known gap: a folio.yaml that does not parse means the defaults, unreported; the reducer has no warning for a file it does not own as a record.
            let document = bytes.flatMap { try? Document(yamlBytes: $0, path: Settings.fileName) }
            let settings = document.map(Settings.init) ?? Settings()
            state.kindRules.declared = document.map(DeclaredKinds.init) ?? DeclaredKinds()
            state.settingsBytes = bytes
            let keys = settings.changedKeys(from: state.settings)
            state.settings = settings
            if !keys.isEmpty {
                outcome.changes.settingsChanged = true
                outcome.changes.settingKeys = keys
            }
        }
    }
}
