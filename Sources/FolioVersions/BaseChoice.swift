import FolioSystem
import FolioFormat
import FolioMerge

/// Which recorded version a conflict copy and its file are folded against. The two are
/// concurrent: each was edited from a common ancestor older than any version of either
/// that Folio saw. So the base is the newest candidate strictly older than the first
/// appearance of either side (the newest of all when neither was ever seen), and never
/// one of the two sides: a base equal to a side makes the merge take the other side
/// whole, silently dropping that side's edits. Pure, and the same on every device that
/// saw the same versions.
package enum BaseChoice {
    /// The base for folding a copy (hash `copy`) into `path` (hash `file`) in a replica of
    /// a pair sync, whose history (``VersionHistory``) is the pair's own, not a shared
    /// folder's: from it, Syncthing's `.stversions` and git, by ``eligible`` and
    /// ``ancestor``. (A shared folder's fold takes the lowest common ancestor from its
    /// ``VersionGraph`` instead.)
    package static func base(
        for path: String, file: [UInt8], copy: [UInt8], history: VersionHistory, root: RootedFolder, useGit: Bool
    ) -> (candidate: BaseCandidate, bytes: [UInt8])? {
        var external: [SHA256.Digest: [UInt8]] = [:]
        var candidates = history.versions(of: path).map { BaseCandidate(hash: $0.hash, time: $0.time, source: .history) }
        var others = ExternalBases.syncthingVersions(root: root, path: path)
        if useGit, let committed = ExternalBases.git(root: root.path, path: path) { others.append(committed) }
        for (candidate, bytes) in others {
            candidates.append(candidate)
            external[candidate.hash] = bytes
        }
        return base(
            among: candidates, firstSeen: history.firstSeen, contents: { external[$0.hash] ?? history.contents(of: $0.hash) },
            path: path, file: file, copy: copy)
    }

    /// The base among `candidates` for folding `copy` into `file` (at `path`): the same
    /// content seen more than once counts once, at its first time; then ``eligible`` and
    /// ``ancestor``. A candidate whose content cannot be read back (pruned, damaged) is
    /// passed over.
    package static func base(
        among candidates: [BaseCandidate], firstSeen: (SHA256.Digest) -> Int64?, contents: (BaseCandidate) -> [UInt8]?,
        path: String, file: [UInt8], copy: [UInt8]
    ) -> (candidate: BaseCandidate, bytes: [UInt8])? {
        var seen = Set<SHA256.Digest>()
        let once = candidates.sorted { $0.time < $1.time }.filter { seen.insert($0.hash).inserted }
        let eligible = eligible(from: once, file: SHA256.hash(file), copy: SHA256.hash(copy), firstSeen: firstSeen)
        return ancestor(among: eligible, contents: contents, path: path, file: file, copy: copy)
    }

    /// The base for folding `copy` into `file` (their hashes), from `candidates`, given
    /// when each content was first seen (`firstSeen`, nil when never); nil when none is
    /// trustworthy.
    package static func choose(
        from candidates: [BaseCandidate], file: SHA256.Digest, copy: SHA256.Digest, firstSeen: (SHA256.Digest) -> Int64?
    ) -> BaseCandidate? {
        eligible(from: candidates, file: file, copy: copy, firstSeen: firstSeen).first
    }

    /// The candidates the rule allows, newest first (ties broken as ``choose`` does).
    package static func eligible(
        from candidates: [BaseCandidate], file: SHA256.Digest, copy: SHA256.Digest, firstSeen: (SHA256.Digest) -> Int64?
    ) -> [BaseCandidate] {
        let cutoff = [firstSeen(file), firstSeen(copy)].compactMap { $0 }.min()
        return candidates
            .filter { candidate in candidate.hash != file && candidate.hash != copy && (cutoff.map { candidate.time < $0 } ?? true) }
            .sorted { ($0.time, $0.source, $0.hash.description) > ($1.time, $1.source, $1.hash.description) }
    }

    /// The newest of `eligible` (newest first, contents by `contents`) that can be an
    /// ancestor of both sides. The rule alone is not enough when a side was saved more
    /// than once while the devices were apart: the device's history then holds its own
    /// earlier save, which the other side never had, and that save looks like the newest
    /// common version — the other side would seem to undo its change. So a candidate is
    /// passed over when a side holds none of what that candidate brought (the values and
    /// lines no older candidate had), or none of what it holds that some one older
    /// candidate lacked (a fold's result, made of values each seen before): that side
    /// never had it. A side that
    /// itself rewrote every one of those is taken for one that never had it too; the
    /// older base then shows the clash, and the copy is kept. Nil when none can be read.
    package static func ancestor(
        among eligible: [BaseCandidate], contents: (BaseCandidate) -> [UInt8]?, path: String, file: [UInt8], copy: [UInt8]
    ) -> (candidate: BaseCandidate, bytes: [UInt8])? {
        let readable = eligible.compactMap { candidate in contents(candidate).map { (candidate, $0) } }
        let sides = [VersionUnits(file, path: path), VersionUnits(copy, path: path)]
        // What each candidate brought: the values and lines no older candidate had. (Not
        // what differs from the one recorded just before it: that may be another
        // device's version, and a value it changed back would look new.)
        let units = readable.map { VersionUnits($0.1, path: path).units }
        var older = Set<String>()
        var brought = Array(repeating: Set<String>(), count: readable.count)
        for index in readable.indices.reversed() {
            brought[index] = units[index].subtracting(older)
            older.formUnion(units[index])
        }
        for (index, (candidate, bytes)) in readable.enumerated() {
            guard index + 1 < readable.count else { return (candidate, bytes) }
            // What it holds that one older candidate lacked: a fold's result brings
            // nothing new, yet pairs values first seen apart, and a side holding none
            // of what it added to either of its parents never had it.
            let changes = [brought[index]] + units[(index + 1)...].map { units[index].subtracting($0) }
            let unseen = changes.contains { added in
                !added.isEmpty && sides.contains { side in side.units.isDisjoint(with: added) }
            }
            if !unseen { return (candidate, bytes) }
        }
        return nil
    }
}
