import FolioSystem
import FolioVersions
import Foundation

/// The git work tree a shared folder lies in, as far as Folio must respect it: while git
/// is in the middle of an operation (a merge, a rebase, a cherry-pick, a revert, or
/// while it holds `index.lock`) nothing may be written into the work tree, and what git
/// writes (a checkout, a stash) is an arrival, never an edit.
package struct GitWorkTree: Sendable {
    /// The files whose presence means git is in the middle of an operation, with what
    /// to call it; found through `git rev-parse --git-path` (linked worktrees included).
    package let markers: [(path: String, operation: String)]
    /// The folder, absolute.
    package let root: String

    package static let operations: [(name: String, operation: String)] = [
        ("MERGE_HEAD", "a merge"), ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert"),
        ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase (or git am)"), ("index.lock", "an operation holding index.lock"),
    ]

    /// The work tree `folder` (absolute) lies in; nil when it is in none, or git is not installed.
    package static func containing(_ folder: String) -> GitWorkTree? {
        // Absolute paths from git itself (git 2.31 and later), not joined here.
        var arguments = ["-C", folder, "rev-parse", "--is-inside-work-tree", "--path-format=absolute"]
        for (name, _) in operations { arguments += ["--git-path", name] }
        guard let output = GitProcess.output(arguments) else { return nil }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == operations.count + 1, lines[0] == "true" else { return nil }
        let markers = zip(lines.dropFirst(), operations).map { path, entry in
            (path: path, operation: entry.operation)
        }
        return GitWorkTree(markers: markers, root: folder)
    }

    /// What git is in the middle of (`a merge (MERGE_HEAD)`), or nil when nothing.
    package func operationInProgress() -> String? {
        // A probe: a marker not there (or not to be looked at) is no operation in progress.
        for (path, operation) in markers where (try? Syscall.linkStatus(path)) != nil {
            return "\(operation) (\(path.split(separator: "/").last ?? ""))"
        }
        return nil
    }

    /// Whether `hash`, the file at `path` (relative), is what HEAD's commit holds there
    /// as a checkout writes it (git's filters applied, `core.autocrlf` among them): what a
    /// checkout, a reset or a stash writes. Git is given only the name, never asked to
    /// read the file: it would open the path as it stands, through a link that replaced
    /// a folder on the way, and the bytes were read already (below the root).
    package func matchesHead(_ path: String, hash: SHA256.Digest) -> Bool {
        // Nothing (a failure) for a path HEAD does not hold: untracked.
        guard let checkedOut = GitProcess.output(["-C", root, "cat-file", "--filters", "HEAD:./" + path]) else { return false }
        return SHA256.hash(checkedOut) == hash
    }

    /// The base git's history gives a fold of two versions of `path` (relative to the
    /// folder; `file` the file's bytes, `copy` the conflict copy's) where the shared history
    /// names none: each version stands for the newest commit whose `path` holds it — one no
    /// commit holds (an edit not yet committed, or a copy made from one) for HEAD, which it
    /// was made from — and the base is what `path` holds in the merge base of the two: HEAD's
    /// own version when both stand for HEAD. Nil when no commit holds `path` there, when the
    /// commits share no ancestor, or when that version holds conflict markers.
    package func mergeBase(path: String, file: [UInt8], copy: [UInt8]) -> [UInt8]? {
        guard let holding = newestCommits(holding: [file, copy], at: path) else { return nil }
        let ours = holding[0] ?? "HEAD", theirs = holding[1] ?? "HEAD"
        var base = ours
        if ours != theirs {
            guard let found = GitProcess.output(["-C", root, "merge-base", ours, theirs]).flatMap({
                String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init)
            }) else { return nil }
            base = found
        }
        // One side's own commit is the base (the other descends from it): its bytes are that side's.
        if base == holding[0] { return file }
        if base == holding[1] { return copy }
        // `REV:./PATH` is relative to the folder, which may be below the repository's top.
        guard let bytes = GitProcess.output(["-C", root, "cat-file", "blob", base + ":./" + path]),
              !ConflictFold.hasConflictMarkers(bytes)
        else { return nil }
        return bytes
    }

    /// For each of `versions` of `path`, the newest commit whose `path` holds exactly it
    /// (of every branch, tag and remote's, but not the stash: a stash is a put-aside edit,
    /// not a version anything descends from), or nil when none does; nil altogether when no
    /// commit ever held `path` (nor then HEAD). Like the rest of the folder's reads of git,
    /// only the newest 200 commits of the path are looked at.
    private func newestCommits(holding versions: [[UInt8]], at path: String) -> [String?]? {
        // `-z`: a commit's id, then per change `:OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS` and
        // the path (relative to the folder, never quoted), each ended by NUL; `-m`: a merge's
        // own version too. Newest first, never a commit before one made from it.
        guard let log = GitProcess.output([
            "-C", root, "log", "--exclude=refs/stash", "--all", "--date-order", "-m", "--raw", "--relative", "--no-abbrev",
            "--no-renames", "--no-color", "--format=%H", "-z", "-n", "200", "--", ":(literal)" + path,
        ]) else { return nil }
        var found = [String?](repeating: nil, count: versions.count)
        var ids: [String] = []
        var commit: String?, blob: String?, pathNext = false, committed = false
        for field in log.split(separator: 0) {
            let token = field.first == UInt8(ascii: "\n") ? field.dropFirst() : field
            if pathNext {
                pathNext = false
                // The pathspec also takes in what lay below `path` when it was a folder.
                guard let commit, let blob, token.elementsEqual(path.utf8) else { continue }
                committed = true
                // Ids are SHA-1 or, in a repository made with `--object-format=sha256`, SHA-256: as long as the commits'.
                if ids.isEmpty { ids = versions.map { Self.blobID(of: $0, hexDigits: commit.count) } }
                for (index, id) in ids.enumerated() where found[index] == nil && id == blob { found[index] = commit }
                if !found.contains(nil) { break }
                continue
            }
            let text = String(decoding: token, as: UTF8.self)
            if text.hasPrefix(":") {
                // A regular file's version only: not a deletion (mode 000000), a link or a submodule.
                let fields = text.split(separator: " ")
                blob = fields.count == 5 && fields[1].hasPrefix("100") ? String(fields[3]) : nil
                pathNext = true
            } else {
                // Anything but a commit's id (a signature check a configuration asked for) ends the commit's changes.
                commit = (text.count == 40 || text.count == 64) && text.allSatisfy(\.isHexDigit) ? text : nil
            }
        }
        return committed ? found : nil
    }
}

