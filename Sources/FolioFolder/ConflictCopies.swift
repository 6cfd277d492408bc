import Foundation

/// Conflict copies, recognised by name: other sync tools' — Syncthing's
/// `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT` (DEVICE: seven capital letters or
/// digits), Dropbox's and Nextcloud's `NAME (… conflicted copy …).EXT`, Seafile's
/// `NAME (SFConflict [WHO ]YYYY-MM-DD-HH-MM-SS).EXT`, older ownCloud clients'
/// `NAME_conflict-YYYYMMDD-HHMMSS.EXT` and FileCloud's
/// `NAME(Conflict_WHO_YYYY-MM-DD-HH-MM-SS).EXT` — and Folio's own
/// (`NAME.sync-conflict-YYYYMMDD-HHMMSS-REPLICA.EXT`). Names other tools make that an
/// ordinary name can have too (OneDrive's `NAME-MACHINE.EXT`, iCloud's `NAME 2.EXT`,
/// Google Drive's `NAME (1).EXT`) are copies only where the folder's `folio.yaml`
/// declares them (see ``ConflictCopyNames``).
public enum ConflictCopies {
    /// `recipes/soup.md` → `recipes/soup.sync-conflict-TIMESTAMP-DEVICE.md`: a conflict
    /// copy's name as Syncthing makes them (the extension last, so the copy opens as its
    /// file does), and as ``original(of:)`` recognises them. The one place such names are made.
    public static func name(for path: String, timestamp: String, device: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let dot = path[slash...].lastIndex(of: ".").flatMap { $0 == slash ? nil : $0 }
        let stem = dot.map { String(path[..<$0]) } ?? path, ext = dot.map { String(path[$0...]) } ?? ""
        return stem + ".sync-conflict-" + timestamp + "-" + device + ext
    }

    /// The path of the file `path` is another tool's conflict copy of, or nil.
    public static func original(of path: String) -> String? {
        // Most names are no copy at all: a look at the bytes settles those.
        // Every tool's tag holds "onflict" (`.sync-conflict-`, `conflicted copy`,
        // `SFConflict`, `_conflict-`, `(Conflict_`): one scan settles the other names.
        guard containsBytes("onflict", in: path) else { return nil }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let folder = String(path[..<slash]), name = String(path[slash...])
        if let original = syncthing(name) ?? dropbox(name) ?? seafile(name) ?? ownCloud(name) ?? fileCloud(name) { return folder + original }
        return nil
    }

    /// Seafile's: `soup (SFConflict anna@example.com 2026-12-04-10-10-10).md` (the
    /// modifier left out by older clients) → `soup.md`; the tag after the extension, as
    /// Seafile's help shows it (`soup.md (SFConflict …)`), likewise.
    static func seafile(_ name: String) -> String? {
        guard let open = name.range(of: " (SFConflict "), open.lowerBound > name.startIndex,
              let close = name.range(of: ")", range: open.upperBound..<name.endIndex),
              isTimestamp(name[open.upperBound..<close.lowerBound].suffix(19), "dddd-dd-dd-dd-dd-dd")
        else { return nil }
        return String(name[..<open.lowerBound]) + String(name[close.upperBound...])
    }

    /// ownCloud's older clients' (before 2.5): `soup_conflict-20261204-101010.md` → `soup.md`.
    static func ownCloud(_ name: String) -> String? {
        guard let marker = name.range(of: "_conflict-", options: .backwards), marker.lowerBound > name.startIndex else { return nil }
        let rest = name[marker.upperBound...]
        guard isTimestamp(rest.prefix(15), "dddddddd-dddddd") else { return nil }
        let after = rest.dropFirst(15)
        guard after.isEmpty || after.first == "." else { return nil }
        return String(name[..<marker.lowerBound]) + String(after)
    }

