#!/usr/bin/env bash
# Build the VS Code extension (ruleset-rules.vsix) with the official packaging tool, @vscode/vsce,
# installed from the npm registry as package-lock.json pins it; vsce bundles the client with esbuild.
# Usage: editors/vscode/build.sh [OUT.vsix]     (needs node and npm; tests/test_vscode.py runs it)
#
# The tools (about 300 packages, 150 MB, most of them vsce's for publishing) take a minute to install
# and a few seconds to use: they are installed once per version of package-lock.json, in the user's
# cache folder beside the parser's tables, and node_modules here links to them.
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-ruleset-rules.vsix}"
digest=$(cat package.json package-lock.json | sha256sum | cut -c1-16)
tools="${XDG_CACHE_HOME:-$HOME/.cache}/ruleset/vscode-tools-$digest"
if [ ! -d "$tools/node_modules" ]; then
  mkdir -p "$(dirname "$tools")"
  fresh=$(mktemp -d "$tools.XXXXXX")
  trap 'rm -rf "$fresh"' EXIT
  cp package.json package-lock.json "$fresh/"
  (cd "$fresh" && npm ci --no-audit --no-fund --loglevel=error)
  # another build may have installed them meanwhile: then its copy is kept, and this one dropped
  mv -T "$fresh" "$tools" 2>/dev/null || true
fi
if [ ! -L node_modules ] && [ -e node_modules ]; then rm -rf node_modules; fi
ln -sfn "$tools/node_modules" node_modules
npx --no-install vsce package --no-dependencies --allow-missing-repository --out "$out"
