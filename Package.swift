// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Folio",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FolioFormat", targets: ["FolioFormat"]),
        .library(name: "FolioSystem", targets: ["FolioSystem"]),
        .executable(name: "folio", targets: ["folio"]),
    ],
    targets: [
        // Pure: YAML subset, front matter, lossless edits. No file I/O.
        .target(name: "FolioFormat"),
        // Every raw system call Folio makes, wrapped once (EINTR, typed errors).
        .target(name: "FolioSystem"),
        .executableTarget(name: "folio", dependencies: ["FolioFormat", "FolioSystem"]),
        .testTarget(name: "FolioFormatTests", dependencies: ["FolioFormat"]),
        .testTarget(name: "FolioSystemTests", dependencies: ["FolioSystem"]),
        .testTarget(name: "FolioCLITests", dependencies: ["folio", "FolioFormat"]),
    ],
    swiftLanguageModes: [.v6]
)
