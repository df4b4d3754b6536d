// The generic view for any game: its phase, a summary of the view and the full JSON.
import { el, jsonBlock, seatList } from "./dom.js";

function scalarRows(view) {
  const skip = new Set(["game", "seat", "players", "step", "to_move", "is_over", "outcome", "you"]);
  return Object.entries(view)
    .filter(([key, value]) => !skip.has(key) && (value === null || typeof value !== "object"))
    .map(([key, value]) => el("tr", {}, el("th", { text: key }), el("td", { text: String(value) })));
}

export const generic = {
  boardVerbs: new Set(), // verbs played by clicking the board rather than a button

  // What the end of the game reveals, shown under the verdict (null: nothing more to show).
  final() {
    return null;
  },

  status(view) {
    const phase = view.phase ? `phase: ${view.phase}` : "";
    return [phase, `move ${view.step}`].filter(Boolean).join(" · ");
  },

  prompt(view, legal) {
    if (view.is_over) return "The game is over.";
    if (legal.length) {
      const hint = typeof view.prompt === "string" ? ` (${view.prompt})` : "";
      return `Your move: choose one of the actions below${hint}.`;
    }
    return `Waiting for ${seatList(view.to_move, view)}.`;
  },

  board(container, view) {
    const rows = scalarRows(view);
    const summary = rows.length ? el("table", { class: "grid" }, el("tbody", {}, ...rows)) : null;
    const details = el("details", { open: true }, el("summary", { text: "Everything you can see" }),
      jsonBlock(view));
    container.replaceChildren(...[summary, details].filter(Boolean));
  },

  private(container, view) {
    if (view.seat === null) container.replaceChildren(el("p", { class: "muted", text: "You are watching." }));
    else if (view.you) container.replaceChildren(jsonBlock(view.you));
    else container.replaceChildren(el("p", { class: "muted", text: `You play seat ${view.seat}.` }));
  },

  players(container, view, table) {
    const rows = (table?.seats ?? []).map((s) => el("tr", { class: s.seat === view.seat ? "you" : null },
      el("td", { text: `seat ${s.seat}` }), el("td", { text: s.kind === "human" ? "human" : `bot (${s.bot})` }),
      el("td", { text: view.to_move.includes(s.seat) ? "to move" : "" })));
    container.replaceChildren(el("table", { class: "grid" }, el("tbody", {}, ...rows)));
  },
};
