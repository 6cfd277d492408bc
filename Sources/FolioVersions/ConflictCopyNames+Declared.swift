import FolioFolder
import FolioFormat
import FolioSystem

extension ConflictCopyNames {
    /// The names the folder `root`'s `folio.yaml` declares (the built-in ones when it
    /// declares none, is missing, or does not parse: `folio check` reports that).
    package static func declared(in root: RootedFolder) -> ConflictCopyNames {
        SettingsFile.document(in: root).map(declared(in:)) ?? .builtIn
    }

    /// ``declared(in:)-(RootedFolder)`` of the folder at `path` (the built-in names when it
    /// cannot be opened: what needs it then reports that itself).
    package static func declared(inFolderAt path: String) -> ConflictCopyNames {
        (try? RootedFolder(path)).map(declared(in:)) ?? .builtIn
    }

    /// The names `folio.yaml`'s document declares: a list of tools and patterns, or one.
    package static func declared(in document: Document) -> ConflictCopyNames {
        document[settingKey].map { ConflictCopyNames(declared: $0.scalarTexts) } ?? .builtIn
    }
}
