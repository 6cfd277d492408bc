import FolioFolder
import FolioFormat
import FolioSystem
import FolioVersions

/// The base a fold takes: the lowest common ancestor in the shared history, else git's
/// (the merge base's version, HEAD's for edits not committed), else (no other device
/// keeping a history) this device's own past.
extension SharedFolder {
    /// The base a fold of a conflict copy holding `copyBytes` into the file at `file`
    /// (relative to the folder, holding `fileBytes`) takes, as ``fold()`` finds it, with
    /// where it came from; nil when no common ancestor is known. For `folio resolve
    /// --merge`, which merges with conflict markers where ``fold()`` would keep the copy.
    /// The base is the lowest common ancestor of the file's version and the copy's in the
    /// shared history (its content from `.folio/`, else Syncthing's `.stversions`); else
    /// git's (``GitWorkTree/mergeBase(path:file:copy:)``: the version of the merge base of
    /// the commits holding them, HEAD standing for one not committed); else, when
    /// `guessing` (by default: when no other device keeps a history), this device's own
    /// past, ``guessedBase(for:file:copy:)``.
    package func base(for file: String, file fileBytes: [UInt8], copy copyBytes: [UInt8], guessing: Bool? = nil) -> (source: BaseCandidate.Source, bytes: [UInt8])? {
        history.refresh()
        let fileHash = SHA256.hash(fileBytes), copyHash = SHA256.hash(copyBytes)
        let device = history.device
        let ancestor: VersionEvent.ID? = history.withGraph { graph in
            guard let fileNode = Self.version(of: file, holding: fileHash, on: device, in: &graph),
                  let copyNode = Self.version(ofCopyHolding: copyHash, in: &graph)
            else { return nil }
            return graph.lowestCommonAncestor(fileNode, copyNode)
        }
        if let ancestor, let content = history.graph.events[ancestor]?.version {
            if let bytes = history.contents(of: content) { return (.history, bytes) }
            if let kept = ExternalBases.syncthingVersions(root: rootFolder, path: file).first(where: { $0.candidate.hash == content }) {
                return (.syncthingVersions, kept.bytes)
            }
        }
        // Whenever the logs name no ancestor whose content is at hand (a version never logged,
        // a first version no device recorded): git's, before any guess.
        if let git, let bytes = git.mergeBase(path: file, file: fileBytes, copy: copyBytes) { return (.git, bytes) }
        // A copy of a copy descends from the file both are versions of.
        let lineage = copyNames.rootOriginal(of: file) ?? file
        return guessing ?? !othersKeepHistory(at: lineage) ? guessedBase(for: lineage, file: fileBytes, copy: copyBytes) : nil
    }

    /// The version the file `file` holding `content` is, as `device` saw it arrive or made
    /// it; nil while the logs cannot say yet. A sync tool never brings back a version the
    /// device had moved past: bytes that match only such a version are a newer version
    /// with old bytes (an untick) whose log line has not arrived.
    package static func version(of file: String, holding content: SHA256.Digest, on device: String, in graph: inout VersionGraph) -> VersionEvent.ID? {
        let seen = graph.events(device: device, path: file)
        guard let own = seen.last, own.version == content, let node = graph.node(own.id) else { return graph.node(holding: content) }
        if own.kind == .arrival, seen.count > 1, let before = graph.node(seen[seen.count - 2].id), before != node, graph.descends(before, from: node) {
            return nil
        }
        return node
    }

    /// The version a conflict copy holding `content` is; nil while the logs cannot say
    /// yet. A copy holds a version that lost a clash: one nothing was made from but a fold
    /// of it. Bytes that match only a version others were edited from are a newer version
    /// with old bytes whose log line has not arrived.
    package static func version(ofCopyHolding content: SHA256.Digest, in graph: inout VersionGraph) -> VersionEvent.ID? {
        guard let node = graph.node(holding: content) else { return nil }
        guard graph.hasChildren(node) else { return node }
        let folded = graph.events.values.contains { $0.kind == .fold && $0.parents.contains { graph.node($0) == node } }
        return folded || graph.lostInAClash(node) ? node : nil
    }

    /// Whether another device's Folio keeps a history of the folder (its log is in
    /// `.folio/logs/`, or it logged `file`): then a version no log names yet may be named
    /// once its log line arrives, and is waited for before this device's past serves.
    package func othersKeepHistory(at file: String) -> Bool {
        !history.otherDevices.isEmpty || history.graph.devices.contains { $0 != history.device && !history.graph.events(device: $0, path: file).isEmpty }
    }

    /// Where no other device keeps a history, the only past there is is this device's:
    /// the newest version it saw at `file` before either side first appeared, passing
    /// over one a side shows no sign of having had (``BaseChoice``). With other devices
    /// running Folio their logs are the truth: this serves only once they have been
    /// waited for (``FoldOptions/historyWait``) and name no ancestor.
    package func guessedBase(for file: String, file fileBytes: [UInt8], copy copyBytes: [UInt8]) -> (source: BaseCandidate.Source, bytes: [UInt8])? {
        var firstSeen: [SHA256.Digest: Int64] = [:]
        var candidates: [BaseCandidate] = []
        for path in [file] + history.graph.copyPaths(of: file) {
            for event in history.graph.events(device: history.device, path: path) {
                guard let version = event.version else { continue }
                firstSeen[version] = min(firstSeen[version] ?? .max, event.time)
                if path == file { candidates.append(BaseCandidate(hash: version, time: event.time, source: .history)) }
            }
        }
        // What git switched in began another line: nothing before it is this one's past.
        if let switched = history.graph.events(device: history.device, path: file).last(where: { $0.kind == .gitCheckout }) {
            candidates.removeAll { $0.time < switched.time }
        }
        return BaseChoice.base(
            among: candidates, firstSeen: { firstSeen[$0] }, contents: { self.history.contents(of: $0.hash) },
            path: file, file: fileBytes, copy: copyBytes
        ).map { (.history, $0.bytes) }
    }
}
