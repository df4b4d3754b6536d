// The Masquerade Ball: the palace in SVG (the 6x7 two-player grid, or four courtrooms round a
// ballroom zone), the Circle of Power, your hand, prison and graveyard, and the sides.
// Everything is drawn from the seat's view: a face-down card shows its rank only when the view
// gives it (the seat has seen it), else a "?" back. Clicking plays inspect / move / swap /
// place / drop; every other move stays a button.
import { SCROLL, cap, el, seatList, seatName, svg } from "./dom.js";
import { generic } from "./generic.js";
import { drawRecent } from "./recent.js";
import { explain, helpText } from "./guide.js";

const FILES = "abcdef";
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_COLOURS = { s: "#26418f", h: "#b3202a", d: "#a64a05", c: "#2e7d32" };
const NAMES = {
  A: "Assassin", 2: "Nun", 3: "Priest", 4: "Bishop", 5: "Spy", 6: "Diplomat", 7: "Ambassador",
  8: "Baron", 9: "Duchess", 10: "Lord", J: "Jack", Q: "Queen", K: "King", Joker: "Joker",
};
const PHASES = {
  inspect: "inspect a card",
  main: "move, attack, unmask",
  place: "place a card",
  drop: "the Nun delivers",
  release: "release window",
  conquest: "conquest",
  over: "the ball is over",
};
const CIRCLE = [
  ["Royalty", "Q K J"], ["Aristocracy", "10 9 8"], ["State", "7 6 5"], ["Church", "4 3 2"],
  ["Proletariat", "A Joker"],
];

const AREA_KEYS = { court: "courtroom" }; // the guide's key for each kind of square

let selected = null; // the source picked for a move or swap ("ball" = the acting ballroom card)

// -- the view, read -------------------------------------------------------------------------
const sideOf = (view, e) => view.sides[e];
const colour = (view, e) => SUIT_COLOURS[sideOf(view, e)?.suit] ?? "#555";
const sideLabel = (side) => `${side.name} ${SUITS[side.suit] ?? ""}`;
const mine = (view, e) => view.seat !== null && sideOf(view, e)?.controller === view.seat;
const rankText = (rank) => (rank === "Joker" ? "Jk" : rank);

function cardName(card) {
  const suit = SUITS[card.suit] ?? "";
  if (!card.rank) return card.up ? `face-up card ${suit}` : `masked card ${suit}`;
  const how = card.up ? "face up" : "masked";
  return `${NAMES[card.rank] ?? card.rank} (${card.rank}${suit}, ${how})`;
}

function legalMoves(legal) {
  // inspect / place / drop name one place; move and swap name a source, then a destination.
  const moves = { inspect: new Map(), place: new Map(), drop: new Map(), from: new Map(), hand: null };
  for (const { action } of legal) {
    const [verb, a, b] = action.split(" ");
    if (verb === "move" || verb === "swap") {
      if (!moves.from.has(a)) moves.from.set(a, new Map());
      moves.from.get(a).set(b, { action, verb });
    } else if (verb === "place" && a === "hand") moves.hand = action;
    else if (moves[verb] instanceof Map) moves[verb].set(a, action);
  }
  return moves;
}

function actingBallSlot(view) {
  // "ball" as a move source is the acting card standing in the ballroom.
  const ball = view.ballroom ?? [];
  const i = ball.findIndex((c) => c.acting && !c.moved);
  return i >= 0 ? i : ball.findIndex((c) => c.acting);
}

// -- geometry -------------------------------------------------------------------------------
function area(r, f) {
  if (r === 0 && (f === 2 || f === 3)) return "throne";
  if ((r === 0 && (f === 1 || f === 4)) || (r === 1 && f >= 1 && f <= 4)) return "step";
  return "court";
}

