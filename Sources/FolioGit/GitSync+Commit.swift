import FolioFolder
import FolioSystem

extension GitSync {
    /// Commits what changed in the work tree, as `git add -A` would take it (what
    /// `.gitignore` keeps out stays out), but never an editor's scratch file (`.swp`,
    /// `4913`, `name~`, …) nor a file holding conflict markers, which is reported left out.
    func commitEdits(_ report: inout GitSyncReport) throws(GitSyncError) {
        let status = try repository.check(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"])
        var taken: [String] = [], leftOut: [String] = []
        for entry in status.output.split(separator: 0) where entry.count > 3 {
            let path = String(decoding: entry.dropFirst(3), as: UTF8.self)
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if FolderRules.isIgnoredFile(name) { continue }
            // A probe: a path gone (a deletion) or not a regular file holds no markers.
            if let bytes = try? FileReading.contents(of: RootedFolder(root)[path]), ConflictMarkers.held(by: bytes) {
                leftOut.append(path)
                report.record(.leftOut(path: path, reason: "it holds conflict markers (<<<<<<< … >>>>>>>): settle them, then sync again"))
                continue
            }
            taken.append(path)
        }
        // One the user staged before it got its markers is not committed either.
        if !leftOut.isEmpty { try repository.run(["reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], input: Self.pathList(leftOut)) }
        guard !taken.isEmpty else { return }
        try repository.check(["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], input: Self.pathList(taken))
        let staged = try repository.check(["diff", "--cached", "--name-only", "-z", "--no-renames"]).output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard !staged.isEmpty else { return }
        try repository.check(["commit", "-q", "--no-verify", "-m", Self.message(for: staged)])
        report.record(.committed(commit: try repository.check(["rev-parse", "HEAD"]).text, paths: staged))
    }

    /// `paths` as `--pathspec-file-nul` reads them, each taken literally.
    static func pathList(_ paths: [String]) -> [UInt8] {
        paths.flatMap { Array(":(literal)\($0)".utf8) + [0] }
    }

    /// `folio git-sync: recipes/soup.md, todos/milk.md and 3 more`.
    static func message(for paths: [String]) -> String {
        let named = paths.prefix(5).joined(separator: ", ")
        return "folio git-sync: " + named + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
    }
}
