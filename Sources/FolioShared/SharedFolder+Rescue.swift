import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

/// Versions the shared history proves the sync tool dropped, written back as copies.
extension SharedFolder {
    /// Writes back, as conflict copies, the versions of files with copies that the shared
    /// history proves the sync tool dropped (``VersionGraph/droppedVersions(of:madeBy:present:now:settled:)``).
    /// Syncthing can drop such a version: when several devices clash in one second, two
    /// losing versions get the same copy name and one overwrites the other.
    /// Returns the copies written.
    package func rescueDroppedVersions(_ copies: [String]) -> [String] {
        var byRoot: [String: [String]] = [:]
        for copy in copies { byRoot[copyNames.rootOriginal(of: copy) ?? copy, default: []].append(copy) }
        // And the files where this device lately saw a version of its own replaced by an
        // arrival: its copy may have been folded already, or never have been made.
        let now = options.clock.wallNanoseconds
        for path in history.graph.paths where copyNames.rootOriginal(of: path) == nil && byRoot[path] == nil
            && history.graph.events(device: history.device, path: path).contains(where: { $0.kind == .arrival && now - $0.time < Self.rescueWindow }) {
            byRoot[path] = []
        }
        var written: [String] = []
        for (file, group) in byRoot.sorted(by: { $0.key < $1.key }) {
            // What this device last saw of the file's copies is brought up to date first: a
            // copy someone removed is a removal, never a version to write back.
            for path in history.graph.copyPaths(of: file) where !group.contains(path) {
                if let last = history.graph.latest(device: history.device, path: path), last.kind != .delete { observe(path, time: now) }
            }
            // A file that cannot be read holds no known version: at worst a version it does hold is rescued again as a copy, which folds back as identical.
            let present = Set(([file] + group).compactMap { (try? FileReading.contents(of: rootFolder[$0])).map(SHA256.hash) })
            let device = history.device
            for dropped in history.withGraph({ $0.droppedVersions(of: file, madeBy: device, present: present, now: now, settled: history.otherDevices.isEmpty ? Self.dropSettledAlone : Self.dropSettled) }) {
                guard let content = history.graph.events[dropped]?.version, let bytes = history.contents(of: content) else { continue }
                // A probe for a free name: the write below never replaces what is there.
                let name = Self.rescueName(for: file, taken: { (try? FileStamp.of(self.rootFolder[$0])) != nil })
                // As private as the file it is a version of; with no file to look at, a new file's mode.
                let mode = (try? FileStamp.of(rootFolder[file]))?.permissions ?? 0o666
                // Not written now, the dropped version stays in the shared history and is rescued at the next pass.
                guard (try? AtomicFile.write(bytes, to: rootFolder[name], mode: nil, creating: mode & 0o777) { $0 == nil }) == true else { continue }
                history.log(.restore, path: name, version: content, parents: [dropped], time: options.clock.wallNanoseconds)
                written.append(name)
            }
        }
        // The events stay pending and are written by the next flush of this folder; Known gap: FoldReport has no place to say the shared history could not be written (a field the CLI would print, in Sources/folio).
        try? history.flush()
        return written
    }

    /// `soup.md` → `soup.sync-conflict-YYYYMMDD-HHMMSS-FOLIOSV.md`, the first such name
    /// not `taken` (then `FOLIO02`, `FOLIO03`…: a device part of seven capitals or digits,
    /// so that the name stays one every tool takes for a conflict copy).
    package static func rescueName(for file: String, taken: (String) -> Bool) -> String {
        let time = Syscall.localTimestamp()
        var attempt = 1
        while true {
            let device = attempt == 1 ? "FOLIOSV" : "FOLIO" + (attempt < 10 ? "0" : "") + String(attempt % 100)
            let name = ConflictCopies.name(for: file, timestamp: time, device: device)
            if !taken(name) || attempt >= 99 { return name }
            attempt += 1
        }
    }
}
