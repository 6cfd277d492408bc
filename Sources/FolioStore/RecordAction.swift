import FolioFormat
import FolioModel

/// Recipes, quotes, any record's field or file, and the settings.
public enum RecordAction: Sendable {
    /// Adds a recipe as a new file in `recipes/`; refused when an app could not save it.
    case addRecipe(Recipe)
    /// Writes a recipe's changed parts into its file.
    case updateRecipe(path: String, Recipe)
    /// Deletes a recipe's file.
    case removeRecipe(path: String)

    /// Deletes any record's file.
    case removeRecord(path: String)
    /// Sets one front-matter field of a record with a minimal edit.
    case setField(path: String, key: String, value: YAMLValue)

    /// Adds a quote as a new file in `quotes/`.
    case addQuote(Quote)
    /// Writes changed settings into `folio.yaml`.
    case updateSettings(Settings)
}
