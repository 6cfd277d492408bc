import FolioSystem
import FolioVersions

/// One line of a device's log in a shared folder's `.folio/logs/DEVICE.log`: what that
/// device saw or did at one path. The logs of all devices together form the
/// ``VersionGraph``.
public struct VersionEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// The path was edited here (by a person or an app): a new version made from
        /// `parents` (none for a file this device was the first to see).
        case edit
        /// A conflict copy (`copy`) was folded into the file: the merge of `parents`.
        case fold
        /// The path now holds a version made elsewhere (a sync tool wrote it): no edge.
        case arrival
        /// git wrote the path (a checkout, a stash, a reset): no edge, and never a version
        /// a sync tool dropped.
        case gitCheckout = "git-checkout"
        /// A version proved dropped by the sync tool was written back as a copy (`path`).
        case restore
        /// The path was removed.
        case delete
    }

    /// An event's identity: the device that logged it and its number in that log.
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The device (its log's name).
        public var device: String
        /// The event's number in the device's log (1, 2, …; never reused).
        public var sequence: Int

        /// An identity.
        package init(device: String, sequence: Int) {
            (self.device, self.sequence) = (device, sequence)
        }

        /// `DEVICE:SEQUENCE`.
        public var description: String { "\(device):\(sequence)" }

        /// Parses `DEVICE:SEQUENCE`.
        package init?(_ text: Substring) {
            guard let colon = text.lastIndex(of: ":"), let number = Int(text[text.index(after: colon)...]), number > 0,
                  colon > text.startIndex
            else { return nil }
            (device, sequence) = (String(text[..<colon]), number)
        }

        /// By device, then number: a total order every device computes alike.
        public static func < (lhs: ID, rhs: ID) -> Bool { (lhs.device, lhs.sequence) < (rhs.device, rhs.sequence) }
    }

    /// The event's identity.
    public var id: ID
    /// When (ns since the epoch, by the logging device's clock).
    public var time: Int64
    /// What happened.
    public var kind: Kind
    /// The versions this one was made from (edits, folds, restores), or what the path
    /// held before (a delete).
    public var parents: [ID]
    /// The content's SHA-256 (nil for a delete).
    package var version: SHA256.Digest?
    /// The content's SHA-256 in hex, as `sha256sum` prints it (nil for a delete).
    public var contentHash: String? { version?.description }
    /// The path, relative to the shared folder.
    public var path: String
    /// For a fold, the conflict copy folded.
    public var copy: String?

    /// An event.
    package init(id: ID, time: Int64, kind: Kind, parents: [ID] = [], version: SHA256.Digest?, path: String, copy: String? = nil) {
        (self.id, self.time, self.kind, self.parents, self.version, self.path, self.copy) = (id, time, kind, parents, version, path, copy)
    }

    /// Whether the event made a version (an edit from something, a fold, a restore):
    /// the graph's real nodes. Arrivals, git's writes and first sightings stand for a
    /// version made elsewhere.
    public var madeVersion: Bool {
        switch kind {
        case .fold, .restore: return true
        case .edit: return !parents.isEmpty
        case .arrival, .gitCheckout, .delete: return false
        }
    }
}

extension VersionEvent {
    /// The log line: `SEQ TIME KIND PARENTS VERSION PATH COPY`, tab-separated, with `-`
    /// for none and paths escaped as the archive escapes them; the version in 64 hex
    /// digits, as every Folio reads it (the published logs).
    package var line: [UInt8] { line(hashInBase64: false) }

    /// The line in the device's own log in its state folder: the version in 43 base64url
    /// characters (a sixth of the line less; only this Folio reads that log).
    package var ownLine: [UInt8] { line(hashInBase64: true) }

    private func line(hashInBase64: Bool) -> [UInt8] {
        var out = Array("\(id.sequence)\t\(time)\t\(kind.rawValue)\t".utf8)
        out += Array((parents.isEmpty ? "-" : parents.map(\.description).joined(separator: ",")).utf8)
        out.append(9)
        if let version { hashInBase64 ? version.appendBase64(to: &out) : version.appendHex(to: &out) } else { out.append(UInt8(ascii: "-")) }
        out.append(9)
        LineFields.appendEscaped(path, to: &out)
        out.append(9)
        if let copy { LineFields.appendEscaped(copy, to: &out) } else { out.append(UInt8(ascii: "-")) }
        out.append(10)
        return out
    }

    /// The events of `device`'s log `bytes`. A line that does not parse — the last one
    /// cut short by a crash, or damage — is passed over.
    package static func parse(_ bytes: [UInt8], device: String) -> [VersionEvent] {
        var events: [VersionEvent] = []
        var start = 0
        while let end = bytes[start...].firstIndex(of: 10) {
            defer { start = end + 1 }
            let fields = bytes[start..<end].split(separator: 9, omittingEmptySubsequences: false)
            guard fields.count == 7, let sequence = LineFields.integer(fields[0]), sequence > 0,
                  let time = LineFields.integer(fields[1]),
                  let kind = Kind(rawValue: String(decoding: fields[2], as: UTF8.self)),
                  let path = LineFields.unescaped(fields[5]), !path.isEmpty
            else { continue }
            let parentText = String(decoding: fields[3], as: UTF8.self)
            var parents: [ID] = []
            if parentText != "-" {
                let parsed = parentText.split(separator: ",").map { ID($0) }
                guard !parsed.contains(where: { $0 == nil }) else { continue }
                parents = parsed.compactMap { $0 }
            }
            let none = fields[4].elementsEqual("-".utf8)
            // In hex (a published log, or an own log an earlier Folio wrote) or base64url (an own log).
            let version = none ? nil : Array(fields[4]).withUnsafeBufferPointer { SHA256.Digest(hex: $0) ?? SHA256.Digest(base64: $0) }
            guard version != nil || (none && kind == .delete) else { continue }
            let copy = fields[6].elementsEqual("-".utf8) ? nil : LineFields.unescaped(fields[6])
            events.append(VersionEvent(id: ID(device: device, sequence: Int(sequence)), time: time, kind: kind, parents: parents, version: version, path: path, copy: copy))
        }
        return events
    }
}
