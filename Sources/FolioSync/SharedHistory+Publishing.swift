import FolioSystem

/// What a device writes into a shared folder's `.folio/`, and how an earlier Folio's
/// history kept there is moved to the state folder.
extension SharedHistory {
    /// Publishes, in a shared folder, the contents waiting in ``toPublish`` and then this
    /// device's log: `text` appended when the published log is as long as the local one
    /// was before it (`sizeBefore`), else the local log written whole.
    func publish(appending text: [UInt8], after sizeBefore: Int64) throws(SystemError) {
        guard isShared, !readOnly else { return }
        try ensureFolder()
        for hash in toPublish {
            let path = publishedPath(hash)
            // A probe: content already there is not written again; one that cannot be looked at is written, and the write reports a disk that refuses.
            guard (try? FileStamp.of(path)) == nil, let bytes = contentStore.load(hash) else { continue }
            try path.parent.makeDirectories()
            // Durable: the contents the published lines name reach the disk before the lines.
            _ = try AtomicFile.write(bytes, to: path, mode: nil, creating: 0o666, replacingOnly: { $0 == nil })
            publishedSinceCompaction += 1
        }
        toPublish.removeAll()
        // A probe: a published log that cannot be looked at is written again whole.
        let published = (try? FileStamp.of(publishedLog))?.size
        if !publishedLogUnchecked, published == sizeBefore, !text.isEmpty {
            try AtomicFile.append(text, to: publishedLog, mode: 0o666, flushing: true)
        } else if published != ownLogSize {
            try republishLog()
        }
        publishedLogUnchecked = false
    }

    /// Writes this device's whole log into `.folio/logs/` (the first time the folder is
    /// shared, after a compaction, or when the published copy was lost or cut short).
    func republishLog() throws(SystemError) {
        guard isShared, !readOnly else { return }
        try ensureFolder()
        let bytes = try AtomicFile.contentsIfPresent(ownLog) ?? []
        _ = try AtomicFile.write(bytes, to: publishedLog, mode: nil, creating: 0o666, replacingOnly: nil)
    }

    /// Where an earlier Folio kept a version in the folder: `.folio/versions/HH/HASH`.
    func earlierPath(_ hash: SHA256.Digest) -> RootedPath {
        let hex = hash.description
        return folder.appending("versions/" + hex.prefix(2) + "/" + hex)
    }

    /// `.folio/.gitignore`: git never tracks the shared history.
    static let ignoreEverything = Array("# Folio's shared history of this folder: never committed.\n*\n".utf8)

    /// Makes `.folio/` with its `.gitignore` (so that git never tracks it) and `logs/`.
    func ensureFolder() throws(SystemError) {
        // A probe: a logs folder not there (or not to be looked at) is made; making it reports a disk that refuses.
        guard (try? FileStamp.of(logsFolder))?.isDirectory != true else { return }
        try logsFolder.makeDirectories()
        let ignore = folder.appending(".gitignore")
        // A probe: an existing .gitignore is kept; the write (only where none is) reports a disk that refuses.
        if (try? FileStamp.of(ignore)) == nil {
            _ = try AtomicFile.write(Self.ignoreEverything, to: ignore, mode: nil, replacingOnly: { $0 == nil })
        }
    }

    /// Moves the history an earlier Folio kept in the folder (`.folio/logs/DEVICE.log`,
    /// `log`, and the versions its events name) to the state folder. In a folder no sync
    /// tool shares, what that Folio wrote there is then removed: its own log and versions,
    /// `.gitignore`, and the folders left empty (anything else stays).
    func adoptEarlierHistory(_ log: [UInt8]) throws(SystemError) {
        let events = VersionEvent.parse(log, device: device)
        for hash in Set(events.compactMap(\.version)) {
            // Content that cannot be read is a version this device no longer has: as before, a fold that needs it keeps the copy and says why.
            if let bytes = try? FileReading.contents(of: earlierPath(hash)), SHA256.hash(bytes) == hash { try contentStore.store(bytes, hash: hash) }
        }
        try contentStore.flush(durably: true)
        _ = try AtomicFile.write(log, to: ownLog, mode: 0o600, replacingOnly: nil)
        guard !isShared else { return }
        // Best effort from here: what is left of the old .folio/ is only space in the folder.
        let versions = folder.appending("versions")
        for prefix in Trash.entries(versions) where prefix.count == 2 {
            for name in Trash.entries(versions.appending(prefix)) where SHA256.Digest(hex: name) != nil { try? AtomicFile.remove(versions.appending(prefix + "/" + name)) }
            try? versions.appending(prefix).removeDirectory()
        }
        try? versions.removeDirectory()
        try? AtomicFile.remove(publishedLog)
        try? logsFolder.removeDirectory()
        let ignore = folder.appending(".gitignore")
        if (try? AtomicFile.contentsIfPresent(ignore)) == Self.ignoreEverything { try? AtomicFile.remove(ignore) }
        try? folder.removeDirectory()
    }
}
