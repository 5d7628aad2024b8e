// The replay viewer (ruleset serve --replay FILE): a recorded game, step by step, as any seat or all.
import { drawView, el, showLatest, toast } from "./draw.js";

export function showReplays(root, games) {
  document.getElementById("title").textContent = "replay";
  root.replaceChildren(
    el("div", { class: "lobby" }, el("h1", {}, "Recorded games"),
      el("ol", {}, games.map((g) =>
        el("li", {}, el("a", { href: "#", "data-game": g.game, onclick: (e) => (e.preventDefault(), viewer(root, g)) },
          `${g.ruleset}, ${g.players} players, ${g.moves} moves, totals ${JSON.stringify(g.totals)}`))))),
  );
}

function viewer(root, game) {
  let step = 0;
  let steps = game.moves;
  const seat = el("select", { id: "as" }, el("option", { value: "all" }, "all seats"), el("option", { value: "table" }, "the table (public only)"),
    Array.from({ length: game.players }, (_, p) => el("option", { value: p }, `seat ${p}`)));
  const counter = el("span", { class: "step" });
  const slider = el("input", { type: "range", min: 0, max: steps, value: 0 });
  const board = el("div");
  const go = (to) => { step = Math.max(0, Math.min(steps, to)); show(); };
  const controls = el("div", { class: "controls" },
    el("button", { onclick: () => go(0), title: "first" }, "|◀"),
    el("button", { id: "back", onclick: () => go(step - 1), title: "back" }, "◀"),
    el("button", { id: "forward", onclick: () => go(step + 1), title: "forward" }, "▶"),
    el("button", { onclick: () => go(steps), title: "last" }, "▶|"),
    slider, counter, " as ", seat);
  slider.addEventListener("input", () => go(Number(slider.value)));
  seat.addEventListener("change", show);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });
  let asked = 0;
  async function show() {
    const mine = ++asked; // (an answer to an older step that arrives late is dropped)
    const reply = await fetch(`/api/replay/${game.game}/${step}?seat=${seat.value}`);
    const data = await reply.json();
    if (mine !== asked) return;
    if (!reply.ok) return toast(data.error);
    steps = data.steps;
    slider.max = steps;
    slider.value = step;
    counter.textContent = `step ${step} of ${steps}`;
    const seats = (game.agents || []).map((a) => ({ kind: "agent", agent: a }));
    board.replaceChildren(drawView(data.view, seats, { cardAttrs: () => ({}), decorate() {} }));
    showLatest(board);
  }
  document.getElementById("links").replaceChildren(el("a", { href: `/rulebook/${game.game}`, target: "_blank" }, "rulebook"));
  root.replaceChildren(el("div", { class: "replay" }, controls, board));
  show();
}
