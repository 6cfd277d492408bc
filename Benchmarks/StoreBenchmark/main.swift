// folio-bench: the store's side of Benchmarks/store.py (run by hand, never a test).
//   folio-bench load DIR          load the folder into a store once; print the time
//   folio-bench queries DIR RUNS  load, then time RUNS runs of each representative query
//   folio-bench watch-latency DIR N, watch-burst DIR N, watch-setup DIR, watch-idle DIR SECONDS:
//                                 the watcher's figures, driven by Benchmarks/watch.py
import Dispatch
import FolioStore
import FolioSystem

let arguments = Array(CommandLine.arguments.dropFirst())

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

guard arguments.count >= 2 else {
    print("usage: folio-bench load DIR | queries DIR RUNS | watch-latency DIR N | watch-burst DIR N | watch-setup DIR | watch-idle DIR SECONDS")
    exit(2)
}
switch arguments[0] {
case "watch-latency":
    try await WatchBenchmark.latency(arguments[1], count: Int(arguments[2]) ?? 1000)
    exit(0)
case "watch-burst":
    try await WatchBenchmark.burst(arguments[1], count: Int(arguments[2]) ?? 10000)
    exit(0)
case "watch-setup":
    try WatchBenchmark.setup(arguments[1])
    exit(0)
case "watch-idle":
    try await WatchBenchmark.idle(arguments[1], seconds: Int(arguments[2]) ?? 10)
    exit(0)
default:
    break
}
let clock = ContinuousClock()
let start = clock.now
let (state, problems) = try FolderScan.read(arguments[1])
let loadTime = seconds(clock.now - start)
print("loaded \(state.count) records (\(problems.count) unreadable) in \(String(format: "%.3f", loadTime)) s")
if arguments[0] == "phases" {
    // Where loading spends its time: walking and reading files, then parsing and indexing.
    let t0 = clock.now
    let folder = try RootedFolder(arguments[1])
    let walk = try DirectoryWalk.files(under: folder.root, descend: { !$0.hasPrefix(".") }, include: { $0.hasSuffix(".md") })
    let t1 = clock.now
    var files: [String: [UInt8]] = [:]
    for path in walk.paths { files[path] = try FileReading.contents(of: folder[path]) }
    let t2 = clock.now
    let rebuilt = StoreState(files: files)
    let t3 = clock.now
    print("walk \(seconds(t1 - t0)) s, read (one core) \(seconds(t2 - t1)) s, parse+index \(seconds(t3 - t2)) s for \(rebuilt.records.count)")
}

if arguments[0] == "queries" {
    let runs = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
    let queries = [
        ("indexed", "kind:recipe tag:vegetarian"),
        ("indexed", "kind:todo done:false priority>=3 sort:-date limit:10"),
        ("indexed", "kind:recipe time<30m sort:time limit:20"),
        ("indexed", "date>=2024-06-01 date<2024-07-01 sort:date limit:50"),
        ("full-text", "simmer garlic"),
        ("full-text", "\"golden gently\" limit:20"),
        ("full-text", "simmer garlic \"golden gently\""),
    ]
    print("query\tkind\tresults\tp50 ms\tp99 ms")
    for (kind, text) in queries {
        let query = try Query(parsing: text)
        var count = state.records(matching: query).count
        var times: [Double] = []
        for _ in 0..<runs {
            let t0 = clock.now
            count = state.records(matching: query).count
            times.append(seconds(clock.now - t0) * 1000)
        }
        times.sort()
        let p50 = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
        print("\(text)\t\(kind)\t\(count)\t\(String(format: "%.3f", p50))\t\(String(format: "%.3f", p99))")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
