/// A declared positional argument: its name in the usage line (`DIR`), where it stands
/// in the form of the command it belongs to, and whether that form may leave it out.
/// Commands read it typed, `arguments.value(of: Self.dir)`, never by index.
struct Positional: Sendable, Hashable {
    /// Its name in the usage line (`DIR`, `PATH`).
    let name: String
    /// Where it stands among the positionals of its form (0: first).
    let index: Int
    /// Whether its form may be run without it (`folio git-setup [REPO]`): only last.
    let isOptional: Bool

    init(_ name: String, at index: Int, optional: Bool = false) {
        (self.name, self.index, self.isOptional) = (name, index, optional)
    }

    /// How a form writes it in its usage line: `DIR`, or `[PATH]` when it may be left out.
    var synopsis: String { isOptional ? "[\(name)]" : name }
}
