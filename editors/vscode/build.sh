#!/usr/bin/env bash
# Build the VS Code extension (ruleset-rules-VERSION.vsix) with the official packaging tool,
# @vscode/vsce, installed from the npm registry as package-lock.json pins it.
# Usage: editors/vscode/build.sh [OUT.vsix]     (needs node and npm; tests/test_vscode.py runs it)
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-ruleset-rules.vsix}"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund; fi
npx --no-install vsce package --no-dependencies --allow-missing-repository --out "$out"