    /// FileCloud's: `soup(Conflict_anna (Web browser)_2026-12-04-10-10-10).md` → `soup.md`
    /// (the user's name may hold parentheses: the tag ends at the `)` after its time).
    static func fileCloud(_ name: String) -> String? {
        guard let open = name.range(of: "(Conflict_"), open.lowerBound > name.startIndex else { return nil }
        var search = open.upperBound
        while let close = name.range(of: ")", range: search..<name.endIndex) {
            let before = name[open.upperBound..<close.lowerBound]
            if before.count >= 20, before.suffix(20).first == "_", isTimestamp(before.suffix(19), "dddd-dd-dd-dd-dd-dd") {
                return String(name[..<open.lowerBound]) + String(name[close.upperBound...])
            }
            search = close.upperBound
        }
        return nil
    }

    /// Whether `text` is `pattern` with each `d` a digit (`dddd-dd-dd`).
    static func isTimestamp(_ text: Substring, _ pattern: String) -> Bool {
        text.count == pattern.count && zip(text, pattern).allSatisfy { character, expected in
            expected == "d" ? (character.isASCII && character.isNumber) : character == expected
        }
    }

    /// `soup.sync-conflict-20261130-120000-ABCDEF1.md` → `soup.md`.
    static func syncthing(_ name: String) -> String? {
        // The last marker: a copy of a copy (`a.sync-conflict-…-X.sync-conflict-…-Y.md`) is
        // a copy of the first copy.
        guard let marker = name.range(of: ".sync-conflict-", options: .backwards) else { return nil }
        let stem = name[..<marker.lowerBound]
        let rest = Array(name[marker.upperBound...])
        // YYYYMMDD-HHMMSS-DEVICE, then the extension (if any).
        guard rest.count >= 23, rest[0..<8].allSatisfy(\.isNumber), rest[8] == "-", rest[9..<15].allSatisfy(\.isNumber), rest[15] == "-",
              rest[16..<23].allSatisfy({ ($0.isUppercase || $0.isNumber) && $0.isASCII }), rest.count == 23 || rest[23] == "."
        else { return nil }
        guard !stem.isEmpty else { return nil }
        return String(stem) + String(rest[23...])
    }

    /// The file a copy (or a copy of a copy…) is ultimately a version of: the path whose
    /// history holds their common ancestors.
    public static func rootOriginal(of path: String) -> String? {
        guard var root = original(of: path) else { return nil }
        while let up = original(of: root) { root = up }
        return root
    }

    /// `soup (Anna's conflicted copy 2026-11-30).md` → `soup.md`.
    static func dropbox(_ name: String) -> String? {
        guard let open = name.range(of: " ("), let close = name.range(of: ")", range: open.upperBound..<name.endIndex),
              name[open.upperBound..<close.lowerBound].contains("conflicted copy"), open.lowerBound > name.startIndex
        else { return nil }
        return String(name[..<open.lowerBound]) + String(name[close.upperBound...])
    }

    /// The path of the file `path` is a conflict copy of — another tool's or Folio's — or nil.
    public static func originalOfAnyCopy(_ path: String) -> String? {
        if let original = original(of: path) { return original }
        // Most names are no copy: a look at the bytes first, Foundation's search only then.
        guard containsBytes(".sync-conflict-", in: path), let marker = path.range(of: ".sync-conflict-") else { return nil }
        let rest = path[marker.upperBound...]
        let ext = rest.lastIndex(of: ".").map { String(rest[$0...]) } ?? ""
        return String(path[..<marker.lowerBound]) + ext
    }

    /// Whether `needle` occurs in `haystack`, byte for byte.
    static func containsBytes(_ needle: StaticString, in haystack: String) -> Bool {
        // Every scan asks this of every name: no copy of either string is made.
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = needle.first else { return true }
        let search = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            var index = bytes.startIndex
            while let found = bytes[index...].firstIndex(of: first) {
                if bytes[found...].starts(with: needle) { return true }
                index = found + 1
            }
            return false
        }
        var haystack = haystack
        return haystack.withUTF8(search)
    }
}
