import FolioFormat
import FolioSystem

/// A folder's `folio.yaml` as the libraries below the store read it: the settings that
/// travel with the folder and say how it is shared (`shared:`) and how its sync tools
/// name conflict copies (`conflictCopies:`).
package enum SettingsFile {
    /// The file's name at a folder's root.
    package static let name = "folio.yaml"

    /// The document at `root`'s `folio.yaml`; nil when it is missing, cannot be read or
    /// does not parse (a probe: `folio check` reports those).
    package static func document(in root: RootedFolder) -> Document? {
        guard let bytes = try? AtomicFile.contentsIfPresent(root[name]) else { return nil }
        return try? Document(yamlBytes: bytes, path: name)
    }
}
