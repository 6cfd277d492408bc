#if canImport(Darwin)
import Foundation
import FolioStore
import FolioSync
import FolioWatch

extension SyncedFolder {
    /// Opens a folder the user picked (a document picker, the Files app, a bookmark
    /// resolved again): a security-scoped URL, to which access starts here and ends at
    /// ``close()``. Otherwise as ``open(_:replica:watchOptions:syncOptions:foldOptions:onWarning:onSync:onFold:)``
    /// without a replica. (Apple platforms only.)
    ///
    /// Not coordinated with `NSFileCoordinator`: Folio's writes are guarded at the
    /// rename (a file another program changed meanwhile is never replaced), which keeps
    /// a local folder or one in the app's container safe; a folder in iCloud Drive whose
    /// files are not all downloaded needs coordinated reads that Folio does not make yet
    /// (see docs/platforms.md, "Apple platforms").
    public static func open(
        picked url: URL, watchOptions: WatchOptions = WatchOptions(), foldOptions: FoldOptions = FoldOptions(),
        onWarning: @escaping @Sendable (String) -> Void = { _ in }, onFold: @escaping @Sendable (FoldReport) -> Void = { _ in }
    ) async throws -> SyncedFolder {
        let scoped = url.startAccessingSecurityScopedResource()
        do {
            let folder = try await open(url.path, watchOptions: watchOptions, foldOptions: foldOptions, onWarning: onWarning, onFold: onFold)
            if scoped { folder.whenClosed = { url.stopAccessingSecurityScopedResource() } }
            return folder
        } catch {
            if scoped { url.stopAccessingSecurityScopedResource() }
            throw error
        }
    }
}
#endif
