// Drawing a seat's view: zones from the IR, cards from their attributes. Nothing here knows a game.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 4000);
}

const colours = new Map();
function isColour(value) {
  // A text attribute whose value is a CSS colour name ("red", "violet") colours the card.
  if (typeof value !== "string" || !/^[a-z]+$/i.test(value)) return false;
  if (!colours.has(value)) colours.set(value, CSS.supports("color", value));
  return colours.get(value);
}

// A card in words, as text/move_words.py's card_name says it (a plain deck's type `card` unsaid
// before two values or more: `hearts 12`, but `card 17`).
export function cardText(card) {
  if (!card) return "a hidden card";
  const values = Object.entries(card).filter(([k]) => k !== "type").map(([, v]) => v);
  return (card.type === "card" && values.length > 1 ? values : [card.type, ...values]).join(" ");
}

// One card: its type as a label, numbers large, text attributes as labels, a colour name as its colour.
export function drawCard(card, kinds, attrs = {}) {
  const numbers = [];
  const labels = [];
  let colour = null;
  for (const [name, value] of Object.entries(card)) {
    if (name === "type" || value === null || value === undefined) continue;
    if (kinds[name] === "number") numbers.push([name, value]);
    else if (!colour && isColour(value)) colour = value;
    else labels.push([name, value]);
  }
  const { class: extra, ...rest } = attrs;
  const node = el(
    "div",
    { class: "card" + (colour ? " coloured" : "") + (extra ? ` ${extra}` : ""), title: cardText(card), "data-card": cardText(card), ...rest },
    el("span", { class: "type" }, card.type),
    el("span", { class: "numbers" }, numbers.map(([n, v]) => el("b", { title: n }, v))),
    el("span", { class: "labels" }, labels.map(([n, v]) => el("i", { title: n }, v))),
    colour ? el("span", { class: "colour-name" }, colour) : null,
  );
  if (colour) node.style.setProperty("--card", colour);
  return node;
}

export function drawBacks(count) {
  const shown = Math.min(count, 8);
  const backs = Array.from({ length: shown }, () => el("div", { class: "card back" }));
  return el("div", { class: "backs", title: `${count} hidden card(s)` }, backs, el("span", { class: "count" }, `${count}`));
}

export function seatName(view, seat, seats) {
  const who = seat === view.seat ? "you" : `seat ${seat}`;
  const s = seats && seats[seat];
  return s && s.kind === "agent" ? `${who} (${s.agent})` : who;
}

function instanceLabel(zone, inst) {
  if (zone.per_player) return zone.name;
  const many = zone.instances.length > 1;
  return many ? `${zone.name} ${inst.index + 1}` : zone.name;
}

// One zone instance: its title, derived values, then its cards, piles or backs.
export function drawInstance(zone, inst, view, seats, hooks) {
  const box = el("section", {
    class: `zone ${zone.visibility}` + (zone.piles ? " piled" : ""),
    "data-zone": zone.name,
    "data-index": inst.index,
    "data-owner": inst.owner ?? "",
  });
  box.append(el("h3", {}, instanceLabel(zone, inst), el("span", { class: "n" }, ` ${inst.count}`)));
  if (inst.derived && inst.derived.length) box.append(el("p", { class: "derived" }, inst.derived.join(" · ")));
  const row = el("div", { class: "cards" });
  if (inst.cards) {
    // (a hand comes in the order a person holds it: each card's place in the zone, for its moves, in positions)
    inst.cards.forEach((card, i) => row.append(drawCard(card, view.attributes, hooks.cardAttrs(zone, inst, inst.positions ? inst.positions[i] : i))));
  } else if (inst.piles) {
    let pos = 0;
    for (const pile of inst.piles) {
      const p = el("div", { class: "pile" });
      for (const card of pile) p.append(drawCard(card, view.attributes, hooks.cardAttrs(zone, inst, pos++)));
      row.append(p);
    }
  } else if (inst.count) {
    // hidden cards: backs, but those the rules showed to this seat alone (a priest's look) face up, marked
    const shown = inst.shown || [];
    if (inst.count > shown.length) row.append(drawBacks(inst.count - shown.length));
    if (shown.length) {
      row.append(
        el("div", { class: "shown", "data-shown": shown.length }, el("span", { class: "shown-label" }, "shown to you"),
          shown.map((card) => drawCard(card, view.attributes, { class: "shown-card" }))),
      );
    }
  }
  box.append(row);
  // what this seat was told of its cards (`tell`), by place: knowledge, not sight
  if (inst.told && inst.told.length) box.append(el("p", { class: "told" }, "told you: " + inst.told.join(" · ")));
  hooks.decorate(box, zone, inst);
  return box;
}

