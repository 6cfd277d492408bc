import FolioFolder
import FolioFormat
import FolioSync

extension SyncReport {
    /// The whole sync as one JSON document (`folio sync --json`): each kind of event as
    /// a list of paths, or a mapping by `A:PATH` where there is a reason or a copy.
    func json(dryRun: Bool) -> String {
        let object: YAMLMapping = [
            "copied": .sequence(copied.map(YAMLValue.string)), "deleted": .sequence(deleted.map(YAMLValue.string)),
            "merged": .sequence(merged.map(YAMLValue.string)), "moved": .sequence(moved.map(YAMLValue.string)), "folded": .sequence(folded.map(YAMLValue.string)),
            "keptCopies": .mapping(YAMLMapping(keptCopies.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })),
            "conflicts": .mapping(YAMLMapping(conflicts.sorted { $0.key < $1.key }.map { .init(key: $0.key.key, value: $0.value.map { .string($0.key) } ?? .null) })),
            "changedDuringSync": .sequence(changedDuringSync.map { .string($0.key) }),
            "conflictMarkers": .sequence(withConflictMarkers.map { .string($0.key) }),
            "normalized": .sequence(normalized.map(YAMLValue.string)),
            "heldBack": .sequence(heldBack.map(YAMLValue.string)),
            "skipped": .mapping(YAMLMapping(skipped.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })),
            "files": .int(files), "hashed": .int(hashed), "dryRun": .bool(dryRun),
        ]
        return YAMLValue.mapping(object).json()
    }

    /// What a sync did as one JSON object per line, for `folio watch A B --json`:
    /// `{"event":"copied","path":…}`, and likewise deleted, moved (from, to), merged,
    /// folded (copy, path), conflict kept (copy, path, replica, reason), conflict (path,
    /// copy: null when marked in the file), changed during sync, conflict markers (path)
    /// and skipped (reason).
    var jsonEvents: [String] {
        func event(_ name: String, _ fields: YAMLMapping) -> String {
            var object: YAMLMapping = ["event": .string(name)]
            for entry in fields.entries { object[entry.key] = entry.value }
            return YAMLValue.mapping(object).json(indent: nil)
        }
        var lines = copies.map { event("copied", ["path": .string($0.path.key)]) }
        lines += deletions.map { event("deleted", ["path": .string($0.path.key)]) }
        lines += moves.map { event("moved", ["from": .string($0.from.key), "to": .string($0.to.key)]) }
        lines += folds.map { event("folded", ["copy": .string($0.key), "path": .string(copyNames.original(of: $0.key) ?? $0.key)]) }
        lines += copiesKept.sorted(by: { $0.key < $1.key }).map { copy, reason in
            event("conflict kept", [
                "copy": .string(copy.path.key), "path": .string(copyNames.original(of: copy.path.key) ?? copy.path.key),
                "replica": .string(copy.replica.rawValue), "reason": .string(reason),
            ])
        }
        lines += merges.filter { conflicts[$0] == nil }.map { event("merged", ["path": .string($0.key)]) }
        lines += conflicts.sorted(by: { $0.key < $1.key }).map { path, copy in
            event("conflict", ["path": .string(path.key), "copy": copy.map { .string($0.key) } ?? .null])
        }
        lines += changedDuringSync.map { event("changed during sync", ["path": .string($0.key)]) }
        lines += withConflictMarkers.map { event("conflict markers", ["path": .string($0.key)]) }
        lines += normalized.map { event("normalized", ["path": .string($0)]) }
        lines += heldBack.map { event("held back", ["path": .string($0)]) }
        lines += skipped.sorted(by: { $0.key < $1.key }).map { event("skipped", ["path": .string($0.key), "reason": .string($0.value)]) }
        return lines
    }
}
