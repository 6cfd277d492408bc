import FolioSystem

extension Duration {
    /// The duration in whole nanoseconds (what the clock readings Folio compares are in).
    package var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
