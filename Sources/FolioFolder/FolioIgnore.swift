/// The patterns of a replica's `.folioignore`, in the spirit of `.gitignore`: one per
/// line, `#` comments, `*` and `?` wildcards, a pattern with a `/` matched against the
/// whole path (a leading `/` anchors it at the root), one without against each name,
/// a trailing `/` for folders only, `!` to take a path back.
public struct FolioIgnore: Sendable, Equatable {
    package struct Rule: Sendable, Equatable {
        var pattern: [UInt8]
        var negated: Bool
        var foldersOnly: Bool
        var wholePath: Bool
    }

    package var rules: [Rule] = []

    /// The rule file's name, at a replica's top. It is that replica's own: read there
    /// only, and never copied to the other replica (a rule both should follow is written
    /// in each one's file).
    public static let fileName = ".folioignore"

    /// No patterns.
    public init() {}

    /// The patterns of a `.folioignore` file's text.
    public init(text: String) {
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var line = Substring(raw)
            while line.hasSuffix("\r") || line.hasSuffix(" ") { line = line.dropLast() }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var rule = Rule(pattern: [], negated: false, foldersOnly: false, wholePath: false)
            if line.hasPrefix("!") {
                rule.negated = true
                line = line.dropFirst()
            }
            if line.hasSuffix("/") {
                rule.foldersOnly = true
                line = line.dropLast()
            }
            if line.hasPrefix("/") { line = line.dropFirst() }
            rule.wholePath = raw.dropLast(rule.foldersOnly ? 1 : 0).contains("/")
            rule.pattern = Array(line.utf8)
            if !rule.pattern.isEmpty { rules.append(rule) }
        }
    }

    /// Whether `path` (relative) is ignored; the last matching pattern decides.
    public func ignores(_ path: String, isDirectory: Bool) -> Bool {
        guard !rules.isEmpty else { return false }
        let whole = Array(path.utf8)
        let name = Array((path.split(separator: "/").last.map(String.init) ?? path).utf8)
        var ignored = false
        for rule in rules where !rule.foldersOnly || isDirectory {
            if Self.matches(rule.pattern[...], rule.wholePath ? whole[...] : name[...]) { ignored = !rule.negated }
        }
        return ignored
    }

    /// Glob matching: `*` any run of characters except `/`, `?` any one except `/`.
    package static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case UInt8(ascii: "*"):
            var rest = text
            while true {
                if matches(pattern.dropFirst(), rest) { return true }
                guard let next = rest.first, next != UInt8(ascii: "/") else { return false }
                rest = rest.dropFirst()
            }
        case UInt8(ascii: "?"):
            guard let next = text.first, next != UInt8(ascii: "/") else { return false }
            return matches(pattern.dropFirst(), text.dropFirst())
        default:
            guard text.first == first else { return false }
            return matches(pattern.dropFirst(), text.dropFirst())
        }
    }
}
