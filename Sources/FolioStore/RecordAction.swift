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

    /// Adds a record of any kind as a new file in the kind's folder, named `name` as
    /// given (`.md` added when it has no Markdown extension; refused when it is no plain
    /// file name), else from its `title`, `name` or `text` field; never replacing a file
    /// (`-2`, `-3`… before the extension when taken). The front
    /// matter is `fields`, with `kind:` first when the folder alone would not say it;
    /// refused when the record has what ``Validation`` warns of.
    /// `folder` overrides the kind's (``Kind/folder``).
    case addRecord(kind: Kind, fields: YAMLMapping, body: String = "", name: String? = nil, folder: String? = nil)
    /// Sets the fields in `setting`, removes those in `removing` and (when given)
    /// replaces the body of a record, in one write of minimal edits; refused when the
    /// change gives the record a validation problem it did not have.
    case updateFields(path: String, setting: YAMLMapping, removing: [String] = [], body: String? = nil)
    /// Replaces a record's whole content with `bytes`, if the file still holds what was
    /// read (`expecting`, the fingerprint of the bytes the app was shown); refused when
    /// `bytes` do not parse.
    case replaceContent(path: String, bytes: [UInt8], expecting: Fingerprint)

    /// Adds a quote as a new file in `quotes/`.
    case addQuote(Quote)
    /// Writes changed settings into `folio.yaml`.
    case updateSettings(Settings)
}
