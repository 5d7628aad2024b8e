// The client side of the rules language: starts `ruleset lsp` (the language server, installed
// with `pip install "ruleset-cards[lsp]"`) for .rules files and stops it with the editor.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("ruleset");
  const [command, ...args] = config.get("command", ["ruleset", "lsp"]);
  const playouts = config.get("playouts", 100);
  const server = { command, args: [...args, "--playouts", String(playouts)] };
  client = new LanguageClient(
    "ruleset",
    "Rules language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "rules" }] }
  );
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Could not start the rules language server (${command} ${args.join(" ")}): ${err.message}. ` +
        "Install it with: pip install \"ruleset-cards[lsp]\", or set ruleset.command."
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
