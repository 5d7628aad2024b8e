// The lobby: pick a ruleset (or upload one), the players, parameters and who sits where.
import { el, toast } from "./draw.js";

const AGENTS = ["random", "greedy", "mcts"];
const JSON_TYPE = { "Content-Type": "application/json" }; // the server takes no other kind of post

export function showLobby(root, rulesets) {
  document.getElementById("title").textContent = "lobby";
  const pick = el("select", { id: "rules", name: "rules" });
  const players = el("select", { id: "players", name: "players" });
  const params = el("div", { id: "params", class: "params" });
  const seats = el("div", { id: "seats", class: "seats" });
  const seed = el("input", { id: "seed", type: "number", placeholder: "random", min: 0 });
  const result = el("div", { id: "links-out" });
  const uploadBox = el("pre", { id: "upload-errors", class: "errors", hidden: true });

  function entry() {
    return rulesets.find((r) => r.key === pick.value);
  }

  function fillRules() {
    pick.replaceChildren(
      ...rulesets.map((r) => el("option", { value: r.key }, `${r.name} (${r.file}${r.origin === "shipped" ? "" : ", " + r.origin})`)),
    );
  }

  function fillPlayers() {
    const r = entry();
    const keep = Number(players.value);
    players.replaceChildren();
    for (let n = r.min; n <= r.max; n++) players.append(el("option", { value: n }, n));
    players.value = keep >= r.min && keep <= r.max ? keep : r.min;
    fillParams();
    fillSeats();
  }

  function fillParams() {
    const r = entry();
    const defaults = r.defaults[players.value] || {};
    params.replaceChildren(
      ...r.params.map((name) =>
        el("label", {}, name, " ", el("input", { name, "data-param": name, placeholder: String(defaults[name] ?? ""), size: 6 })),
      ),
    );
  }

  function fillSeats() {
    const n = Number(players.value);
    const old = [...seats.querySelectorAll(".seat-choice")].map((s) => [s.querySelector("select").value, s.querySelector("input").value]);
    seats.replaceChildren();
    for (let p = 0; p < n; p++) {
      const [kind, strength] = old[p] || [p < 2 ? "human" : "greedy", ""];
      const who = el(
        "select",
        { "data-seat": p },
        el("option", { value: "human" }, "a person"),
        AGENTS.map((a) => el("option", { value: a }, `agent: ${a}`)),
      );
      who.value = kind;
      const opt = el("input", { placeholder: "strength", size: 7, title: "mcts: iterations a move (e.g. 200); greedy: samples", value: strength });
      seats.append(el("div", { class: "seat-choice" }, `seat ${p} `, who, " ", opt));
    }
  }

  async function upload(event) {
    const file = event.target.files[0];
    if (!file) return;
    const reply = await fetch("/api/upload", { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ name: file.name, text: await file.text() }) });
    const data = await reply.json();
    if (!reply.ok) {
      uploadBox.textContent = data.error;
      uploadBox.hidden = false;
      return;
    }
    uploadBox.hidden = true;
    if (!rulesets.some((r) => r.key === data.key)) rulesets.push(data);
    fillRules();
    pick.value = data.key;
    fillPlayers();
  }

  async function create() {
    const request = {
      rules: pick.value,
      players: Number(players.value),
      seed: seed.value === "" ? null : Number(seed.value),
      params: Object.fromEntries([...params.querySelectorAll("input")].map((i) => [i.name, i.value]).filter(([, v]) => v !== "")),
      seats: [...seats.querySelectorAll(".seat-choice")].map((s) => {
        const kind = s.querySelector("select").value;
        const strength = s.querySelector("input").value.trim();
        return kind === "human" ? { kind } : { kind: "agent", agent: strength ? `${kind}:${strength}` : kind };
      }),
    };
    const reply = await fetch("/api/tables", { method: "POST", headers: JSON_TYPE, body: JSON.stringify(request) });
    const data = await reply.json();
    if (!reply.ok) return toast(data.error);
    const link = (path) => el("a", { href: path, target: "_blank" }, new URL(path, location.href).href);
    result.replaceChildren(
      el("h2", {}, `table ${data.table}`),
      el("p", { class: "quiet" }, "Send each person their own link: whoever has it plays that seat."),
      el(
        "ul",
        {},
        data.seats.map((s) =>
          el("li", { "data-seat": s.seat }, `seat ${s.seat}: `, s.link ? link(s.link) : `agent ${s.agent}`),
        ),
        el("li", { "data-spectator": true }, "spectators: ", link(data.spectator)),
      ),
    );
    listTables();
  }

  const tables = el("ul", { id: "tables" });
  async function listTables() {
    const data = await (await fetch("/api/tables")).json();
    tables.replaceChildren(
      ...data.tables.map((t) =>
        el("li", {}, `${t.ruleset}, ${t.players} players, ${t.failure ? "stopped" : t.over ? "finished" : "playing"}: `,
          el("a", { href: t.spectator }, "watch")),
      ),
    );
  }

  pick.addEventListener("change", fillPlayers);
  players.addEventListener("change", () => (fillParams(), fillSeats()));
  fillRules();
  fillPlayers();
  listTables();
  root.replaceChildren(
    el(
      "div",
      { class: "lobby" },
      el("h1", {}, "New table"),
      el("label", {}, "ruleset ", pick, " ", el("a", { href: "#", onclick: (e) => ((e.target.href = `/rulebook/${pick.value}`), true), target: "_blank" }, "rulebook")),
      el("label", { class: "upload" }, "or upload a .rules file ", el("input", { type: "file", accept: ".rules,text/plain", onchange: upload })),
      uploadBox,
      el("label", {}, "players ", players),
      el("fieldset", {}, el("legend", {}, "parameters (empty: the default)"), params),
      el("fieldset", {}, el("legend", {}, "seats"), seats),
      el("label", {}, "seed ", seed),
      el("button", { id: "create", class: "primary", onclick: create }, "Create the table"),
      result,
      el("h2", {}, "Tables on this server"),
      tables,
    ),
  );
}
