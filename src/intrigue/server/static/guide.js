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
