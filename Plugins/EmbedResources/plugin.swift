// Compiles the files of Resources/ (the window's layout, the shortcuts window, the CSS) into
// the GTK module as Swift string constants: the installed binary needs no resource files to
// find, and SwiftPM's Bundle.module, which aborts once the build folder is gone, is not used.

import Foundation
import PackagePlugin

@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Resources")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["ui", "css"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding Resources/ into \(target.name)",
                executable: try context.tool(named: "embed-resources").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
