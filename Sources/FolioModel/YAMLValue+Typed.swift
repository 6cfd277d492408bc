import FolioFormat

extension YAMLValue {
    /// A scalar as trimmed text (numbers and booleans as written in YAML); nil for
    /// null and collections.
    public var text: String? {
        switch self {
        case .string(let text), .timestamp(let text): return text.trimmingCharacters(in: " \t\r\n")
        case .int(let number): return String(number)
        case .float(let number): return YAMLEmitter.floatText(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// An integer, also from a float with no fraction or from digits in text.
    public var intValue: Int? {
        switch self {
        case .int(let number): return number
        case .float(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        case .string(let text): return Int(text.trimmingCharacters(in: " \t"))
        default: return nil
        }
    }

    /// A number, also from digits in text.
    public var doubleValue: Double? {
        switch self {
        case .int(let number): return Double(number)
        case .float(let number): return number
        case .string(let text):
            // The core schema's numbers all start with one of these.
            guard text.mayStartNumber else { return nil }
            if case .float(let number) = ScalarResolver.resolvePlain(text.trimmingCharacters(in: " \t")) { return number }
            if case .int(let number) = ScalarResolver.resolvePlain(text.trimmingCharacters(in: " \t")) { return Double(number) }
            return nil
        default: return nil
        }
    }

    /// A boolean, also from `yes`/`no`, `x`/`done` text, as people write checkboxes.
    public var boolValue: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .string(let text):
            // No word below has more than five bytes, nor lowercases from more.
            guard text.utf8.count <= 5 else { return nil }
            switch text.lowercased() {
            case "yes", "y", "x", "done", "true": return true
            case "no", "n", "false", "": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// A list of trimmed strings without empty entries; a single string becomes a
    /// one-item list, or several when it holds commas (`tags: pasta, italian`).
    public var stringList: [String] {
        switch self {
        case .sequence(let items): return items.compactMap(\.text).filter { !$0.isEmpty }
        case .string(let text):
            return text.split(separator: ",").map { String($0).trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
        default: return text.map { [$0] } ?? []
        }
    }
}
