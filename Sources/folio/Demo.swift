import Foundation
import FolioFormat
import FolioSystem

struct Demo {
    func run() throws -> Int32 { 0 }
}
