import FolioFolder
import FolioFormat
import FolioSystem

extension StoreState {
    /// The actions that make the state hold what `snapshot` read: files changed or
    /// added, records gone from the paths and folders read, `folio.yaml`, and moves —
    /// a record gone from one path whose exact bytes appeared at a new path. Pure: the
    /// snapshot is the only view of the disk. Paths Folio never indexes (scratch
    /// files, `.git`) are skipped; what could not be read is left as it was.
    public func actions(toMatch snapshot: DiskSnapshot) -> [Action] {
        var present: [String: [UInt8]] = [:]
        var settings: [UInt8]?? = nil
        var goneUnder: [String] = []
        for (path, entry) in snapshot.entries {
            switch entry {
            case .file(let bytes):
                if path == Settings.fileName { settings = .some(bytes) } else if FolderRules.isRecordPath(path) { present[path] = bytes }
                goneUnder.append(path)
            case .folder(let files):
                present.merge(files.filter { FolderRules.isRecordPath($0.key) }) { _, new in new }
                goneUnder.append(path)
            case .missing:
                if path == Settings.fileName { settings = .some(nil) }
                goneUnder.append(path)
            case .unreadable:
                continue
            }
        }
        // What could not be read is left as it was, however its folder was read.
        let unreadable = snapshot.entries.compactMap { path, entry -> String? in
            if case .unreadable = entry { return path }
            return nil
        }
        var removed = Set(goneUnder.flatMap { recordPaths(under: $0) }).filter { path in
            present[path] == nil && !unreadable.contains { RelativePath.isAt(path, orBelow: $0) }
        }
        var actions: [Action] = []
        var changed: [(String, [UInt8])] = []
        // Paths are keyed as Strings, which equate NFC and NFD spellings: the same bytes
        // under the other spelling are another file (the reducer removes the one held).
        for (path, bytes) in present.sorted(by: { $0.key < $1.key })
        where self[path].map({ $0.fingerprint != Fingerprint(bytes) || !$0.path.utf8.elementsEqual(path.utf8) }) ?? true {
            changed.append((path, bytes))
        }
        // Moves: a removed record's exact bytes at a path the state does not know.
        var removedByFingerprint: [Fingerprint: [String]] = [:]
        for path in removed.sorted() { if let record = self[path] { removedByFingerprint[record.fingerprint, default: []].append(path) } }
        for (path, bytes) in changed {
            if self[path] == nil, var sources = removedByFingerprint[Fingerprint(bytes)], !sources.isEmpty {
                let from = sources.removeFirst()
                removedByFingerprint[Fingerprint(bytes)] = sources
                removed.remove(from)
                actions.append(.fileMoved(from: from, to: path, bytes: bytes))
            } else {
                actions.append(.fileChanged(path: path, bytes: bytes))
            }
        }
        actions += removed.sorted().map { .fileRemoved(path: $0) }
        if let settings, settings != settingsBytes { actions.append(.settingsFileChanged(bytes: settings)) }
        return actions
    }

    /// The paths of the records at `path` or under the folder `path` (`""`: all of them).
    public func recordPaths(under path: String) -> [String] {
        if path.isEmpty { return index.byRank.compactMap(index.path(of:)) }
        var found: [String] = self[path] != nil ? [path] : []
        let prefix = path + "/"
        // Paths are ranked in order, and the paths under a folder are one run of that order.
        var low = 0, high = index.byRank.count
        while low < high {
            let middle = (low + high) / 2
            if index.path(of: index.byRank[middle])! < prefix { low = middle + 1 } else { high = middle }
        }
        while low < index.byRank.count, let candidate = index.path(of: index.byRank[low]), candidate.hasPrefix(prefix) {
            found.append(candidate)
            low += 1
        }
        return found
    }
}
