// The one page: the lobby at /, a table at /play/TOKEN, the replay viewer when the server replays.
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplays } from "./replay.js";

const root = document.getElementById("root");
const path = location.pathname;

if (path.startsWith("/play/")) {
  showTable(root, decodeURIComponent(path.slice("/play/".length)));
} else {
  fetch("/api/rulesets")
    .then((r) => r.json())
    .then((data) => (data.replay ? showReplays(root, data.replay) : showLobby(root, data.rulesets)));
}
