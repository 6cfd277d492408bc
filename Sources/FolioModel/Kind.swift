import FolioFormat

/// What a record is: from its `kind:` key, else its top folder, else `note`.
public struct Kind: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The kind's name, lowercased.
    public var rawValue: String
    /// Creates a kind from its name.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// A recipe.
    public static let recipe = Kind(rawValue: "recipe")
    /// A todo.
    public static let todo = Kind(rawValue: "todo")
    /// A workout.
    public static let workout = Kind(rawValue: "workout")
    /// A quote.
    public static let quote = Kind(rawValue: "quote")
    /// Anything else.
    public static let note = Kind(rawValue: "note")

    /// The folder new records of this kind go in.
    public var folder: String { self == .note ? "notes" : rawValue + "s" }

    /// The kind's name.
    public var description: String { rawValue }

    /// Kinds sort by name.
    public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

    /// The kind of the document at `path` (relative to the folder).
    public static func of(_ document: Document, path: String) -> Kind {
        if let kind = document["kind"]?.text, !kind.isEmpty { return Kind(rawValue: kind) }
        return of(path: path)
    }

    /// The kind a path's top folder gives (`recipes/` → recipe), else `note`.
    public static func of(path: String) -> Kind {
        guard let slash = path.firstIndex(of: "/") else { return .note }
        var folder = path[..<slash]
        if folder.hasPrefix("_") { folder.removeFirst() }
        switch folder.lowercased() {
        case "recipes", "recipe": return .recipe
        case "todos", "todo": return .todo
        case "workouts", "workout": return .workout
        case "quotes", "quote": return .quote
        default: return .note
        }
    }
}

extension Kind {
    /// The kind of the document at `path`, where `folders` names the kinds of folders a
    /// `folio.yaml` or an app declared (`books` → book): its `kind:` key, else the
    /// deepest declared folder it is in, else its top folder (``of(path:)``).
    public static func of(_ document: Document, path: String, folders: [String: Kind]) -> Kind {
        if let kind = document["kind"]?.text, !kind.isEmpty { return Kind(rawValue: kind) }
        return of(path: path, folders: folders)
    }

    /// The kind a path's folder gives, declared folders first (see ``of(_:path:folders:)``).
    public static func of(path: String, folders: [String: Kind]) -> Kind {
        if !folders.isEmpty {
            var end = path.endIndex
            // The deepest folder first: `reading/books/x.md` is a book when `reading/books` is declared, whatever `reading` is.
            while let slash = path[..<end].lastIndex(of: "/") {
                if let kind = folders[String(path[..<slash])] { return kind }
                end = slash
            }
        }
        return of(path: path)
    }
}
