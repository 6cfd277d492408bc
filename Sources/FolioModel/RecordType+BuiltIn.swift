import FolioFormat

// The built-in kinds are record types like any an app declares, with edits of their
// own: a recipe's ingredients and steps in its body, a todo's `done` in place.

extension Recipe: RecordType {
    /// `recipe`.
    public static var kind: Kind { .recipe }
    /// Reads the recipe `document` holds.
    public init(document: Document) { self.init(document) }
}

extension Todo: RecordType {
    /// `todo`.
    public static var kind: Kind { .todo }
    /// Reads the todo `document` holds.
    public init(document: Document) { self.init(document) }
}

extension Workout: RecordType {
    /// `workout`.
    public static var kind: Kind { .workout }
    /// Reads the workout `document` holds.
    public init(document: Document) { self.init(document) }
}

extension Quote: RecordType {
    /// `quote`.
    public static var kind: Kind { .quote }
    /// Reads the quote `document` holds.
    public init(document: Document) { self.init(document) }
}
