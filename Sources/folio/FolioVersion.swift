/// The version `folio --version` prints: the CHANGELOG's next release while it is
/// "Unreleased" (`-dev`); set to the release's number when one is cut.
enum FolioVersion {
    static let current = "0.1.0-dev"
}
