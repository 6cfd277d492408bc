import Foundation
/// SIGINT and SIGTERM, caught: they run `onStop` once, then end the process with
/// status 0 (output is written unbuffered, so nothing is lost).
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(onStop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "folio.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                onStop()
                exit(ExitCode.success)
            }
            source.resume()
            return source
        }
    }
}
