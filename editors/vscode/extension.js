// The client side of the rules language: starts `ruleset lsp` (the language server, which comes
// with `pip install "ruleset-cards"`) for .rules files, starts it again when its settings
// change (ruleset.command, ruleset.playouts), and stops it with the editor.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function start() {
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
        "Install it with: pip install \"ruleset-cards\" (or pip install . in a checkout), or set ruleset.command."
    );
  });
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => undefined);
  }
  start();
}

function activate(context) {
  start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("ruleset")) {
        restart();
      }
    }),
    { dispose: () => client && client.stop() }
  );
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
