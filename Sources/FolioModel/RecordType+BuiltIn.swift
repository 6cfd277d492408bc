import FolioFormat

// The built-in kinds are record types like any an app declares, with edits of their
// own: a recipe's ingredients and steps in its body, a todo's `done` in place.
//
// Each reads a document through its `init(_:)`. The `init(document:)` the protocol asks
// for is declared in a protocol extension, not on the type: a member of the type beside
// `init(_:)` made `documents.map(Todo.init)` ambiguous (both take one document), and
// Swift prefers the type's own member over a protocol extension's.

extension Recipe: RecordType {
    /// `recipe`.
    public static var kind: Kind { .recipe }
}

extension RecordType where Self == Recipe {
    /// Reads the recipe `document` holds (``Recipe/init(_:)``).
    public init(document: Document) { self.init(document) }
}

extension Todo: RecordType {
    /// `todo`.
    public static var kind: Kind { .todo }
}

extension RecordType where Self == Todo {
    /// Reads the todo `document` holds (``Todo/init(_:)``).
    public init(document: Document) { self.init(document) }
}

extension Workout: RecordType {
    /// `workout`.
    public static var kind: Kind { .workout }
}

extension RecordType where Self == Workout {
    /// Reads the workout `document` holds (``Workout/init(_:)``).
    public init(document: Document) { self.init(document) }
}

extension Quote: RecordType {
    /// `quote`.
    public static var kind: Kind { .quote }
}

extension RecordType where Self == Quote {
    /// Reads the quote `document` holds (``Quote/init(_:)``).
    public init(document: Document) { self.init(document) }
}
