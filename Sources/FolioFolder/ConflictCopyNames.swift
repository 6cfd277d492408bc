/// How conflict copies are named in one folder: every sync tool's unmistakable names
/// (``ConflictCopies``), and the patterns the folder's `folio.yaml` adds under
/// `conflictCopies:` (``ConflictCopyPattern``) for tools whose names a person could
/// give a file too.
public struct ConflictCopyNames: Sendable, Hashable {
    /// The patterns the folder adds.
    public let patterns: [ConflictCopyPattern]

    /// The key of `folio.yaml` that lists a folder's tools and patterns.
    package static let settingKey = "conflictCopies"

    /// The unmistakable names only: a folder that declares nothing.
    public static let builtIn = ConflictCopyNames(patterns: [])

    /// The built-in names and `patterns`.
    public init(patterns: [ConflictCopyPattern]) { self.patterns = patterns }

    /// The built-in names and those `declared` (`folio.yaml`'s `conflictCopies:`
    /// entries); an entry that is no pattern is left out, with why.
    public init(declared: [String]) {
        var patterns: [ConflictCopyPattern] = [], problems: [ConflictCopyPatternError] = []
        for entry in declared {
            switch ConflictCopyPattern.parse(entry) {
            case .success(let pattern): patterns.append(pattern)
            case .failure(let problem): problems.append(problem)
            }
        }
        self.patterns = patterns
        self.problems = problems
    }

    /// The entries that were no pattern.
    public private(set) var problems: [ConflictCopyPatternError] = []

    /// These names and `other`'s patterns (two replicas' `folio.yaml`s, which may differ
    /// until synced): a copy by either is a copy.
    public func merging(_ other: ConflictCopyNames) -> ConflictCopyNames {
        var merged = ConflictCopyNames(patterns: patterns + other.patterns.filter { !patterns.contains($0) })
        merged.problems = problems + other.problems
        return merged
    }

    /// The path of the file `path` is another tool's conflict copy of, or nil.
    public func original(of path: String) -> String? {
        if let original = ConflictCopies.original(of: path) { return original }
        guard !patterns.isEmpty else { return nil }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = String(path[slash...])
        for pattern in patterns {
            if let original = pattern.original(ofName: name) { return String(path[..<slash]) + original }
        }
        return nil
    }

    /// The file a copy (or a copy of a copy…) is ultimately a version of.
    public func rootOriginal(of path: String) -> String? {
        guard var root = original(of: path) else { return nil }
        var steps = 0
        // Bounded: a pattern of one's own could name a copy of a copy of … at length.
        while steps < 16, let up = original(of: root) { (root, steps) = (up, steps + 1) }
        return root
    }

    /// The path of the file `path` is a conflict copy of — another tool's or Folio's — or nil.
    public func originalOfAnyCopy(_ path: String) -> String? {
        ConflictCopies.originalOfAnyCopy(path) ?? original(of: path)
    }
}
