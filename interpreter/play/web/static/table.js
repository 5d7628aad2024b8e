// A seat at a table: the server's state over a websocket; click a card, then its target; other choices are buttons.
import { drawView, el, seatName, showLatest, toast } from "./draw.js";

export function showTable(root, token) {
  const title = document.getElementById("title");
  const links = document.getElementById("links");
  let last = null; // the last state message
  let selected = null; // "zone:index:pos" of the card picked, waiting for its target
  let socket = null;
  let tries = 0;

  const key = (place) => `${place.zone}:${place.index}:${place.pos}`;
  // A card the seat sees, played by clicking it; every other move is a button (a draw also by its pile).
  const isCard = (m) => m.kind === "card" && m.from;
  const MANY = 16; // more numbers than this to choose from: a number field, not a button each

  function send(index) {
    socket.send(JSON.stringify({ type: "move", move: index, version: last.version }));
    selected = null;
  }

  function clickCard(place) {
    const moves = last.moves.map((m, i) => [m, i]).filter(([m]) => isCard(m) && key(m.from) === place);
    if (!moves.length) return;
    const targets = new Set(moves.map(([m]) => `${m.to.zone}:${m.to.index}`));
    if (targets.size === 1) return send(moves[0][1]); // one place to go: no second click
    selected = selected === place ? null : place;
    draw();
  }

  function clickTarget(target) {
    if (!selected) return;
    const hit = last.moves.findIndex((m) => isCard(m) && key(m.from) === selected && `${m.to.zone}:${m.to.index}` === target);
    if (hit >= 0) send(hit);
  }

  const hooks = {
    cardAttrs(zone, inst, pos) {
      const place = `${zone.name}:${inst.index}:${pos}`;
      const playable = last.moves.some((m) => isCard(m) && key(m.from) === place);
      return {
        "data-pos": pos,
        "data-playable": playable ? "yes" : null,
        "data-selected": selected === place ? "yes" : null,
        tabindex: playable ? 0 : null,
        onclick: playable ? (e) => (e.stopPropagation(), clickCard(place)) : null,
      };
    },
    decorate(box, zone, inst) {
      const draw = last.moves.findIndex((m) => m.kind === "draw" && m.from.zone === zone.name && m.from.index === inst.index);
      if (draw >= 0) {
        // a pile to draw from: click it
        box.dataset.draw = "yes";
        box.title = last.moves[draw].label;
        box.addEventListener("click", () => send(draw));
      }
      if (!selected) return;
      const target = `${zone.name}:${inst.index}`;
      const ok = last.moves.some((m) => isCard(m) && key(m.from) === selected && `${m.to.zone}:${m.to.index}` === target);
      if (ok) {
        box.dataset.target = "yes";
        box.addEventListener("click", () => clickTarget(target));
      }
    },
  };

  // A button's words: a seat by its name, a number or a value alone (its move names the group), else the move's label.
  function buttonText(m) {
    if (m.kind === "player") return seatName(last.view, m.value, last.seats);
    if (["number", "value", "option"].includes(m.kind)) return String(m.value);
    return m.label;
  }

  function choiceControls() {
    // The moves that are not a card to click, grouped by move: a row of buttons each, only the legal ones.
    const groups = new Map();
    last.moves.forEach((m, i) => {
      if (isCard(m)) return;
      const group = `${m.kind}:${m.move}`;
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push([m, i]);
    });
    return [...groups.values()].map((items) => {
      const [first] = items[0];
      if (first.kind === "number" && items.length > MANY) return numberInput(items);
      const named = ["number", "value", "option", "player"].includes(first.kind);
      return el(
        "div",
        { class: "choice", "data-move": first.move, "data-kind": first.kind },
        named ? el("span", { class: "choice-name" }, `${first.move}:`) : null,
        items.map(([m, i]) =>
          el(
            "button",
            { class: "move choose", "data-move": i, "data-value": m.value === undefined ? null : JSON.stringify(m.value), title: m.label, onclick: () => send(i) },
            buttonText(m),
          ),
        ),
      );
    });
  }

  function numberInput(items) {
    // A long range of numbers: a number field between the lowest and highest legal ones, sent only when legal.
    const values = items.map(([m]) => m.value);
    const [first] = items[0];
    const field = el("input", { type: "number", min: Math.min(...values), max: Math.max(...values), step: 1, value: values[0], "aria-label": first.move });
    const choose = () => {
      const hit = items.find(([m]) => m.value === Number(field.value));
      if (hit) send(hit[1]);
      else toast(`${first.move} ${field.value} is not allowed now`);
    };
    return el(
      "div",
      { class: "choice", "data-move": first.move, "data-kind": first.kind },
      el("span", { class: "choice-name" }, `${first.move}:`),
      field,
      el("button", { class: "move choose", onclick: choose }, first.move),
    );
  }

  function moveButtons() {
    // Moves without a card to click as buttons, and every move as a button too.
    const all = last.moves.map((m, i) => el("button", { class: "move", "data-move": i, onclick: () => send(i) }, m.label));
    const asking = last.view.asking;
    return el(
      "div",
      { class: "moves" },
      asking && asking.seat === last.view.seat && last.moves.length ? el("p", { class: "asked" }, `you are asked: choose ${asking.move}`) : null,
      choiceControls(),
      last.moves.length ? el("details", { class: "all-moves" }, el("summary", {}, `all ${last.moves.length} moves`), all) : null,
      last.chosen ? el("p", { class: "chosen" }, "you have chosen; waiting for the others") : null,
      selected ? el("p", { class: "hint" }, "now click where it goes") : null,
    );
  }

  function draw() {
    const view = last.view;
    title.textContent = `${view.game}` + (view.seat === null ? " (watching)" : ` · seat ${view.seat}`);
    links.replaceChildren(el("a", { href: `/rulebook/${token}`, target: "_blank", rel: "noopener" }, "rulebook"));
    if (last.finished) links.append(el("a", { href: `/record/${token}`, download: true }, "record"));
    const table = drawView(view, last.seats, hooks);
    table.dataset.version = last.version;
    if (last.failure) table.prepend(el("p", { class: "failure" }, `the game stopped: ${last.failure}`));
    const mine = table.querySelector(".seat.me");
    if (mine) mine.after(moveButtons());
    root.replaceChildren(table);
    showLatest(root);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(token)}`);
    socket.onopen = () => (tries = 0);
    socket.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "error" && !last) root.replaceChildren(el("p", { class: "failure" }, msg.message));
      if (msg.type === "error") return toast(msg.message);
      if (msg.type !== "state") return;
      if (last && selected && msg.version !== last.version) selected = null;
      last = msg;
      draw();
    };
    socket.onclose = (event) => {
      if (event.code === 4404) {
        root.replaceChildren(el("p", { class: "failure" }, "no table has this link"));
        return;
      }
      toast("connection lost; reconnecting…");
      setTimeout(connect, Math.min(5000, 500 * ++tries));
    };
  }

  root.replaceChildren(el("p", { class: "quiet" }, "connecting…"));
  connect();
}
