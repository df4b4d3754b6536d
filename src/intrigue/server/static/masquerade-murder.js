// Masquerade Murder: the seat board in SVG (tables, seats, cubes), the players and your secrets.
// Everything is drawn from the seat's view; clicking a highlighted seat plays "place"/"swap".
import { SCROLL, cap, el, seatList, seatName, svg } from "./dom.js";
import { generic } from "./generic.js";
import { drawRecent } from "./recent.js";
import { explain, helpText } from "./guide.js";

const CELL = 56;
const COLOURS = ["#b8336a", "#2f6690", "#3a7d44", "#c26d1a", "#6a4c93", "#2a9d8f", "#8d6e63"];
const PHASES = {
  target: "every player secretly chooses a target",
  draft: "order draft: the pile passes round the seating",
  placement: "placement: cubes sit down in card order",
  over: "the ball is over",
};
const CARDS = { ace: "Ace", two: "Two", jack: "Jack", queen: "Queen", king: "King", joker: "Joker" };
const card = (c) => (c ? CARDS[c] ?? c : "—");

let selected = null; // the placed cell picked as the first half of a Joker swap

function legalMoves(legal) {
  const place = new Set();
  const swaps = new Map();
  for (const { action } of legal) {
    const [verb, a, b] = action.split(" ");
    if (verb === "place") place.add(a);
    if (verb === "swap") swaps.set(a, [...(swaps.get(a) ?? []), b]);
  }
  return { place, swaps };
}

function cells(view) {
  // Cubes placed tonight; while none are, last night's places, faded.
  const now = new Map(view.table.filter((r) => r.cell).map((r) => [r.cell, r.seat]));
  if (now.size || !view.nights.length) return { map: now, old: false };
  const last = view.nights[view.nights.length - 1];
  return { map: new Map(Object.entries(last.cells).map(([s, c]) => [c, Number(s)])), old: true };
}

function prompt(view, legal) {
  if (view.is_over) return "The ball is over.";
  const waiting = `Waiting for ${seatList(view.to_move, view)}`;
  if (!legal.length) {
    return view.phase === "target" ? `${waiting} to choose a target.` : `${waiting}.`;
  }
  if (view.phase === "target") return "Choose your secret target.";
  if (view.phase === "draft") return "Take an order card from the pile.";
  const { swaps } = legalMoves(legal);
  if (swaps.size) return "Your cube: click a highlighted seat — or, with the Joker, click a placed cube and then where it goes.";
  return "Your cube: click a highlighted seat on the board.";
}

function cellRect(name, x, y, legal, send, redraw) {
  const { place, swaps } = legal;
  let mark = null;
  let click = null;
  if (selected && (swaps.get(selected) ?? []).includes(name)) {
    mark = "swap-to";
    click = () => { const from = selected; selected = null; send(`swap ${from} ${name}`); };
  } else if (!selected && place.has(name)) {
    mark = "place";
    click = () => send(`place ${name}`);
  } else if (selected) {
    click = () => { selected = null; redraw(); };
  }
  return svg("g", {},
    svg("rect", { class: "cell-seat", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6,
      "data-cell": name, "data-legal": mark, onclick: click, "data-help": helpText(name, explain("seat")) }),
    svg("text", { class: "cell-name", x: x + 5, y: y + 13, text: name }));
}

function cube(name, seat, x, y, view, old, legal, redraw) {
  const canSwap = legal.swaps.has(name);
  const pick = () => { selected = selected === name ? null : name; redraw(); };
  return svg("g", { class: old ? "old" : null, "data-piece-at": old ? null : name },
    svg("rect", { class: `cube${selected === name ? " selected" : ""}`, x: x + 11, y: y + 11,
      width: CELL - 22, height: CELL - 22, rx: 5,
      fill: seat === view.seat ? "var(--you)" : COLOURS[seat % COLOURS.length],
      "data-cube": seat, "data-cell": name, "data-legal": canSwap ? "swap-from" : null,
      onclick: canSwap ? pick : null,
      "data-help": helpText(`${name}: ${seatName(seat, view)}'s cube${old ? ", last night" : ""}`, explain("cube")) }),
    svg("text", { class: "cube-label", x: x + CELL / 2, y: y + CELL / 2 + 7, "text-anchor": "middle",
      text: String(seat) }));
}

function boardSvg(view, legal, send, redraw) {
  const rows = view.board.rows;
  const { map, old } = cells(view);
  const moves = legalMoves(legal);
  const parts = [];
  rows.forEach((line, r) => [...line].forEach((ch, c) => {
    const name = `${"abcdefghij"[c]}${r + 1}`;
    const [x, y] = [c * CELL, r * CELL];
    if (ch === "#") {
      parts.push(svg("rect", { class: "cell-table", x, y, width: CELL, height: CELL,
        "data-help": explain("table") }));
      return;
    }
    parts.push(cellRect(name, x, y, moves, send, redraw));
    if (map.has(name)) parts.push(cube(name, map.get(name), x, y, view, old, moves, redraw));
  }));
  const width = rows[0].length * CELL;
  const height = rows.length * CELL;
  const board = svg("svg", { class: "board", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `seat board ${view.board.name}` }, ...parts);
  drawRecent(board, recentMarks, (name) => cellCentre(rows, name), CELL);
  const caption = old ? `night ${view.nights[view.nights.length - 1].night}'s places` : view.board.name;
  return [
    board,
    el("p", { class: "muted", text: `Board ${caption}. Seating, clockwise: ${view.seating.join(" → ")}.` }),
  ];
}