function twoLayout(view) {
  // Rows 1-7; seat 0 (North) sees its own courtroom at the bottom, as in the terminal.
  const cell = 50;
  const margin = 14;
  const flip = view.seat === 0;
  const cells = [];
  for (let row = 1; row <= 7; row += 1) {
    for (let f = 0; f < 6; f += 1) {
      const r = row <= 3 ? row - 1 : 7 - row;
      cells.push({ name: `${FILES[f]}${row}`, x: margin + f * cell, y: (flip ? 7 - row : row - 1) * cell,
        kind: row === 4 ? "ballroom" : area(r, f) });
    }
  }
  const labels = [
    ...[...FILES].map((f, i) => ({ x: margin + (i + 0.5) * cell, y: 7 * cell + 11, text: f })),
    ...[1, 2, 3, 4, 5, 6, 7].map((row) => ({ x: 7, y: ((flip ? 7 - row : row - 1) + 0.55) * cell, text: row })),
  ];
  return { cell, width: margin + 6 * cell, height: 7 * cell + 14, cells, labels, ball: null, corners: [], missing: [] };
}

function rotate(dx, dy, turns) {
  // A quarter turn clockwise on screen (y points down) maps (dx, dy) to (-dy, dx).
  let p = [dx, dy];
  for (let i = 0; i < turns; i += 1) p = [-p[1], p[0]];
  return p;
}

function fourLayout(view) {
  // A 12x12 cross: your courtroom at the bottom (throne row outermost), the others clockwise
  // in seating order (left, top, right), the ballroom zone in the middle. Three players have no
  // West courtroom (MB-30): its arm of the cross is an empty, labelled place.
  const cell = 40;
  const base = view.seat ?? 2;
  const courts = view.sides.length;
  const cells = [];
  const corners = [];
  const missing = [];
  for (let c = courts; c < 4; c += 1) {
    const [ax, ay] = rotate(0, 4.5, (c - base + 4) % 4); // the middle of the arm
    const [w, h] = ax === 0 ? [6 * cell, 3 * cell] : [3 * cell, 6 * cell];
    missing.push({ x: (6 + ax) * cell - w / 2, y: (6 + ay) * cell - h / 2, w, h, name: ["North", "East", "South", "West"][c] });
  }
  for (let c = 0; c < courts; c += 1) {
    const turns = (c - base + 4) % 4;
    for (let r = 0; r < 3; r += 1) {
      for (let f = 0; f < 6; f += 1) {
        const [dx, dy] = rotate(f - 2.5, 5.5 - r, turns);
        cells.push({ name: `${"nesw"[c]}${FILES[f]}${r + 1}`, x: (6 + dx - 0.5) * cell, y: (6 + dy - 0.5) * cell,
          kind: area(r, f) });
      }
    }
    const [cx, cy] = rotate(-4.5, 4.5, turns);
    corners.push({ side: c, x: (6 + cx) * cell, y: (6 + cy) * cell });
  }
  return { cell, width: 12 * cell, height: 12 * cell, cells, labels: [], corners, missing,
    ball: { x: 3 * cell, y: 3 * cell, size: 6 * cell, nsVertical: (4 - base) % 2 === 0 } };
}

// -- drawing --------------------------------------------------------------------------------
function cardFace(card, x, y, size, view) {
  // The card itself: face up white, masked in its owner's colour; "?" when the seat does not
  // know it. Text never takes clicks (the rect under it does).
  const c = colour(view, card.side);
  const big = Math.round(size * 0.36);
  const small = Math.max(6.5, Math.round(size * 0.17));
  const suit = SUITS[card.suit] ?? "";
  const parts = [];
  if (card.rank) {
    const ink = card.up ? c : "#fff";
    parts.push(svg("text", { class: `mb-rank${card.up ? "" : " masked"}`, x: x + size / 2, y: y + size * 0.52,
      "text-anchor": "middle", "font-size": big, fill: ink, text: `${rankText(card.rank)}${suit}` }));
    const name = NAMES[card.rank] ?? "";
    parts.push(svg("text", { class: "mb-name", x: x + size / 2, y: y + size * 0.8, "text-anchor": "middle",
      "font-size": small, fill: ink, text: name,
      textLength: name.length > 6 ? size - 10 : null, lengthAdjust: "spacingAndGlyphs" }));
  } else {
    parts.push(svg("text", { class: "mb-rank hidden", x: x + size / 2, y: y + size * 0.58, "text-anchor": "middle",
      "font-size": big, fill: "#fff", text: card.up ? suit : "?" }));
  }
  if (card.acting !== undefined && card.acting) {
    parts.push(svg("circle", { class: `mb-acting${card.moved ? " moved" : ""}`, cx: x + size - 8, cy: y + 8, r: 4.5 }));
  }
  return parts;
}

