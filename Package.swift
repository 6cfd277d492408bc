// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Folio",
    // macOS 14 and iOS 17: Observation's @Observable. No API above these is used (docs/platforms.md, "Apple platforms").
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        // Everything an app needs, in one import: the store, typed records, the watcher, the sync.
        .library(name: "Folio", targets: ["Folio"]),
        .library(name: "FolioFormat", targets: ["FolioFormat"]),
        .library(name: "FolioFolder", targets: ["FolioFolder"]),
        .library(name: "FolioSystem", targets: ["FolioSystem"]),
        .library(name: "FolioModel", targets: ["FolioModel"]),
        .library(name: "FolioStore", targets: ["FolioStore"]),
        .library(name: "FolioWatch", targets: ["FolioWatch"]),
        .library(name: "FolioMerge", targets: ["FolioMerge"]),
        .library(name: "FolioVersions", targets: ["FolioVersions"]),
        .library(name: "FolioShared", targets: ["FolioShared"]),
        .library(name: "FolioSync", targets: ["FolioSync"]),
        .library(name: "FolioGit", targets: ["FolioGit"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    targets: [
        // Pure: YAML subset, front matter, lossless edits. No file I/O.
        .target(name: "FolioFormat"),
        // What a Folio folder holds: which names are records, which belong to the sync
        // tools, the system or editors, and how conflict copies are named. Pure.
        .target(name: "FolioFolder"),
        // Typed views (recipe, todo, workout, quote, note), durations, quantities, validation.
        .target(name: "FolioModel", dependencies: ["FolioFormat"]),
        // State, actions, one reducer, indexes, queries, observation, loading and atomic writes.
        .target(name: "FolioStore", dependencies: ["FolioFolder", "FolioFormat", "FolioModel", "FolioSystem"]),
        // Following the folder: inotify / FSEvents / polling hints, batched, read, applied to the store.
        .target(name: "FolioWatch", dependencies: ["FolioFolder", "FolioFormat", "FolioStore", "FolioSystem"]),
        // Three-way merge: git-compatible line diff3, and the field- and section-aware document merge. Pure.
        .target(name: "FolioMerge", dependencies: ["FolioFormat"]),
        // The versions Folio keeps of a folder's files, in its state folder (the pack of
        // contents, the history of versions, the trash), the base chosen for a conflict
        // copy, and the fold of a copy into its file: what the pair sync and the shared
        // folder both stand on.
        .target(name: "FolioVersions", dependencies: ["FolioFolder", "FolioFormat", "FolioMerge", "FolioSystem"]),
        // A folder a sync tool (or git) shares between devices: each device's history of
        // versions as a graph, conflict copies folded on the base it names, the follower.
        .target(name: "FolioShared", dependencies: ["FolioFolder", "FolioFormat", "FolioMerge", "FolioSystem", "FolioVersions"]),
        // Two replicas kept in step: the archive, scanning, reconciliation, safe application.
        .target(name: "FolioSync", dependencies: ["FolioFolder", "FolioFormat", "FolioMerge", "FolioShared", "FolioSystem", "FolioVersions"]),
        // git as the road between devices: a work tree kept in step with its remote branch,
        // records merged field by field, a real clash kept as a conflict copy, never stuck.
        .target(name: "FolioGit", dependencies: ["FolioFolder", "FolioMerge", "FolioShared", "FolioSystem", "FolioVersions"]),
        // The top: re-exports the modules an app uses and ties the store, the watcher and
        // the sync together (a folder with a replica, a pair of replicas followed).
        .target(name: "Folio", dependencies: ["FolioFolder", "FolioFormat", "FolioGit", "FolioMerge", "FolioModel", "FolioShared", "FolioStore", "FolioSync", "FolioSystem", "FolioVersions", "FolioWatch"]),
        // Every raw system call Folio makes, wrapped once (EINTR, typed errors).
        .target(name: "FolioSystem", dependencies: ["CFolioSystem"]),
        // The two atomic renames (no-replace, exchange) that Swift's Glibc module does not export.
        .target(name: "CFolioSystem"),
        // Run by hand from Benchmarks/store.py; not a test.
        .executableTarget(name: "folio-bench", dependencies: ["FolioStore", "FolioSystem", "FolioWatch"], path: "Benchmarks/StoreBenchmark"),
        .executableTarget(name: "folio", dependencies: ["Folio", "FolioFolder", "FolioFormat", "FolioGit", "FolioMerge", "FolioModel", "FolioShared", "FolioStore", "FolioSync", "FolioSystem", "FolioVersions", "FolioWatch"]),
        // Helpers the test suites share: the corpora, seeded randomness, line diffs, a JSON reader.
        .target(name: "FolioTestSupport", dependencies: ["FolioFormat", "FolioSystem"], path: "Tests/FolioTestSupport"),
        .testTarget(name: "FolioFormatTests", dependencies: ["FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioFolderTests", dependencies: ["FolioFolder", "FolioTestSupport"]),
        .testTarget(name: "FolioSystemTests", dependencies: ["FolioSystem", "FolioTestSupport"]),
        .testTarget(name: "FolioStoreTests", dependencies: ["FolioStore", "FolioModel", "FolioFormat", "FolioSystem", "FolioTestSupport"]),
        .testTarget(name: "FolioWatchTests", dependencies: ["FolioWatch", "FolioStore", "FolioSystem", "FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioMergeTests", dependencies: ["FolioMerge", "FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioVersionsTests", dependencies: ["FolioFolder", "FolioSystem", "FolioVersions", "FolioTestSupport"]),
        .testTarget(name: "FolioSharedTests", dependencies: ["FolioFolder", "FolioShared", "FolioSystem", "FolioVersions", "FolioTestSupport"]),
        .testTarget(name: "FolioSyncTests", dependencies: ["FolioFolder", "FolioShared", "FolioSync", "FolioSystem", "FolioVersions", "FolioTestSupport"]),
        .testTarget(name: "FolioGitTests", dependencies: ["FolioFolder", "FolioGit", "FolioSystem", "FolioTestSupport"]),
        .testTarget(name: "FolioTests", dependencies: ["Folio", "FolioShared", "FolioStore", "FolioSync", "FolioVersions", "FolioWatch", "FolioTestSupport"]),
        .testTarget(name: "FolioModelTests", dependencies: ["FolioModel", "FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioCLITests", dependencies: ["folio", "FolioFolder", "FolioFormat", "FolioTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