function meaning(colour) {
  // "GREY: Your action was not performed…" without the repeated name.
  const text = explain(colour);
  return text ? text.slice(text.indexOf(":") + 1).trim() : "";
}

function cellCentre(rows, name) {
  const [c, r] = ["abcdefghij".indexOf(name[0]), Number(name.slice(1)) - 1];
  if (c < 0 || rows[r]?.[c] === undefined || rows[r][c] === "#") return null;
  return [c * CELL + CELL / 2, r * CELL + CELL / 2];
}

// Cubes sat down since your last move (brackets), and a Joker's swap: the cube it moved away
// (an arrow) and the Joker's own cube where that one stood.
function recentMarks(entries) {
  return entries.flatMap(({ event: e, text }) => {
    if (e.kind === "placed") return [{ kind: "place", at: e.cell, text }];
    if (e.kind === "swapped") return [{ kind: "move", at: e.to, from: e.cell, text }, { kind: "place", at: e.cell, text }];
    return [];
  });
}

function nightsList(view) {
  if (!view.nights.length) return null;
  const items = view.nights.map((n) => {
    const harm = ["captured", "distracted", "poisoned"].filter((k) => n[k].length)
      .map((k) => `${seatList(n[k], view)} ${k}`);
    const left = n.left.map((l) => `${seatName(l.seat, view)} ${l.how}`);
    return el("li", { text: `Night ${n.night}: ${[...harm, ...left].join("; ") || "nobody harmed"}` });
  });
  return el("details", {}, el("summary", { text: "Past nights" }), el("ol", {}, ...items));
}

function draftLine(view) {
  const d = view.draft;
  if (!d) return null;
  const pile = d.pile ? ` The pile holds: ${d.pile.map(card).join(", ")}.` : "";
  return el("p", { text: `Draft: ${d.pile_size} card(s) in the pile, seat ${d.drawer} draws.${pile}` });
}

export const masqueradeMurder = {
  final(view) {
    if (!view.roles) return null;
    return el("p", { class: "final", text: `Unmasked: ${view.roles.map((role, s) => `seat ${s} ${cap(role)}`).join(", ")}.` });
  },

  boardVerbs: new Set(["place", "swap"]),

  status(view) {
    const night = `Night ${view.night}${view.max_turns ? ` of ${view.max_turns}` : ""}`;
    return `${night} — ${PHASES[view.phase] ?? view.phase}`;
  },

  prompt,

  board(container, view, legal, send) {
    if (!legal.length) selected = null;
    const redraw = () => masqueradeMurder.board(container, view, legal, send);
    container.replaceChildren(...boardSvg(view, legal, send, redraw), draftLine(view) ?? "",
      nightsList(view) ?? "");
  },

  private(container, view) {
    const you = view.you;
    if (!you) {
      generic.private(container, view);
      return;
    }
    // Each result says what its colour means (the guide's words), where it is shown.
    const results = you.results.map((r) => el("li", { "data-colour": r.colour },
      `Night ${r.night}: target seat ${r.target}, `, el("strong", { class: `colour-${r.colour}`, text: r.colour }),
      r.effects.length ? `; ${r.effects.join(", ")}` : "",
      el("small", { class: "colour-meaning", text: ` — ${meaning(r.colour)}` })));
    container.replaceChildren(
      el("p", {}, "Your role: ", el("strong", { id: "your-role", text: cap(you.role), title: explain(you.role) })),
      el("p", {}, `Target tonight: ${you.target === null ? "not chosen" : `seat ${you.target}`}. Card: `,
        el("span", { id: "your-card", text: card(you.card), title: you.card ? explain(you.card) : null }), "."),
      explain(you.role) ? el("p", { class: "muted role-help", text: explain(you.role) }) : "",
      you.pile_seen ? el("p", { text: `The pile you drew from: ${you.pile_seen.map(card).join(", ")}.` }) : "",
      results.length ? el("ol", { class: "results" }, ...results) : "",
    );
  },

  players(container, view, table) {
    const kinds = new Map((table?.seats ?? []).map((s) => [s.seat, s.kind === "human" ? "human" : s.bot]));
    const header = el("tr", {}, ...["Seat", "Status", "Capt.", "Pois.", "Card", "Cell", ""]
      .map((t) => el("th", { text: t })));
    const rows = view.table.map((r) => el("tr", { class: r.seat === view.seat ? "you" : null, "data-seat-row": r.seat },
      el("td", {}, seatName(r.seat, view), el("small", { class: "muted", text: ` ${kinds.get(r.seat) ?? ""}` })),
      el("td", { text: r.status }), el("td", { text: r.captures }), el("td", { text: r.poisons }),
      el("td", { text: card(r.card) }), el("td", { text: r.cell ?? "—" }),
      el("td", { text: r.decided ? "✓ decided" : view.to_move.includes(r.seat) ? "…" : "" })));
    const roles = view.roles
      ? el("p", { text: `Roles: ${view.roles.map((role, s) => `seat ${s} ${cap(role)}`).join(", ")}.` })
      : "";
    const grid = el("table", { class: "grid" }, el("thead", {}, header), el("tbody", {}, ...rows));
    container.replaceChildren(el("div", SCROLL, grid), roles);
  },
};
