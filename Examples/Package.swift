// swift-tools-version:6.0
import PackageDescription

// The five tutorial apps' model layers, written on Folio as an app author would: each a
// type an app holds, tested on Linux; their SwiftUI views compile where SwiftUI exists.
let package = Package(
    name: "FolioExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "TutorialApps", targets: ["TutorialApps"]),
    ],
    dependencies: [
        .package(name: "Folio", path: ".."),
    ],
    targets: [
        .target(name: "TutorialApps", dependencies: [.product(name: "Folio", package: "Folio")]),
        .testTarget(name: "TutorialAppsTests", dependencies: ["TutorialApps"]),
        // The README's Swift snippets as they are (../.ci/snippets writes and checks them).
        .target(name: "ReadmeSnippets", dependencies: [.product(name: "Folio", package: "Folio")]),
    ],
    swiftLanguageModes: [.v6]
)
