// `import Folio` is all an app writes: the modules below come with it. (`@_exported` is
// the compiler's re-export, used by Apple's own umbrella modules; the lower modules stay
// importable one by one for those who want less.)
@_exported import FolioFolder
@_exported import FolioFormat
@_exported import FolioGit
@_exported import FolioMerge
@_exported import FolioModel
@_exported import FolioShared
@_exported import FolioStore
@_exported import FolioSystem
@_exported import FolioSync
@_exported import FolioVersions
@_exported import FolioWatch
