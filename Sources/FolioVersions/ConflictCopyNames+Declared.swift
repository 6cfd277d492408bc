import FolioFolder
import FolioFormat
import FolioSystem

extension ConflictCopyNames {
    /// The key of `folio.yaml` that names a folder's sync tools' ambiguous copy names.
    package static let settingKey = "conflictCopies"

    /// The names the folder `root`'s `folio.yaml` declares (the built-in ones when it
    /// declares none, is missing, or does not parse: `folio check` reports that).
    package static func declared(in root: RootedFolder) -> ConflictCopyNames {
        // A probe: a folio.yaml missing, unreadable or not parsing declares nothing here.
        guard let bytes = try? AtomicFile.contentsIfPresent(root["folio.yaml"]),
              let document = try? Document(yamlBytes: bytes, path: "folio.yaml")
        else { return .builtIn }
        return declared(in: document)
    }

    /// The names `folio.yaml`'s document declares: a list of tools and patterns, or one.
    package static func declared(in document: Document) -> ConflictCopyNames {
        document[settingKey].map { ConflictCopyNames(declared: $0.scalarTexts) } ?? .builtIn
    }
}