function piece(place, card, x, y, size, ctx) {
  const { view, moves, click } = ctx;
  const key = ctx.sourceKey(place);
  const dest = selected ? moves.from.get(selected)?.get(place) : null;
  let mark = null;
  if (dest) mark = dest.verb === "swap" ? "swap" : "attack";
  else if (moves.from.has(key)) mark = "from";
  else if (moves.inspect.has(place)) mark = "inspect";
  else if (moves.drop.has(place)) mark = "drop";
  const classes = ["mb-card", card.up ? "up" : "down", selected && selected === key ? "selected" : "",
    view.must_move.includes(place) ? "must" : "", mine(view, card.side) ? "mine" : ""].filter(Boolean);
  return svg("g", { class: "mb-piece", "data-piece-at": place },
    svg("rect", { class: classes.join(" "), x: x + 3, y: y + 3, width: size - 6, height: size - 6, rx: 5,
      fill: card.up ? "#fff" : colour(view, card.side), stroke: colour(view, card.side),
      "data-place": place, "data-side": card.side, "data-rank": card.rank ?? "", "data-up": card.up ? "1" : "0",
      "data-legal": mark, onclick: () => click(place, key),
      "data-help": helpText(`${place}: ${cardName(card)}`, card.rank ? explain(card.rank) : explain("masked")) },
    svg("title", { text: `${place}: ${cardName(card)}` })),
    ...cardFace(card, x + 3, y + 3, size - 6, view));
}

function square(sq, ctx) {
  const { view, moves, layout, click } = ctx;
  const card = view.board[sq.name];
  const size = layout.cell;
  let mark = null;
  if (!card) {
    if (selected && moves.from.get(selected)?.has(sq.name)) mark = "to";
    else if (moves.place.has(sq.name)) mark = "place";
    else if (moves.drop.has(sq.name)) mark = "drop";
  }
  return svg("g", {},
    svg("rect", { class: `mb-cell ${sq.kind}`, x: sq.x + 1, y: sq.y + 1, width: size - 2, height: size - 2, rx: 3,
      "data-square": sq.name, "data-legal": mark, onclick: () => click(sq.name, null),
      "data-help": helpText(sq.name, explain(AREA_KEYS[sq.kind] ?? sq.kind)) }),
    svg("text", { class: "mb-cell-name", x: sq.x + 4, y: sq.y + 9, text: sq.name }),
    card ? piece(sq.name, card, sq.x, sq.y, size, ctx) : null);
}

function ballroom(ctx) {
  // Four players: one zone of any size; its cards in order of arrival (ball0, ball1...).
  const { view, moves, layout, click } = ctx;
  const { x, y, size } = layout.ball;
  const cards = view.ballroom ?? [];
  const k = Math.max(4, Math.ceil(Math.sqrt(cards.length)));
  const slot = (size - 24) / k;
  const enter = selected ? moves.from.get(selected)?.has("ball") : false;
  const mark = enter ? "to" : moves.drop.has("ball") ? "drop" : null;
  const parts = [
    svg("rect", { class: "mb-cell ballroom zone", x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 6,
      "data-square": "ball", "data-legal": mark, onclick: () => click("ball", null),
      "data-help": explain("ballroom") }),
    svg("text", { class: "mb-zone-name", x: x + size / 2, y: y + 16, "text-anchor": "middle",
      text: `Ballroom${cards.length ? ` (${cards.length})` : ""}` }),
  ];
  cards.forEach((card, i) => {
    const [cx, cy] = [x + 12 + (i % k) * slot, y + 22 + Math.floor(i / k) * slot];
    parts.push(piece(`ball${i}`, card, cx, cy, slot, ctx));
    const vertical = (card.axis === "NS") === layout.ball.nsVertical;
    parts.push(svg("text", { class: "mb-axis", x: cx + 7, y: cy + slot - 6, text: vertical ? "↕" : "↔" }));
  });
  return parts;
}

