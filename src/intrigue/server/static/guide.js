// "How to play": the game's guide (goal, a turn, a reference entry for every role, card, unit,
// weapon or Honour) from /api/games, the same text the terminal's `rules` command prints.
import { el } from "./dom.js";

let gamesList = null;

export async function guideFor(gameId) {
  gamesList ??= fetch("/api/games").then((r) => (r.ok ? r.json() : []));
  const game = (await gamesList).find((g) => g.id === gameId);
  return game ? { name: game.name, guide: game.guide } : null;
}

export function renderGuide(container, guide) {
  if (!guide) {
    container.replaceChildren(el("p", { text: "No rules summary for this game yet." }));
    return;
  }
  const sections = guide.sections.map((section) => el("section", { class: "guide-section" },
    el("h3", { text: section.title }),
    el("dl", {}, ...section.entries.flatMap((entry) => [
      el("dt", { "data-key": entry.key, text: entry.name }),
      el("dd", { "data-key": entry.key, text: entry.text }),
    ]))));
  container.replaceChildren(
    el("h3", { text: "Goal" }), el("p", { class: "guide-goal", text: guide.goal }),
    el("h3", { text: "A turn" }), el("ol", { class: "guide-turn" }, ...guide.turn.map((step) => el("li", { text: step }))),
    ...guide.notes.map((note) => el("p", { class: "guide-note", text: note })),
    ...sections);
}

// The text of one entry (for tooltips on the board): null when the guide has none.
export function entryText(guide, key) {
  for (const section of guide?.sections ?? []) {
    const entry = section.entries.find((e) => e.key === key);
    if (entry) return `${entry.name}: ${entry.text}`;
  }
  return null;
}

// -- help on the board: hover, focus or tap a thing to read what it is --------------------------
// The page gives the renderers its game's guide once it has loaded; a renderer puts the text
// of what a thing is on it (data-help, from `explain`), and `watchHelp` shows that text in a
// line under the board when the pointer rests on it, a keyboard focuses it or a finger taps it.
let current = null;

export function useGuide(guide) {
  current = guide;
}

// The guide's sentence for `key` ("Grunt: 2 HP, …"), or null; `facts` the numbers it carries.
export function explain(key) {
  return key === undefined || key === null ? null : entryText(current, String(key));
}

export function facts(key) {
  for (const section of current?.sections ?? []) {
    const entry = section.entries.find((e) => e.key === key);
    if (entry) return entry.facts ?? null;
  }
  return null;
}

// "what it is — what the guide says", skipping the parts that are missing.
export function helpText(...parts) {
  return parts.filter(Boolean).join(" — ") || null;
}

export function watchHelp(board, line) {
  if (!board || !line) return;
  const show = (event) => {
    const thing = event.target.closest?.("[data-help]");
    if (thing && board.contains(thing)) line.textContent = thing.getAttribute("data-help");
  };
  for (const kind of ["pointerover", "focusin", "click"]) board.addEventListener(kind, show);
}