// The whole table: status, scores, the others' zones, the shared zones, yours, the last moves.
export function drawView(view, seats, hooks) {
  const mine = view.seat;
  const zones = view.zones;
  const shared = zones.filter((z) => !z.per_player);
  const owned = (p) => zones.filter((z) => z.per_player).map((z) => [z, z.instances.find((i) => i.owner === p)]);
  const others = [];
  for (let p = 0; p < view.players; p++) {
    if (p === mine) continue;
    const seat = el("div", { class: seatClass(view, p), "data-seat": p });
    seat.append(el("h2", {}, seatName(view, p, seats), el("span", { class: "score" }, ` ${view.totals[p]}`)));
    const notes = seatNotes(view, p);
    if (notes) seat.append(notes);
    // (another seat's empty zones are left out: a phone has no room for them)
    for (const [z, inst] of owned(p)) if (inst && inst.count) seat.append(drawInstance(z, inst, view, seats, hooks));
    others.push(seat);
  }
  const middle = shared.flatMap((z) => z.instances.map((inst) => drawInstance(z, inst, view, seats, hooks)));
  const me =
    mine === null
      ? null
      : el(
          "div",
          { class: seatClass(view, mine) + " me", "data-seat": mine },
          el("h2", {}, "you", el("span", { class: "score" }, ` ${view.totals[mine]}`)),
          seatNotes(view, mine),
          owned(mine).map(([z, inst]) => (inst ? drawInstance(z, inst, view, seats, hooks) : null)),
        );
  return el(
    "div",
    { class: "table" },
    el("div", { class: "status" }, statusLine(view, seats)),
    el("div", { class: "scores" }, scoreList(view, seats)),
    el("div", { class: "others" }, others),
    gameVars(view),
    middle.length ? el("div", { class: "shared" }, middle) : null,
    me,
    lastRound(view, seats),
    gameLog(view),
  );
}

// The whole game as this seat was told of it, in words, round by round: scrolls, the latest at the bottom.
function gameLog(view) {
  const items = [];
  let round = null;
  for (const entry of view.log || []) {
    if (entry.round !== round) {
      round = entry.round;
      items.push(el("li", { class: "log-round" }, `round ${round}`));
    }
    items.push(el("li", { "data-round": entry.round }, entry.text));
  }
  return el("details", { class: "log", open: true }, el("summary", {}, "what happened"), el("ol", {}, items));
}

// Scroll a drawn table's log to its latest entry (once the table is on the page).
export function showLatest(root) {
  const log = root.querySelector(".log ol");
  if (log) log.scrollTop = log.scrollHeight;
}

const eliminated = (view, p) => (view.eliminated || []).includes(p);

function seatClass(view, p) {
  return "seat" + (view.current === p ? " turn" : "") + (eliminated(view, p) ? " out" : "");
}

// A counter's value: null is "none", or "?" for another seat's private counter this seat may not see;
// a variable that holds a player (`var maker player`) as that seat.
const shownValue = (view, name, v, p) => {
  if (v === null || v === undefined)
    return (view.hidden_vars || []).includes(name) && p !== view.seat ? "?" : "none";
  return (view.player_vars || []).includes(name) ? seatName(view, v) : String(v);
};
const varLabel = (view, name) => (view.var_labels || {})[name] || name;
// The counters a player may read: not the rules' own (hidden ones).
const shownVars = (view) => Object.entries(view.vars || {}).filter(([name]) => !(view.internal_vars || []).includes(name));