function centre(layout, place) {
  if (place.startsWith("ball") && layout.ball) {
    const { x, y, size } = layout.ball;
    return [x + size / 2, y + size / 2];
  }
  const sq = layout.cells.find((c) => c.name === place);
  return sq ? [sq.x + layout.cell / 2, sq.y + layout.cell / 2] : null;
}

function pendingMarks(view, layout) {
  // Attacks declared this turn, judged at its end: an arrow and the attacker on the target.
  return view.pending.flatMap((p) => {
    const [from, to] = [centre(layout, p.from), centre(layout, p.to)];
    if (!to) return [];
    const line = from ? svg("line", { class: "mb-attack-line", x1: from[0], y1: from[1], x2: to[0], y2: to[1] }) : null;
    const s = layout.cell * 0.42;
    const chip = svg("g", { class: "mb-pending", "data-pending": p.to },
      svg("rect", { x: to[0] - layout.cell / 2, y: to[1] - layout.cell / 2, width: s, height: s, rx: 3,
        fill: p.attacker.up ? "#fff" : colour(view, p.attacker.side), stroke: "#d11" }),
      svg("text", { x: to[0] - layout.cell / 2 + s / 2, y: to[1] - layout.cell / 2 + s * 0.7, "text-anchor": "middle",
        "font-size": s * 0.55, fill: p.attacker.up ? colour(view, p.attacker.side) : "#fff",
        text: p.attacker.rank ? rankText(p.attacker.rank) : "⚔" }));
    return [line, chip];
  });
}

function cornerLabel(view, corner, layout) {
  const side = sideOf(view, corner.side);
  const who = side.controller < 0 ? "nobody" : seatName(side.controller, view);
  const counts = `hand ${side.hand.count} · prison ${side.prison.count} · grave ${side.graveyard.count}`;
  const lines = [sideLabel(side), who, counts];
  const turn = view.side_to_play === corner.side && !view.is_over;
  return svg("g", { class: `mb-corner${turn ? " to-play" : ""}` }, ...lines.map((text, i) => svg("text", {
    x: corner.x, y: corner.y - layout.cell * 0.5 + i * 15, "text-anchor": "middle",
    "font-size": i === 0 ? 13 : 10, fill: i === 0 ? colour(view, corner.side) : null,
    textLength: text.length > 22 ? layout.cell * 2.9 : null, lengthAdjust: "spacingAndGlyphs", text })));
}

function palaceSvg(view, legal, send, redraw) {
  const layout = view.players_board === 2 ? twoLayout(view) : fourLayout(view);
  const moves = legalMoves(legal);
  const ballSlot = actingBallSlot(view);
  const sourceKey = (place) => (moves.from.has("ball") && place === `ball${ballSlot}` ? "ball" : place);
  const click = (place, key) => {
    const dest = selected ? moves.from.get(selected)?.get(place) : null;
    if (dest) { selected = null; send(dest.action); return; }
    if (key && moves.from.has(key)) { selected = selected === key ? null : key; redraw(); return; }
    const direct = moves.inspect.get(place) ?? moves.place.get(place) ?? moves.drop.get(place);
    if (direct) { selected = null; send(direct); return; }
    if (selected) { selected = null; redraw(); }
  };
  const ctx = { view, moves, layout, click, sourceKey };
  const parts = [
    ...layout.labels.map((l) => svg("text", { class: "mb-axis-label", x: l.x, y: l.y, "text-anchor": "middle",
      text: String(l.text) })),
    ...layout.corners.map((c) => cornerLabel(view, c, layout)),
    ...layout.missing.map((m) => svg("g", { class: "mb-missing" },
      svg("rect", { x: m.x + 4, y: m.y + 4, width: m.w - 8, height: m.h - 8, rx: 6 }),
      svg("text", { x: m.x + m.w / 2, y: m.y + m.h / 2, "text-anchor": "middle",
        text: `no ${m.name} courtroom` }))),
    ...(layout.ball ? ballroom(ctx) : []),
    ...layout.cells.map((sq) => square(sq, ctx)),
    ...pendingMarks(view, layout),
  ];
  const board = svg("svg", { class: "board mb-palace", viewBox: `0 0 ${layout.width} ${layout.height}`, role: "img",
    "aria-label": `the ${["two", "three", "four"][view.players_board - 2]}-player palace`,
    "data-players": view.players_board }, ...parts);
  drawRecent(board, recentMarks, (place) => centre(layout, place), layout.cell);
  return board;
}

