import FolioSync
import Testing

/// `import FolioSync` alone still brings the types that lived in it before the shared
/// folder (FolioShared), what it shares with the pair (FolioVersions) and the ignore rules
/// (FolioFolder) became modules of their own: an app that wrote it compiles as it did.
/// This file imports nothing else: a type missing from the re-export does not compile.
@Suite struct ModuleExportTests {
    @Test func theTypesOnceInFolioSyncComeWithIt() {
        let names = [
            String(describing: SharedFolder.self), String(describing: FoldingFollower.self),
            String(describing: ConflictResolution.self), String(describing: ConflictCopyStatus.self),
            String(describing: FoldOptions.self), String(describing: FoldReport.self),
            String(describing: VersionEvent.self), String(describing: BaseCandidate.self),
            String(describing: Trash.self), String(describing: SyncError.self),
            String(describing: Replica.self), String(describing: FolioIgnore.self),
        ]
        #expect(names == ["SharedFolder", "FoldingFollower", "ConflictResolution", "ConflictCopyStatus", "FoldOptions", "FoldReport",
                          "VersionEvent", "BaseCandidate", "Trash", "SyncError", "Replica", "FolioIgnore"])
        #expect(Replica.a.other == .b)
    }
}
