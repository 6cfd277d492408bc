// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Folio",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FolioFormat", targets: ["FolioFormat"]),
        .library(name: "FolioSystem", targets: ["FolioSystem"]),
        .library(name: "FolioModel", targets: ["FolioModel"]),
        .library(name: "FolioStore", targets: ["FolioStore"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    targets: [
        // Pure: YAML subset, front matter, lossless edits. No file I/O.
        .target(name: "FolioFormat"),
        // Typed views (recipe, todo, workout, quote, note), durations, quantities, validation.
        .target(name: "FolioModel", dependencies: ["FolioFormat"]),
        // State, actions, one reducer, indexes, queries, observation, loading and atomic writes.
        .target(name: "FolioStore", dependencies: ["FolioFormat", "FolioModel", "FolioSystem"]),
        // Every raw system call Folio makes, wrapped once (EINTR, typed errors).
        .target(name: "FolioSystem"),
        // Run by hand from Benchmarks/store.py; not a test.
        .executableTarget(name: "folio-bench", dependencies: ["FolioStore", "FolioSystem"], path: "Benchmarks/StoreBenchmark"),
        .executableTarget(name: "folio", dependencies: ["FolioFormat", "FolioModel", "FolioStore", "FolioSystem"]),
        // Helpers the test suites share: the corpora, seeded randomness, line diffs, a JSON reader.
        .target(name: "FolioTestSupport", dependencies: ["FolioFormat"], path: "Tests/FolioTestSupport"),
        .testTarget(name: "FolioFormatTests", dependencies: ["FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioSystemTests", dependencies: ["FolioSystem"]),
        .testTarget(name: "FolioStoreTests", dependencies: ["FolioStore", "FolioModel", "FolioFormat", "FolioSystem", "FolioTestSupport"]),
        .testTarget(name: "FolioModelTests", dependencies: ["FolioModel", "FolioFormat", "FolioTestSupport"]),
        .testTarget(name: "FolioCLITests", dependencies: ["folio", "FolioFormat"]),
    ],
    swiftLanguageModes: [.v6]
)