// Under a seat's name: out of the round, its statuses (protected), its own counters as the seat may see them.
function seatNotes(view, p) {
  const notes = [];
  if (eliminated(view, p)) notes.push(el("span", { class: "badge out-badge" }, "out of the round"));
  if ((view.skipped || []).includes(p)) notes.push(el("span", { class: "badge status", "data-status": "skipped" }, "loses their next turn"));
  const statuses = view.statuses || [];
  for (const [name, value] of shownVars(view)) {
    if (!Array.isArray(value)) continue;
    if (statuses.includes(name)) {
      if (value[p]) notes.push(el("span", { class: "badge status", "data-status": name }, varLabel(view, name)));
    } else {
      notes.push(el("span", { class: "var", "data-var": name }, `${varLabel(view, name)} ${shownValue(view, name, value[p], p)}`));
    }
  }
  return notes.length ? el("div", { class: "notes" }, notes) : null;
}

// The game's own counters (not per player), as the seat may see them.
function gameVars(view) {
  const shared = shownVars(view).filter(([, v]) => !Array.isArray(v));
  if (!shared.length) return null;
  return el("div", { class: "vars" }, shared.map(([name, v]) => el("span", { class: "var", "data-var": name }, `${varLabel(view, name)} ${shownValue(view, name, v)}`)));
}

function statusLine(view, seats) {
  const parts = [view.rounds === null ? `round ${view.round}` : `round ${view.round} of ${view.rounds}`, `phase ${view.phase}`, `dealer ${seatName(view, view.dealer, seats)}`];
  if (view.turn_order === "counterclockwise") parts.push("turn order reversed");
  let turn;
  if (view.over && view.cooperative) {
    turn = `game over: ${view.cooperative === "won" ? "everyone wins" : "everyone loses"}`;
  } else if (view.over) {
    const names = view.winners.map((p) => seatName(view, p, seats)).join(", ");
    turn = `game over: ${names} ${view.winners.length > 1 ? "win" : "wins"}`;
  } else if (view.asking) {
    const who = view.asking.seat === view.seat ? "you choose" : `${seatName(view, view.asking.seat, seats)} chooses`;
    turn = `${who} ${view.asking.move}`;
  } else if (view.simultaneous) {
    turn = "everyone chooses at once; waiting for " + view.waiting.map((p) => seatName(view, p, seats)).join(", ");
  } else {
    turn = view.current === view.seat ? "your turn" : `${seatName(view, view.current, seats)} to move`;
  }
  return [el("strong", { class: "turn-line" }, turn), " · ", parts.join(" · ")];
}

function scoreList(view, seats) {
  return view.totals.map((t, p) =>
    el(
      "span",
      { class: "total" + (p === view.current ? " turn" : "") + (p === view.seat ? " mine" : ""), "data-seat": p },
      `${seatName(view, p, seats)}: ${t}`,
    ),
  );
}

function lastRound(view, seats) {
  const last = view.last_round;
  if (!last) return null;
  const revealed = Object.entries(last.revealed || {}).map(([name, lists]) =>
    el(
      "div",
      { class: "revealed", "data-zone": name },
      lists.map((cards, i) =>
        el("div", { class: "zone" }, el("h3", {}, `${name} of ${seatName(view, i, seats)}`),
          el("div", { class: "cards" }, cards.map((c) => drawCard(c, view.attributes)))),
      ),
    ),
  );
  return el(
    "div",
    { class: "last-round" },
    el("h2", {}, `round ${last.round} scored`),
    el("p", {}, last.scores.map((s, p) => `${seatName(view, p, seats)} ${s >= 0 ? "+" : ""}${s}`).join(" · ")),
    revealed,
  );
}
