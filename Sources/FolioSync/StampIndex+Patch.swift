import FolioSystem

extension StampIndex.Body {
    /// The body of `index` with the entries at the `changes` paths set as given (nil:
    /// gone), each only if `including` keeps it, and `files` the archive's file count
    /// now: what a pass that changed a few paths of 100,000 makes instead of the whole
    /// body — a table and records copied, a few records written — so that its cost is
    /// the copy, not a walk of the archive. Nil when the index's bytes do not hold up,
    /// or when records left behind would take more than a quarter of its size (a new
    /// body from the archive then packs them again).
    init?(patching index: StampIndex, setting changes: some Sequence<(SyncPath, SyncArchive.Entry?)>, files: Int, including: (SyncPath) -> Bool) {
        self.files = files
        (count, slots) = (index.count, index.slots)
        let copied: (table: [UInt32], offsets: [UInt32])? = index.bytes.withUnsafeBytes { raw in
            func words(from start: Int, count: Int) -> [UInt32] {
                (0..<count).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * 4, as: UInt32.self)) }
            }
            let offsets = words(from: index.offsetsStart, count: index.count)
            guard offsets.allSatisfy({ Int($0) + 3 <= raw.count - index.recordsStart }) else { return nil }
            return (words(from: index.tableStart, count: index.slots), offsets)
        }
        guard let copied else { return nil }
        (table, offsets) = copied
        records = Array(index.bytes[index.recordsStart...])
        for (path, entry) in changes {
            var key = path.key
            let kept = key.utf8.count <= Int(UInt16.max) && including(path) ? entry : nil
            let found = key.withUTF8 { find($0) }
            switch (found, kept) {
            case (nil, nil):
                continue
            case (let (slot, number)?, nil):
                remove(slot: slot, number: number)
            case (let (_, number)?, let entry?):
                let at = Int(offsets[number])
                if records[at] == Self.recordFlags(isFolder: path.isFolder, entry) {
                    // The same shape: written over where it lies.
                    var record: [UInt8] = []
                    Self.appendRecord(path, entry, to: &record)
                    records.replaceSubrange(at..<(at + record.count), with: record)
                } else {
                    offsets[number] = UInt32(records.count)
                    Self.appendRecord(path, entry, to: &records)
                }
            case (nil, let entry?):
                offsets.append(UInt32(records.count))
                Self.appendRecord(path, entry, to: &records)
                count += 1
                if count * 2 > slots { rehash(slots: slots * 2) } else { place(count - 1, hash: key.withUTF8 { StampIndex.hash($0) }) }
            }
        }
        guard records.count <= Int(Int32.max), records.count - liveLength() <= records.count / 4 else { return nil }
        _checkInvariants()
    }

    /// The key bytes of record `number`.
    private func key(of number: Int) -> ArraySlice<UInt8> {
        let at = Int(offsets[number])
        let length = Int(records[at + 1]) | Int(records[at + 2]) << 8
        return records[(at + 3)..<(at + 3 + length)]
    }

    /// How many bytes record `number` takes.
    private func length(of number: Int) -> Int {
        let at = Int(offsets[number])
        let flags = records[at]
        let stamps = (flags & StampIndex.stampAFlag != 0 ? 1 : 0) + (flags & StampIndex.stampBFlag != 0 ? 1 : 0)
        return 3 + key(of: number).count + stamps * StampIndex.stampSize
    }

    /// How many bytes of ``records`` the numbered records take (the rest was left behind).
    private func liveLength() -> Int { (0..<count).reduce(0) { $0 + length(of: $1) } }

    /// The slot and number of the record whose key is `key`.
    private func find(_ key: UnsafeBufferPointer<UInt8>) -> (slot: Int, number: Int)? {
        var slot = Int(truncatingIfNeeded: StampIndex.hash(key)) & (slots - 1)
        while table[slot] != 0 {
            let number = Int(table[slot]) - 1
            if self.key(of: number).elementsEqual(key) { return (slot, number) }
            slot = (slot + 1) & (slots - 1)
        }
        return nil
    }

    /// Puts record `number`, whose key hashes to `hash`, in the first free slot from its own.
    mutating func place(_ number: Int, hash: UInt64) {
        var slot = Int(truncatingIfNeeded: hash) & (slots - 1)
        while table[slot] != 0 { slot = (slot + 1) & (slots - 1) }
        table[slot] = UInt32(number + 1)
    }

    /// A table of `slots` slots for the numbered records.
    private mutating func rehash(slots: Int) {
        self.slots = slots
        table = [UInt32](repeating: 0, count: slots)
        for number in 0..<count { place(number, hash: StampIndex.hash(key(of: number))) }
    }

    /// Takes record `number`, in `slot`, out: the slots after it that probed past it move
    /// back (so that no search stops short at the hole), and the last record takes its
    /// number (so that the numbers stay in a row; its bytes stay, left behind).
    private mutating func remove(slot: Int, number: Int) {
        let mask = slots - 1
        var hole = slot
        var next = (slot + 1) & mask
        table[slot] = 0
        while table[next] != 0 {
            let home = Int(truncatingIfNeeded: StampIndex.hash(key(of: Int(table[next]) - 1))) & mask
            // Moved back unless its home lies cyclically after the hole, up to where it is.
            if (next - home) & mask >= (next - hole) & mask {
                table[hole] = table[next]
                table[next] = 0
                hole = next
            }
            next = (next + 1) & mask
        }
        let last = count - 1
        if number != last {
            table[tableSlot(holding: last)] = UInt32(number + 1)
            offsets[number] = offsets[last]
        }
        offsets.removeLast()
        count -= 1
    }

    /// The slot holding record `number`.
    private func tableSlot(holding number: Int) -> Int {
        var slot = Int(truncatingIfNeeded: StampIndex.hash(key(of: number))) & (slots - 1)
        while Int(table[slot]) - 1 != number { slot = (slot + 1) & (slots - 1) }
        return slot
    }

    /// Every numbered record is found by its key, in a table at most half full, and no
    /// key is numbered twice. Debug builds only.
    func _checkInvariants() {
        #if DEBUG
        precondition(offsets.count == count && count * 2 <= slots && table.count == slots, "the stamp index's counts disagree")
        precondition(table.count { $0 != 0 } == count, "the stamp index's table holds \(table.count { $0 != 0 }) records of \(count)")
        for number in 0..<count {
            let found = Array(key(of: number)).withUnsafeBufferPointer { find($0) }
            precondition(found?.number == number, "record \(number) of the stamp index is not found by its key")
        }
        #endif
    }
}