const VERDICTS = { attacker: "attacker wins", defender: "defender wins", tie: "tie" };

// What the log says happened, as marks on the palace (recent.js): moves, attacks and the
// Nun's drops as arrows, swaps, verdicts where they were judged, cards placed, looked at or
// turned face up.
function recentMarks(entries) {
  const one = {
    move: (e) => ({ kind: "move", at: e.to, from: e.frm }),
    attack: (e) => ({ kind: "attack", at: e.to, from: e.frm }),
    drop: (e) => ({ kind: e.attack ? "attack" : "move", at: e.to, from: e.frm }),
    swap: (e) => ({ kind: "swap", at: e.b, from: e.a }),
    verdict: (e) => ({ kind: "fight", at: e.square, label: VERDICTS[e.winner] ?? e.winner }),
    placed: (e) => ({ kind: "place", at: e.square }),
    inspect: (e) => ({ kind: "look", at: e.square }),
    unmask: (e) => ({ kind: "look", at: e.square, label: NAMES[e.rank] ?? e.rank }),
    reveal: (e) => ({ kind: "look", at: e.square }),
    redeem: (e) => ({ kind: "look", at: e.square }),
    deliver: (e) => ({ kind: "look", at: e.square }),
  };
  return entries.flatMap(({ event, text }) => (one[event.kind] ? [{ ...one[event.kind](event), text }] : []));
}

