/// One way a sync tool names a conflict copy, as `folio.yaml`'s `conflictCopies:`
/// declares it: a tool's name — `onedrive` (`NAME-MACHINE.EXT`, the Windows machine's
/// name in capitals), `icloud` (`NAME 2.EXT`), `google-drive` (`NAME (1).EXT`) — or a
/// pattern of one's own, where `{name}` is the original's name without its extension,
/// `{ext}` its extension (with the dot; empty for none), `{n}` a number of one to three
/// digits, `{machine}` a machine's name in capitals, digits and hyphens, `*` any
/// characters but `/`, and every other character itself:
/// `{name}.conflict-*{ext}`. These names are ones a person could give a file too, so
/// they count as copies only in a folder that says it is synced by such a tool.
public struct ConflictCopyPattern: Sendable, Hashable, CustomStringConvertible {
    /// What `folio.yaml` says: a tool's name or the pattern.
    public let declared: String
    private let tokens: [Token]

    private enum Token: Sendable, Hashable {
        case character(Character), name, ext, number, machine, any
    }

    /// The tools whose names a folder can give for their patterns.
    public static let tools: [(name: String, pattern: String)] = [
        ("onedrive", "{name}-{machine}{ext}"), ("icloud", "{name} {n}{ext}"), ("google-drive", "{name} ({n}){ext}"),
    ]

    /// The pattern `declared` names or spells; nil, with why, when it cannot be one.
    public static func parse(_ declared: String) -> Result<ConflictCopyPattern, ConflictCopyPatternError> {
        let key = declared.lowercased().replacingOccurrences(of: " ", with: "-")
        let text = tools.first { $0.name == key }?.pattern ?? declared
        var tokens: [Token] = []
        var rest = Substring(text)
        while let first = rest.first {
            if first == "{" {
                guard let close = rest.firstIndex(of: "}") else { return .failure(.init(declared, "a '{' is not closed")) }
                let word = rest[rest.index(after: rest.startIndex)..<close]
                switch word {
                case "name": tokens.append(.name)
                case "ext": tokens.append(.ext)
                case "n": tokens.append(.number)
                case "machine": tokens.append(.machine)
                default: return .failure(.init(declared, "'{\(word)}' is not one of {name}, {ext}, {n}, {machine}"))
                }
                rest = rest[rest.index(after: close)...]
            } else {
                if first == "/" { return .failure(.init(declared, "a copy is in its file's folder: '/' cannot be in the pattern")) }
                tokens.append(first == "*" ? .any : .character(first))
                rest = rest.dropFirst()
            }
        }
        guard tokens.filter({ $0 == .name }).count == 1 else {
            return .failure(.init(declared, "it needs {name} once (the original's name), or one of the tools: " + tools.map(\.name).joined(separator: ", ")))
        }
        guard tokens.filter({ $0 == .ext }).count <= 1 else { return .failure(.init(declared, "{ext} can be in it once")) }
        guard tokens.contains(where: { $0 != .name && $0 != .ext }) else {
            return .failure(.init(declared, "it must add something to the name, or every file would be a copy of itself"))
        }
        return .success(ConflictCopyPattern(declared: declared, tokens: tokens))
    }

    /// The name (no folder) `name` is a copy of under this pattern, or nil.
    public func original(ofName name: String) -> String? {
        let characters = Array(name)
        var captured: (name: Range<Int>?, ext: Range<Int>?) = (nil, nil)
        guard match(0, characters, 0, &captured), let stem = captured.name, !stem.isEmpty else { return nil }
        let original = String(characters[stem]) + (captured.ext.map { String(characters[$0]) } ?? "")
        return original == name ? nil : original
    }

    public var description: String { declared }

    /// Whether `tokens[token...]` matches `characters[at...]` whole, noting where
    /// `{name}` and `{ext}` matched (backtracking: names are short).
    private func match(_ token: Int, _ characters: [Character], _ at: Int, _ captured: inout (name: Range<Int>?, ext: Range<Int>?)) -> Bool {
        guard token < tokens.count else { return at == characters.count }
        let remaining = characters.count - at
        func tryLengths(_ lengths: some Sequence<Int>, _ fits: (Range<Int>) -> Bool, then store: (Range<Int>, inout (name: Range<Int>?, ext: Range<Int>?)) -> Void) -> Bool {
            for length in lengths where length <= remaining {
                let range = at..<(at + length)
                guard fits(range) else { continue }
                var attempt = captured
                store(range, &attempt)
                if match(token + 1, characters, at + length, &attempt) {
                    captured = attempt
                    return true
                }
            }
            return false
        }
        switch tokens[token] {
        case .character(let expected):
            return remaining > 0 && characters[at] == expected && match(token + 1, characters, at + 1, &captured)
        case .name:
            // The shortest name that fits: a machine's name holds hyphens too (`soup-DESKTOP-AB12CD`).
            return tryLengths(stride(from: 1, through: remaining, by: 1), { range in !characters[range].contains("/") }) { $1.name = $0 }
        case .ext:
            // An extension (`.md`: a dot, then no dot or space), or none where the name has none.
            let hasExtension = characters.dropFirst().contains(".")
            return tryLengths(stride(from: remaining, through: hasExtension ? 1 : 0, by: -1), { range in
                range.isEmpty || (characters[range.lowerBound] == "." && range.count > 1
                    && !characters[range].dropFirst().contains { $0 == "." || $0 == " " || $0 == "/" })
            }) { $1.ext = $0 }
        case .number:
            return tryLengths(1...3, { range in characters[range].allSatisfy { $0.isASCII && $0.isNumber } && characters[range.lowerBound] != "0" }) { _, _ in }
        case .machine:
            return tryLengths(stride(from: min(remaining, 15), through: 1, by: -1), { range in
                let part = characters[range]
                return part.first != "-" && part.contains { $0.isASCII && $0.isUppercase }
                    && part.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "-") }
            }) { _, _ in }
        case .any:
            // The shortest run that fits, so that `{ext}` after it is the name's own extension.
            return tryLengths(stride(from: 1, through: remaining, by: 1), { range in !characters[range].contains("/") }) { _, _ in }
        }
    }
}

/// Why a `conflictCopies:` entry of `folio.yaml` is no pattern.
public struct ConflictCopyPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entry as written.
    public let declared: String
    /// What is wrong with it.
    public let reason: String

    init(_ declared: String, _ reason: String) { (self.declared, self.reason) = (declared, reason) }

    public var description: String { "conflictCopies: '\(declared)' is not a pattern: \(reason)" }
}
