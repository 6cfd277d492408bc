/// Which names in a Folio folder are records, and which are never looked at:
/// version control, the sync tools' own files, and editor scratch files.
public enum FolderRules {
    /// Whether a folder named `name` is never entered (`.git`, `.stversions`, …).
    public static func isIgnoredDirectory(_ name: String) -> Bool {
        name == ".git" || name == ".stversions" || name == ".stfolder" || name.hasPrefix(".dropbox")
            || name == ".build"
    }

    /// Whether a file named `name` is never synced or indexed: the sync tools' own
    /// files (`.stfolder`, `.syncthing.*.tmp`, `~syncthing~*.tmp`, `.dropbox*`) and
    /// editor scratch files (vim's `.swp`/`.swx`/`.swo`, `4913` and `name~`; emacs's
    /// `.#name` and `#name#`).
    public static func isIgnoredFile(_ name: String) -> Bool {
        if name == ".stfolder" || name == "4913" || name.hasPrefix(".dropbox") { return true }
        if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
        if name.hasPrefix("~syncthing~") && name.hasSuffix(".tmp") { return true }
        if name.hasSuffix("~") || name.hasPrefix(".#") { return true }
        if name.count > 1 && name.hasPrefix("#") && name.hasSuffix("#") { return true }
        if name.hasPrefix(".") && (name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".swo")) {
            return true
        }
        return false
    }

    /// Whether `name` is a Markdown record Folio reads.
    public static func isMarkdown(_ name: String) -> Bool {
        !isIgnoredFile(name) && (name.hasSuffix(".md") || name.hasSuffix(".markdown"))
    }

    /// Whether the relative path `path` (`/`-separated) names a record: a Markdown
    /// file outside every folder Folio never enters.
    public static func isRecordPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.last, !name.isEmpty else { return false }
        return parts.dropLast().allSatisfy { !$0.isEmpty && !isIgnoredDirectory(String($0)) } && isMarkdown(String(name))
    }
}