extension GitWorkTree {
    /// The id git gives a blob holding `bytes`: the SHA-1 of `blob COUNT`, a NUL and the
    /// bytes — SHA-256 where ids are 64 hex digits (`--object-format=sha256`) — so that a
    /// version is found in git's history by its id, without reading every commit's.
    package static func blobID(of bytes: [UInt8], hexDigits: Int) -> String {
        let object = Array("blob \(bytes.count)\0".utf8) + bytes
        return hexDigits == 64 ? SHA256.hash(object).description : sha1(object)
    }

    /// SHA-1 (FIPS 180-4) of `message`, in hex: what git names objects by. Not for
    /// security, only to name what git already named.
    package static func sha1(_ message: [UInt8]) -> String {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        // Padded as SHA-256 is: a 1 bit, zeros to 56 bytes past a block's start, the length in bits.
        var padded = message + [0x80] + [UInt8](repeating: 0, count: (55 - message.count % 64 + 64) % 64)
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        func rotated(_ word: UInt32, _ count: UInt32) -> UInt32 { word << count | word >> (32 - count) }
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let j = block + 4 * i
                w[i] = UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8 | UInt32(padded[j + 3])
            }
            for i in 16..<80 { w[i] = rotated(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i / 20 {
                case 0: ((b & c) | (~b & d), 0x5A82_7999)
                case 1: (b ^ c ^ d, 0x6ED9_EBA1)
                case 2: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                (a, b, c, d, e) = (rotated(a, 5) &+ f &+ e &+ k &+ w[i], a, rotated(b, 30), c, d)
            }
            for (index, word) in [a, b, c, d, e].enumerated() { state[index] &+= word }
        }
        return state.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }
}
