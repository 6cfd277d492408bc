/// Which names in a Folio folder are records, and which are never looked at:
/// version control, the sync tools' own files, and editor scratch files.
public enum FolderRules {
    /// Whether a folder named `name` is never entered (`.git`, `.stversions`, …).
    public static func isIgnoredDirectory(_ name: String) -> Bool {
        name == ".git" || name == ".folio" || name == ".stversions" || name == ".stfolder" || name.hasPrefix(".dropbox")
            || name == ".build" || isSystemFolder(name)
    }

    /// The folders macOS and removable disks make of their own (Spotlight's index, the
    /// trash of a stick, FSEvents' log): never records, never synced.
    static func isSystemFolder(_ name: String) -> Bool {
        name == ".Spotlight-V100" || name == ".Trashes" || name == ".fseventsd" || name == ".TemporaryItems" || name == "$RECYCLE.BIN"
            || name == "System Volume Information"
    }

    /// Whether a file named `name` is never synced or indexed: the sync tools' own
    /// files (`.stfolder`, `.syncthing.*.tmp`, `~syncthing~*.tmp`, `.dropbox*`) and
    /// editors' and tools' scratch files: vim's `.swp`/`.swx`/`.swo`, `4913` and
    /// `name~`; emacs's `.#name` and `#name#`; Kate's `.name.kate-swp`; LibreOffice's
    /// `.~lock.name#`; GIO's (gedit, GNOME apps) `.goutputstream-XXXXXX`; `sed -i`'s
    /// `sedXXXXXX`; JetBrains' `name___jb_tmp___` and `name___jb_old___`; and the files
    /// macOS, Windows and FAT disks make of their own: `.DS_Store`, AppleDouble `._NAME`
    /// (a Mac's metadata for NAME on a FAT or network disk), a folder's custom icon
    /// `Icon\r`, `Thumbs.db`, `desktop.ini`.
    public static func isIgnoredFile(_ name: String) -> Bool {
        // Over the UTF-8 bytes: this runs for every file of every scan, and every pattern is
        // ASCII. The first and last bytes settle most names (`00012-soup.md`) at once.
        let bytes = name.utf8
        guard let first = bytes.first, let last = bytes.last else { return false }
        func starts(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }
        func ends(_ suffix: String) -> Bool { bytes.count >= suffix.utf8.count && bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) }
        if last == UInt8(ascii: "~") { return true }
        switch first {
        case UInt8(ascii: "."):
            if name == ".stfolder" || name == ".DS_Store" || starts(".dropbox") || starts("._") || starts(".#") || starts(".goutputstream-") { return true }
            if starts(".syncthing.") && ends(".tmp") { return true }
            if ends(".swp") || ends(".swx") || ends(".swo") || ends(".kate-swp") { return true }
            if starts(".~lock.") && last == UInt8(ascii: "#") { return true }
        case UInt8(ascii: "~"):
            if starts("~syncthing~") && ends(".tmp") { return true }
        case UInt8(ascii: "#"):
            if bytes.count > 1 && last == UInt8(ascii: "#") { return true }
        case UInt8(ascii: "s"):
            if isSedTemporary(bytes) { return true }
        default:
            break
        }
        if last == UInt8(ascii: "_") && (ends("___jb_tmp___") || ends("___jb_old___")) { return true }
        switch bytes.count {
        case 4: return name == "4913"
        case 5: return name == "Icon\r"
        case 9: return name == "Thumbs.db"
        case 11: return name == "desktop.ini"
        default: return false
        }
    }

    /// `sed -i`'s temporary file: `sed` and six random letters or digits (mkstemp's),
    /// at least one of them a capital or a digit, so that a file named `sedentary`
    /// stays a file (sed's names are all lowercase only about once in 200).
    static func isSedTemporary(_ bytes: String.UTF8View) -> Bool {
        guard bytes.count == 9, bytes.starts(with: "sed".utf8) else { return false }
        let random = bytes.dropFirst(3)
        func isAlphanumeric(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) }
        return random.allSatisfy(isAlphanumeric) && random.contains { (48...57).contains($0) || (65...90).contains($0) }
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
