/// The recipe the conflict-copy tests of the pair sync and of the shared folder edit,
/// and the name Syncthing gives its conflict copy.
public enum ConflictCopyFixture {
    /// A recipe with a time, servings, one ingredient and one step.
    public static let recipe = "---\ntitle: Soup\nkind: recipe\ntime: 15m\nservings: 4\n---\nHot.\n\n## Ingredients\n- Water\n\n## Steps\n1. Boil.\n"
    /// Syncthing's conflict copy of `r.md`.
    public static let copyName = "r.sync-conflict-20261201-120000-ABCDEFG.md"

    /// ``recipe`` with each `(old, new)` of `changes` replaced.
    public static func recipe(_ changes: [(String, String)]) -> String {
        changes.reduce(recipe) { text, change in text.replacing(change.0, with: change.1) }
    }
}
