import Foundation

/// Runs each file named on the command line (or every file in a named folder) through `exercise`
/// once, to reproduce a crash in a debugger or check a corpus without libFuzzer; prints
/// "NAME: N inputs, no crash", or exits with status 64 for a path that does not exist.
@MainActor
public func runCorpus(named name: String, _ exercise: ([UInt8]) -> Void) throws {
    var count = 0
    for argument in CommandLine.arguments.dropFirst() {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("\(name): no such file: \(argument)\n".utf8))
            exit(64)
        }
        let paths =
            isFolder.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: argument).sorted().map { argument + "/" + $0 }
            : [argument]
        for path in paths {
            exercise([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            count += 1
        }
    }
    print("\(name): \(count) inputs, no crash")
}