function circleSvg() {
  // The Circle of Power: each class beats the next two along the arrows.
  const [w, h, r] = [300, 230, 88];
  const at = (i) => [w / 2 + r * Math.sin((2 * Math.PI * i) / 5), 118 - r * Math.cos((2 * Math.PI * i) / 5)];
  const arrows = CIRCLE.map((_, i) => {
    const [[x1, y1], [x2, y2]] = [at(i), at((i + 1) % 5)];
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
    return svg("line", { class: "mb-circle-arrow", x1: x1 + (mx - x1) * 0.45, y1: y1 + (my - y1) * 0.45,
      x2: x2 - (x2 - mx) * 0.45, y2: y2 - (y2 - my) * 0.45, "marker-end": "url(#mb-arrow)" });
  });
  const nodes = CIRCLE.map(([name, ranks], i) => {
    const [x, y] = at(i);
    return svg("g", {}, svg("text", { class: "mb-circle-class", x, y, "text-anchor": "middle", text: name }),
      svg("text", { class: "mb-circle-ranks", x, y: y + 13, "text-anchor": "middle", text: ranks }));
  });
  return svg("svg", { class: "mb-circle", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "the Circle of Power" },
    svg("defs", {}, svg("marker", { id: "mb-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 7,
      markerHeight: 7, orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z" }))),
    ...arrows, ...nodes);
}

function circlePanel() {
  return el("details", { class: "mb-circle-box", open: true }, el("summary", { text: "The Circle of Power" }),
    circleSvg(),
    el("p", { class: "muted mb-small", text: "Each class beats the next two along the arrows; inside a class the "
      + "higher card wins (Q > K > J), the same rank ties. A masked Assassin always beats State and Church; "
      + "a masked Joker always beats a State or Church attacker, or a face-up Assassin." }));
}

function selectionHint(view, moves) {
  if (!selected || !moves.from.has(selected)) return null;
  const place = selected === "ball" ? `ball${actingBallSlot(view)}` : selected;
  const card = view.board[place] ?? (view.ballroom ?? [])[Number(place.slice(4))];
  const what = card ? cardName(card) : "card";
  return el("p", { class: "mb-hint", text: `Selected ${place}, your ${what}: click a highlighted square `
    + "(red dots: an attack, gold dash-dots: a swap), or click it again to cancel." });
}

// -- the prompt and the side panels -----------------------------------------------------------
function prompt(view, legal) {
  if (view.is_over) return "The ball is over.";
  if (!legal.length) {
    if (view.window) return `Waiting for ${seatName(view.window.seat, view)} to release prisoners or pass.`;
    const side = sideOf(view, view.side_to_play);
    return `Waiting for ${seatList(view.to_move, view)} (${sideLabel(side)}: ${PHASES[view.phase] ?? view.phase}).`;
  }
  const moves = legalMoves(legal);
  const verbs = new Set(legal.map((a) => a.action.split(" ")[0]));
  const phase = {
    inspect: () => "Your turn: click one of your highlighted cards to inspect it (you alone see it; it acts).",
    place: () => `Click a highlighted square of your courtroom to place the card${view.placing?.rank ? ` (${NAMES[view.placing.rank]})` : ""}${moves.hand ? ", or keep it in your hand" : ""}.`,
    drop: () => `Click where the Nun delivers the card from ${view.delivering} (red dots: an attack).`,
    release: () => `Between turns: release prisoners of ${sideOf(view, view.window.side).name}'s prison (buttons below), or pass.`,
    conquest: () => `${cap(view.prompt)}.`,
  }[view.phase];
  if (phase) return phase();
  if (!moves.from.size && verbs.has("play") && !verbs.has("end")) return "You have no card on the board: play one from your hand (buttons below).";
  const parts = [];
  if (moves.from.size) parts.push("Click a highlighted acting card, then where it goes (red dots: an attack)");
  const abilities = ["spy", "redeem", "deliver", "rotate", "play", "free", "resurrect", "release"].filter((v) => verbs.has(v));
  if (abilities.length) parts.push(`${parts.length ? "use" : "Use"} the buttons for ${abilities.join(", ")}`);
  parts.push(`${parts.length ? "then end" : "End"} the turn`);
  const must = view.must_move.length ? ` Still to move: ${view.must_move.join(", ")}.` : "";
  return `${parts.join("; ")}.${must}`;
}

function chips(labels, suits, view) {
  if (!labels.length) return el("span", { class: "muted", text: "—" });
  return el("span", { class: "mb-chips" }, ...labels.map((rank, i) => el("span", {
    class: "mb-chip", style: `--c: ${SUIT_COLOURS[suits[i]] ?? "#555"}`, title: explain(rank) ?? NAMES[rank] ?? rank,
    text: `${rankText(rank)}${SUITS[suits[i]] ?? ""}`,
  })));
}

function pileRow(label, pile, owners, view, defaultSuit) {
  const suits = pile.cards.map((_, i) => (owners ? sideOf(view, owners[i])?.suit : defaultSuit));
  return el("p", {}, el("strong", { text: `${label} (${pile.count}): ` }), chips(pile.cards, suits, view));
}

function ownSide(view, side) {
  return el("div", { class: "mb-own", "data-side": side.side },
    el("h3", { style: `color: ${colour(view, side.side)}`, text: `Your entourage: ${sideLabel(side)}` }),
    el("p", { class: "muted", text: `Thrones ${side.thrones.join(", ")}.` }),
    pileRow("Hand", side.hand, null, view, side.suit),
    pileRow("Prison", side.prison, side.prisoners_of, view),
    pileRow("Graveyard", side.graveyard, side.graveyard_of, view));
}

function turnNotes(view) {
  const notes = [];
  if (view.placing?.rank) notes.push(`Card to place: ${NAMES[view.placing.rank]} (${view.placing.rank}), by ${view.placing.how}.`);
  if (view.delivering) notes.push(`The Nun delivers the card on ${view.delivering}.`);
  if (view.must_move.length) notes.push(`Must still move: ${view.must_move.join(", ")}.`);
  for (const h of view.holding) {
    if (h.seat === view.seat) notes.push(`You hold ${sideOf(view, h.side).name}'s thrones: keep them through your next turn to win.`);
  }
  return notes.map((text) => el("p", { class: "mb-note", text }));
}

const LEGEND = "On the board: ? a masked card you have not seen · italic rank: masked, but you know it · "
  + "white: face up · gold dot: acting this turn (hollow once moved) · red arrow: an attack judged at the end of the turn.";

// The release windows between turns can be skipped for good (a setting kept in this browser).
const SKIP_RELEASES = "intrigue.skipReleaseWindows";
const skipReleases = () => localStorage.getItem(SKIP_RELEASES) === "yes";

function releaseSetting() {
  const box = el("input", { type: "checkbox", id: "skip-releases", checked: skipReleases(),
    onchange: (e) => localStorage.setItem(SKIP_RELEASES, e.target.checked ? "yes" : "no") });
  return el("label", { class: "check setting" }, box,
    " Skip release windows: pass at once when asked to release prisoners between turns");
}

export const masqueradeBall = {
  autoPass(view, legal) {
    const window = view.window;
    const passing = legal.some((a) => a.action === "pass");
    return window?.kind === "release" && window.seat === view.seat && passing && skipReleases() ? "pass" : null;
  },

  boardVerbs: new Set(["inspect", "move", "swap", "place", "drop"]),

  status(view) {
    const turn = `Turn ${view.turn}${view.max_turns ? ` of ${view.max_turns}` : ""}`;
    if (view.is_over) return `${turn} — the ball is over`;
    const side = sideOf(view, view.side_to_play);
    return `${turn} — ${sideLabel(side)} to play · ${PHASES[view.phase] ?? view.phase}`;
  },

  prompt,

  board(container, view, legal, send) {
    const moves = legalMoves(legal);
    if (selected && !moves.from.has(selected)) selected = null;
    const redraw = () => masqueradeBall.board(container, view, legal, send);
    const keep = moves.hand
      ? el("div", { class: "actions" }, el("button", { type: "button", class: "action", "data-action": moves.hand,
        onclick: () => send(moves.hand), text: "Keep it in your hand" }))
      : null;
    const you = view.seat === null ? "" : view.players_board === 2
      ? ` You play ${sideLabel(sideOf(view, view.seat))}, at the bottom.`
      : ` Your courtroom (${sideLabel(sideOf(view, view.seat))}) is at the bottom; the others clockwise${view.players_board === 3 ? " (three players: there is no West courtroom)" : ""}.`;
    container.replaceChildren(...[selectionHint(view, moves), palaceSvg(view, legal, send, redraw), keep,
      el("p", { class: "muted mb-small", text: `Thrones gold, ascension steps pale.${you}` }), circlePanel()]
      .filter(Boolean));
  },

  private(container, view) {
    if (view.seat === null) {
      generic.private(container, view);
      return;
    }
    const own = view.sides.filter((s) => s.controller === view.seat);
    const out = own.length ? own.map((s) => ownSide(view, s)) : [el("p", { text: "You control no courtroom: you are out." })];
    container.replaceChildren(...out, ...turnNotes(view), releaseSetting(),
      el("p", { class: "muted mb-small", text: LEGEND }));
  },

  players(container, view, table) {
    const kinds = new Map((table?.seats ?? []).map((s) => [s.seat, s.kind === "human" ? "human" : `bot ${s.bot}`]));
    const header = el("tr", {}, ...["Side", "Played by", "Hand", "Prison", "Grave", ""].map((t) => el("th", { text: t })));
    const known = (pile) => (pile.known?.length ? ` (you know ${pile.known.join(", ")})` : "");
    const rows = view.sides.map((s) => el("tr", { class: mine(view, s.side) ? "you" : null, "data-side-row": s.side },
      el("td", { style: `color: ${colour(view, s.side)}`, text: sideLabel(s) }),
      el("td", {}, s.controller < 0 ? "nobody" : seatName(s.controller, view),
        el("small", { class: "muted", text: s.controller < 0 ? "" : ` ${kinds.get(s.controller) ?? ""}` })),
      el("td", { text: `${s.hand.count}${known(s.hand)}` }), el("td", { text: `${s.prison.count}${known(s.prison)}` }),
      el("td", { text: `${s.graveyard.count}${known(s.graveyard)}` }),
      el("td", { title: "to play", text: view.side_to_play === s.side && !view.is_over ? "▶" : "" })));
    const holding = view.holding.map((h) => el("p", { class: "mb-note",
      text: `${cap(seatName(h.seat, view))} holds ${sideOf(view, h.side).name}'s thrones.` }));
    const grid = el("table", { class: "grid" }, el("thead", {}, header), el("tbody", {}, ...rows));
    container.replaceChildren(el("div", SCROLL, grid), ...holding);
  },
};
