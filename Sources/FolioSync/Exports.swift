// The shared folder (FolioShared) and what it shares with the pair sync (FolioVersions)
// were part of this module until issue 38 split them out: re-exported, so that an app
// that wrote `import FolioSync` for `SharedFolder`, `ConflictResolution` or `Trash`
// compiles as it did. For one release; import FolioShared, FolioVersions or Folio.
@_exported import FolioShared
@_exported import FolioVersions
@_exported import FolioFolder   // FolioIgnore, once of this module
