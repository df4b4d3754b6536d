// Project Assassination: the 7x7 bar in SVG (assassins, enemies, obstacles, cards on the floor,
// points, tunnels, heal points), the three face-down decks, your assassin and the players.
// Everything is drawn from the seat's view. Legal moves are highlighted squares (data-legal
// holds their verbs); clicking one plays its action, or offers a short choice when a square
// has several (e.g. two weapons on one target). Items are modes toggled under the board, so a
// held Obstacle does not cover every square: "Obstacle…" then a square; "Strategy…" then the
// piece, then where it goes.
import { SCROLL, cap, el, svg } from "./dom.js";
import { generic } from "./generic.js";
import { drawRecent } from "./recent.js";
import { explain, facts, helpText } from "./guide.js";

const CELL = 48;
const MARGIN = 18; // room for the column letters and row numbers
const SIZE = 7;
const COLUMNS = "abcdefg";
const BOARD = MARGIN + SIZE * CELL;
const DECK_Y = BOARD + 10;
const HEIGHT = DECK_Y + 62;
// Fixed features of the bar (board.py, RULINGS §3.4); spawns and points come from the view.
const TUNNELS = { b2: "b6", b6: "b2", f2: "f6", f6: "f2" };
const HEAL_POINTS = new Set(["a4", "g4"]);
const DIRECTIONS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const ENEMY_LETTERS = { grunt: "G", heavy: "H", medic: "M", boss: "B" };
const LOOSE_LABELS = { uzi: "UZI", boot: "BOOT", sniper: "SNPR" };
const CELL_VERBS = new Set(["move", "shoot", "cage", "grenade", "teleport", "place"]);
const PHASES = { turn: "to play", choice: "must choose", placement: "enemy placement", over: "over" };

// Clicks in progress; all are forgotten whenever the legal moves change.
let mode = null; // null (moves and shots), "obstacle" or "strategy": the Item being played
let selected = null; // the piece picked as the first half of a Strategy push
let choice = null; // {cell, entries}: a square with several moves, waiting for the pick
let legalKey = "";

const keyOf = (legal) => legal.map((e) => e.action).join("|");
const cardName = (c) => c.replace(/_/g, " ");
const number = (view, seat) => view.players[seat].number;

function who(view, seat) {
  return `P${number(view, seat)}${seat === view.seat ? " (you)" : ""}`;
}

function xy(name) {
  return [MARGIN + COLUMNS.indexOf(name[0]) * CELL, MARGIN + (Number(name.slice(1)) - 1) * CELL];
}

function neighbour(name, dir) {
  const [dx, dy] = DIRECTIONS[dir];
  const c = COLUMNS.indexOf(name[0]) + dx;
  const r = Number(name.slice(1)) + dy;
  return c >= 0 && c < SIZE && r >= 1 && r <= SIZE ? `${COLUMNS[c]}${r}` : null;
}

/** The legal moves sorted by what the board offers: squares, shot directions, pushes, decks. */
function boardMoves(legal) {
  const cells = new Map();
  const dirs = new Map();
  const pushes = new Map();
  const obstacles = new Map();
  const draws = new Map();
  const add = (map, key, value) => map.set(key, [...(map.get(key) ?? []), value]);
  for (const entry of legal) {
    const [verb, a, b] = entry.action.split(" ");
    if (verb === "shoot" && DIRECTIONS[b]) add(dirs, b, entry);
    else if (verb === "shoot") add(cells, b, { ...entry, verb });
    else if (CELL_VERBS.has(verb)) add(cells, a, { ...entry, verb });
    else if (verb === "strategy") add(pushes, a, { ...entry, to: b });
    else if (verb === "obstacle") obstacles.set(a, entry);
    else if (verb === "draw") draws.set(a, entry);
  }
  return { cells, dirs, pushes, obstacles, draws };
}

function pick(entries, cell, send, redraw) {
  if (entries.length === 1) {
    choice = null;
    send(entries[0].action);
  } else {
    choice = { cell, entries };
    redraw();
  }
}

// -- the squares -----------------------------------------------------------------------------
function squareBase(name, view) {
  const [x, y] = xy(name);
  const c = COLUMNS.indexOf(name[0]);
  const r = Number(name.slice(1));
  const parts = [svg("rect", { class: `pa-sq${(c + r) % 2 ? " pa-alt" : ""}`, x, y, width: CELL,
    height: CELL, "data-help": squareHelp(name, view) })];
  const label = (text, cls) => svg("text", { class: cls, x: x + 3, y: y + 10, text });
  for (const p of view.players) {
    if (p.point === name) {
      parts.push(svg("rect", { class: `pa-point pa-p${p.number}${p.ambushed ? " pa-ambushed" : ""}`,
        x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2 }),
      label(`R${p.number}${p.ambushed ? " ambush" : ""}`, "pa-feature"));
    } else if (p.spawn === name) {
      parts.push(svg("rect", { class: `pa-spawn pa-p${p.number}`, x: x + 1, y: y + 1,
        width: CELL - 2, height: CELL - 2 }), label(`S${p.number}`, "pa-feature"));
    }
  }
  if (TUNNELS[name]) parts.push(label(`⇄${TUNNELS[name].toUpperCase()}`, "pa-feature"));
  if (HEAL_POINTS.has(name)) parts.push(label("+2hp", "pa-feature pa-heal"));
  return parts;
}

function squareHelp(name, view) {
  // The square's name and what lies on it for good: spawns, points, tunnels, heal points.
  const what = [];
  for (const p of view.players) {
    if (p.point === name) what.push(`P${p.number}'s rendezvous point. ${explain("point") ?? ""}`);
    if (p.spawn === name) what.push(`P${p.number}'s spawn. ${explain("spawn") ?? ""}`);
  }
  if (TUNNELS[name]) what.push(`Tunnel to ${TUNNELS[name].toUpperCase()}. ${explain("tunnel") ?? ""}`);
  if (HEAL_POINTS.has(name)) what.push(explain("heal"));
  return helpText(name.toUpperCase(), ...what);
}

function pointCards(p) {
  // Cards on a rendezvous point lie face up: a small stack with its count and names.
  if (!p.point_cards.length) return null;
  const [x, y] = xy(p.point);
  return svg("g", { class: "pa-stack", "data-point": p.number },
    svg("title", { text: p.point_cards.map(cardName).join(", ") }),
    svg("rect", { class: "pa-card", x: x + 8, y: y + 16, width: 32, height: 22, rx: 3 }),
    svg("text", { class: "pa-card-label", x: x + 24, y: y + 31, "text-anchor": "middle",
      text: `${p.point_cards.length} card${p.point_cards.length > 1 ? "s" : ""}` }));
}

function piece(name, view, lookup) {
  const [x, y] = xy(name);
  const [cx, cy] = [x + CELL / 2, y + CELL / 2 + 2];
  const player = lookup.players.get(name);
  if (player) {
    return svg("g", { class: "pa-assassin", "data-player": player.number, "data-piece-at": name,
      "data-help": `${name.toUpperCase()}: ${who(view, player.seat)}, ${player.hp} HP, ${player.vp} VP` },
      svg("circle", { class: `pa-p${player.number}${player.seat === view.seat ? " pa-you" : ""}`,
        cx, cy: cy - 3, r: 14 }),
      svg("text", { class: "pa-piece-label", x: cx, y: cy + 1, "text-anchor": "middle",
        text: `P${player.number}` }),
      // The shot arrows of the player to move sit where the HP would be (it is in the panel).
      name === lookup.aimFrom ? null : svg("text", { class: "pa-hp", x: cx, y: y + CELL - 2,
        "text-anchor": "middle", text: `${player.hp}hp` }));
  }
  const enemy = lookup.enemies.get(name);
  if (enemy) return enemyPiece(enemy, cx, cy, y, name);
  if (lookup.obstacles.has(name)) {
    return svg("rect", { class: "pa-obstacle", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8,
      rx: 3, "data-obstacle": name, "data-help": helpText(name.toUpperCase(), explain("obstacle")) });
  }
  const loose = view.loose[name];
  if (loose) {
    return svg("g", { class: "pa-loose", "data-loose": loose,
      "data-help": helpText(`${name.toUpperCase()}: a card on the floor`, explain(loose)) },
      svg("rect", { class: "pa-card", x: x + 7, y: y + 15, width: 34, height: 22, rx: 3 }),
      svg("text", { class: "pa-card-label", x: cx, y: y + 30, "text-anchor": "middle",
        text: LOOSE_LABELS[loose] ?? cardName(loose) }));
  }
  return null;
}

function enemyPiece(enemy, cx, cy, y, name) {
  const state = enemy.caged ? " pa-caged" : enemy.paralysed ? " pa-paralysed" : "";
  const bars = enemy.caged
    ? [-8, 0, 8].map((dx) => svg("line", { class: "pa-bars", x1: cx + dx, y1: cy - 17, x2: cx + dx,
      y2: cy + 11 }))
    : [];
  return svg("g", { class: `pa-enemy${state}`, "data-enemy": enemy.kind, "data-piece-at": name,
    "data-help": helpText(`${name.toUpperCase()}: ${cap(enemy.kind)}, ${enemy.hp}/${enemy.max_hp} HP`
      + `${enemy.caged ? ", caged" : ""}${enemy.paralysed ? ", paralysed (no damage)" : ""}`, explain(enemy.kind)) },
    svg("title", { text: `${cap(enemy.kind)}, ${enemy.hp}/${enemy.max_hp} HP${enemy.caged ? ", caged" : ""}${enemy.paralysed ? ", paralysed" : ""}` }),
    svg("circle", { class: `pa-${enemy.kind}`, cx, cy: cy - 3, r: enemy.kind === "boss" ? 16 : 14 }),
    svg("text", { class: "pa-piece-label", x: cx, y: cy + 2, "text-anchor": "middle",
      text: ENEMY_LETTERS[enemy.kind] ?? "?" }),
    svg("text", { class: "pa-hp", x: cx, y: y + CELL - 2, "text-anchor": "middle",
      text: `${enemy.hp}/${enemy.max_hp}` }),
    ...bars);
}

// -- highlights ------------------------------------------------------------------------------
// data-actions lists the moves a click leads to ("|"-separated), so tests can check coverage.
const actionsOf = (entries) => entries.map((e) => e.action).join("|");

function highlight(name, verbs, onclick, entries) {
  const [x, y] = xy(name);
  // A move that ends in an enemy's range says so before the click (dashed, and in its title).
  const danger = entries.some((e) => e.text.includes(" — in range of "));
  return svg("rect", { class: "pa-legal", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4,
    rx: 4, "data-legal": verbs, "data-cell": name, "data-actions": actionsOf(entries), onclick,
    "data-danger": danger || null, "data-help": entries.map((e) => e.text).join(" / ") || null },
  svg("title", { text: entries.map((e) => e.text).join(" / ") }));
}

function highlights(view, moves, send, redraw) {
  if (mode === "obstacle") {
    return [...moves.obstacles].map(([cell, entry]) => highlight(cell, "obstacle", () => send(entry.action), [entry]));
  }
  if (mode === "strategy") return pushHighlights(moves, send, redraw);
  const out = [];
  for (const [cell, entries] of moves.cells) {
    const verbs = [...new Set(entries.map((e) => e.verb))].join(" ");
    out.push(highlight(cell, verbs, () => pick(entries, cell, send, redraw), entries));
  }
  out.push(...shotArrows(view, moves, send, redraw));
  return out;
}

function pushHighlights(moves, send, redraw) {
  const out = [];
  if (selected) {
    // Second click of a Strategy push: where the picked piece may go.
    for (const entry of moves.pushes.get(selected) ?? []) {
      out.push(highlight(entry.to, "strategy-to", () => { selected = null; send(entry.action); }, [entry]));
    }
    const [x, y] = xy(selected);
    out.push(svg("rect", { class: "pa-selected", x: x + 1, y: y + 1, width: CELL - 2,
      height: CELL - 2, rx: 4, "data-cell": selected,
      onclick: () => { selected = null; redraw(); } }));
    return out;
  }
  for (const cell of moves.pushes.keys()) {
    out.push(highlight(cell, "strategy-from", () => { selected = cell; redraw(); }, []));
  }
  return out;
}

function shooter(view) {
  return view.players[view.turn?.seat ?? view.seat] ?? null;
}

function shotArrows(view, moves, send, redraw) {
  // Shotgun and Sniper aim at a direction: a badge on each side of the shooter's square.
  const me = shooter(view);
  if (!me || !moves.dirs.size) return [];
  const [x, y] = xy(me.cell);
  const [cx, cy] = [x + CELL / 2, y + CELL / 2];
  return [...moves.dirs].map(([dir, entries]) => {
    const [dx, dy] = DIRECTIONS[dir];
    const [bx, by] = [cx + (dx * CELL) / 2, cy + (dy * CELL) / 2];
    const tip = [bx + dx * 6, by + dy * 6];
    const side = [dy * 5, dx * 5];
    const points = [tip, [bx - dx * 4 + side[0], by - dy * 4 + side[1]],
      [bx - dx * 4 - side[0], by - dy * 4 - side[1]]].map((p) => p.join(",")).join(" ");
    const cell = neighbour(me.cell, dir);
    return svg("g", { class: "pa-aim", "data-legal": "shoot-dir", "data-dir": dir,
      "data-actions": actionsOf(entries),
      onclick: () => pick(entries, cell ?? me.cell, send, redraw) },
      svg("title", { text: entries.map((e) => e.text).join(" / ") }),
      svg("circle", { cx: bx, cy: by, r: 10 }), svg("polygon", { points }));
  });
}

// -- the decks -------------------------------------------------------------------------------
function deck(x, label, count, entry, send) {
  // A face-down pile: only its size is known; its order is hidden from both players.
  const attrs = entry ? { "data-legal": "draw", "data-deck": entry.action.split(" ")[1],
    "data-actions": entry.action,
    onclick: () => { choice = null; send(entry.action); } } : {};
  return svg("g", { class: `pa-deck${entry ? " pa-drawable" : ""}`, ...attrs,
    // (Its label starts with the words it shows: "Item 15 face down".)
    "data-help": helpText(`${label} ${count} face down`, entry?.text, explain("decks")) },
    svg("rect", { class: "pa-back", x, y: DECK_Y, width: 100, height: 50, rx: 5 }),
    svg("text", { class: "pa-deck-label", x: x + 50, y: DECK_Y + 21, "text-anchor": "middle",
      text: `${label} ` }), // (the space keeps "Item 15 face down" two words when read as one)
    svg("text", { class: "pa-deck-count", x: x + 50, y: DECK_Y + 40, "text-anchor": "middle",
      text: `${count} face down` }));
}

function decks(view, moves, send) {
  const { item, collectible, enemy } = view.decks;
  return [deck(MARGIN, "Item", item, moves.draws.get("item"), send),
    deck(MARGIN + 118, "Collectible", collectible, moves.draws.get("collectible"), send),
    deck(MARGIN + 236, "Enemy", enemy, null, send)];
}

function boardSvg(view, legal, send, redraw) {
  const lookup = {
    players: new Map(view.players.map((p) => [p.cell, p])),
    enemies: new Map(view.enemies.map((e) => [e.cell, e])),
    obstacles: new Set(view.obstacles),
  };
  const moves = boardMoves(legal);
  lookup.aimFrom = !mode && moves.dirs.size ? shooter(view)?.cell : null;
  const names = [];
  for (let r = 1; r <= SIZE; r++) for (const c of COLUMNS) names.push(`${c}${r}`);
  const labels = [...COLUMNS].flatMap((c, i) => [
    svg("text", { class: "pa-axis", x: MARGIN + i * CELL + CELL / 2, y: 13, "text-anchor": "middle",
      text: c.toUpperCase() }),
    svg("text", { class: "pa-axis", x: 9, y: MARGIN + i * CELL + CELL / 2 + 4, "text-anchor": "middle",
      text: String(i + 1) })]);
  const board = svg("svg", { class: "board pa-board", viewBox: `0 0 ${BOARD + 2} ${HEIGHT}`, role: "img",
    "aria-label": "the bar, 7 by 7" },
  ...labels, ...names.flatMap((n) => squareBase(n, view)),
  ...view.players.map(pointCards).filter(Boolean),
  ...names.map((n) => piece(n, view, lookup)).filter(Boolean));
  drawRecent(board, (entries, before) => recentMarks(entries, before, view), centreOf, CELL);
  board.append(...highlights(view, moves, send, redraw), ...decks(view, moves, send));
  board.prepend(hatch());
  watchRanges(board, view);
  return board;
}

// -- enemy ranges, marked while you consider an enemy or a move into its range ---------------
// An enemy hits an assassin ending a move up to its range away in a straight line, obstacles
// blocking, unless paralysed: the test of the server's warning (render.py's _danger), with the
// range from the guide's facts (the game's own table).
function reach(enemy, view) {
  const range = facts(enemy.kind)?.range ?? 0;
  if (!range || enemy.paralysed) return [];
  const blocked = new Set(view.obstacles);
  const cells = [];
  for (const dir of Object.keys(DIRECTIONS)) {
    let cell = enemy.cell;
    for (let k = 0; k < range; k += 1) {
      cell = neighbour(cell, dir);
      if (!cell || blocked.has(cell)) break;
      cells.push(cell);
    }
  }
  return cells;
}

function moveEnd(name, view) {
  // Where a move onto `name` really ends: your point sends you back to your spawn, a tunnel on.
  const me = view.players[view.turn?.seat ?? view.seat];
  if (me && me.point === name) return me.spawn;
  return TUNNELS[name] ?? name;
}

function threats(target, view) {
  // An enemy (or a highlight on its square): its own range; a move into danger: the ranges of
  // the enemies waiting where it ends.
  const cell = target.getAttribute("data-piece-at") ?? target.getAttribute("data-cell");
  const here = view.enemies.filter((e) => e.cell === cell);
  if (here.length || !target.hasAttribute("data-danger")) return here;
  const end = moveEnd(cell, view);
  return view.enemies.filter((e) => reach(e, view).includes(end));
}

function hatch() {
  return svg("defs", {}, svg("pattern", { id: "pa-hatch", patternUnits: "userSpaceOnUse", width: 8, height: 8,
    patternTransform: "rotate(45)" }, svg("line", { class: "pa-hatch-line", x1: 0, y1: 0, x2: 0, y2: 8 })));
}

function watchRanges(board, view) {
  const clear = () => board.querySelector(".pa-range")?.remove();
  const show = (event) => {
    const target = event.target.closest?.("[data-enemy], .pa-legal[data-cell]");
    clear();
    if (!target) return;
    const enemies = threats(target, view);
    const cells = [...new Set(enemies.flatMap((e) => reach(e, view)))];
    if (!cells.length) return;
    board.append(svg("g", { class: "pa-range", "data-range-of": enemies.map((e) => e.cell).join(" ") },
      ...cells.map((cell) => {
        const [x, y] = xy(cell);
        return svg("rect", { class: "pa-in-range", "data-cell": cell, x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6 });
      })));
  };
  board.addEventListener("pointerover", show);
  board.addEventListener("focusin", show);
  board.addEventListener("pointerleave", clear);
  board.addEventListener("focusout", clear);
}

function centreOf(name) {
  if (typeof name !== "string" || !COLUMNS.includes(name[0]) || !(Number(name.slice(1)) >= 1)) return null;
  const [x, y] = xy(name);
  return [x + CELL / 2, y + CELL / 2];
}

// What the log says happened, as marks on the bar (recent.js). Moves name only where an
// assassin went: where it came from is followed through the entries, from the view when the
// window opened (`before`), so the first arrow starts at the right square.
function recentMarks(entries, before, view) {
  const at = new Map((before ?? view).players.map((p) => [p.seat, before ? p.cell : null]));
  const where = (seat) => at.get(seat) ?? view.players[seat]?.cell;
  const marks = [];
  const walk = (e, text) => {
    marks.push({ kind: "move", at: e.to, from: at.get(e.seat) ?? null, text });
    at.set(e.seat, e.to);
  };
  for (const { event: e, text } of entries) {
    if (e.kind === "move" || e.kind === "tunnel" || e.kind === "teleport") walk(e, text);
    else if (e.kind === "hit" && e.target !== "self") {
      marks.push({ kind: "attack", at: e.at, from: where(e.seat), label: `−${e.damage}`, text });
    } else if (e.kind === "hurt") marks.push({ kind: "attack", at: where(e.seat), from: e.at, label: `−${e.damage}`, text });
    else if (e.kind === "kill") {
      marks.push({ kind: "attack", at: e.at, from: where(e.seat), text }, { kind: "gone", at: e.at, text });
    } else if (e.kind === "destroyed") marks.push({ kind: "gone", at: e.at, text });
    else if (e.kind === "place" || e.kind === "cage") marks.push({ kind: "place", at: e.at, text });
    else if (e.kind === "medic") marks.push({ kind: "look", at: e.at, label: `${e.hp}hp`, text });
    else if (e.kind === "item" && e.card === "obstacle") marks.push({ kind: "place", at: e.cells[0], text });
    else if (e.kind === "item" && e.card === "strategy") marks.push({ kind: "move", at: e.cells[1], from: e.cells[0], text });
  }
  return marks;
}

function itemTools(moves, redraw) {
  // Items are played in a mode, so their many squares never hide the moves and shots.
  const tools = [["obstacle", moves.obstacles.size, "Obstacle…"], ["strategy", moves.pushes.size, "Strategy…"]]
    .filter(([, n]) => n)
    .map(([name, , label]) => el("button", { type: "button", class: `pa-mode${mode === name ? "" : " secondary"}`,
      "data-mode": name, "aria-pressed": String(mode === name),
      onclick: () => { mode = mode === name ? null : name; selected = null; choice = null; redraw(); } },
    mode === name ? `Cancel the ${cap(name)}` : `Play ${label}`));
  return tools.length ? el("div", { class: "pa-choice pa-tools" }, ...tools) : "";
}

function choiceBox(send, redraw) {
  if (!choice) return "";
  return el("div", { class: "pa-choice" },
    el("span", { text: `On ${choice.cell.toUpperCase()}:` }),
    ...choice.entries.map((e) => el("button", { type: "button", class: "pa-choose",
      "data-action": e.action, onclick: () => { choice = null; send(e.action); } }, e.text)),
    el("button", { type: "button", class: "secondary", onclick: () => { choice = null; redraw(); } },
      "cancel"));
}

function footnote(view) {
  const bottom = view.decks.enemy_bottom.length
    ? ` Known at the bottom of the Enemy deck: ${view.decks.enemy_bottom.join(", ")}.` : "";
  const top = view.discards.item.slice(-2).map(cardName).join(", ");
  return el("p", { class: "muted pa-note",
    text: `Decks are face down: only their sizes are known.${bottom} Item discard top: ${top || "—"}.` });
}

// -- texts -----------------------------------------------------------------------------------
function turnPrompt(view, legal) {
  const moves = boardMoves(legal);
  const verbs = new Set([...moves.cells.values()].flat().map((e) => e.verb));
  const ways = [];
  if (verbs.has("move")) ways.push("click a green dashed square to move");
  if (verbs.has("shoot") || moves.dirs.size) ways.push("a red dotted target or arrow to shoot");
  if (moves.draws.size) ways.push("a deck to draw");
  const left = view.turn?.actions_left ?? 0;
  const head = `Your turn: ${left} action${left === 1 ? "" : "s"} left`;
  const items = moves.obstacles.size || moves.pushes.size ? " Items: the buttons under the board." : "";
  const body = ways.length ? ` — ${cap(ways.join(", "))}, or use the buttons.` : ". Use the buttons.";
  return `${head}${body}${items}`;
}

const PROMPTS = {
  weapon: (p) => `Both weapon slots are full: replace one with the ${cardName(p.card)}, or decline it.`,
  attach: (p) => `Choose the weapon for the ${cardName(p.card)}.`,
  loot: () => "Your reserve is full: discard an Item.",
  cage: () => "Click a highlighted enemy to cage it.",
  grenade: () => "Throw the grenade: click the top-left square of a 2×2 block.",
  teleport: () => "Your spawn is taken: click a highlighted square to teleport to.",
};

function prompt(view, legal) {
  if (view.is_over) return "The game is over.";
  if (!legal.length) {
    const what = view.phase === "placement" ? ` to place the ${view.placement?.enemy ?? "enemy"}` : "";
    return `Waiting for ${view.to_move.map((s) => who(view, s)).join(", ") || "nobody"}${what}.`;
  }
  if (mode && legalKey === keyOf(legal)) {
    if (mode === "obstacle") return "Obstacle: click a highlighted square to put it on.";
    return selected ? "Strategy: click where the picked piece goes (click it again to cancel)."
      : "Strategy: click the enemy or obstacle to push.";
  }
  if (view.phase === "placement") return `Place the ${view.placement.enemy}: click a highlighted square.`;
  if (view.prompt) return (PROMPTS[view.prompt.kind] ?? (() => view.prompt.text))(view.prompt);
  return turnPrompt(view, legal);
}

function weaponText(w) {
  if (!w) return "—";
  const mods = ["sight", "muzzle"].filter((m) => w[m]);
  return cardName(w.kind) + (mods.length ? ` (+${mods.join(", +")})` : "");
}

function arms(p) {
  const slot2 = p.weapons[1] ? weaponText(p.weapons[1]) : weaponText(p.pistol);
  return `1: ${weaponText(p.weapons[0])} · 2: ${slot2}`;
}

function turnLine(view) {
  const t = view.turn;
  if (!t || t.seat !== view.seat) return null;
  const bits = [`${t.actions_left} action(s) left`, `attacks ${t.attacks_made}/${t.attack_allowance}`];
  if (t.may_draw) bits.push("you may draw");
  if (t.cover) bits.push("under cover");
  return el("p", { text: `This turn: ${bits.join(", ")}.` });
}

export const projectAssassination = {
  // The end: every assassin's VP by source (shots at the rival, then each kind of enemy killed).
  final(view) {
    const bySource = view.final?.vp_by_source ?? [{}, {}];
    const sources = [["rival", "Shots at the rival"], ...Object.keys(ENEMY_LETTERS).map((k) => [k, `${cap(k)}s killed`])];
    const rows = view.players.map((p) => el("tr", { "data-seat": p.seat },
      el("td", { text: `P${p.number} (seat ${p.seat})` }),
      ...sources.map(([k]) => el("td", { "data-source": k, text: bySource[p.seat][k] ?? 0 })),
      el("td", { text: p.vp }), el("td", { text: p.hp })));
    const cols = ["Assassin", ...sources.map(([, label]) => label), "VP", "HP"];
    return el("div", { ...SCROLL, class: "scroll final" }, el("table", { class: "grid" },
      el("caption", { text: "Victory Points by source" }),
      el("thead", {}, el("tr", {}, ...cols.map((t) => el("th", { text: t })))),
      el("tbody", {}, ...rows)));
  },

  boardVerbs: new Set([...CELL_VERBS, "obstacle", "strategy", "draw"]),

  status(view) {
    const turn = `Round ${view.round} · turn ${view.turns + 1}${view.max_turns ? ` of ${view.max_turns}` : ""}`;
    if (view.is_over) return `Round ${view.round} · ${view.turns} turns played — the game is over`;
    if (view.phase === "placement") {
      return `${turn} — enemy placement: ${who(view, view.placement.placer)} places a ${view.placement.enemy}`;
    }
    return `${turn} — ${who(view, view.current)} ${PHASES[view.phase] ?? view.phase}`;
  },

  prompt,

  board(container, view, legal, send) {
    const key = keyOf(legal);
    if (key !== legalKey) {
      legalKey = key;
      mode = null;
      selected = null;
      choice = null;
    }
    const redraw = () => {
      projectAssassination.board(container, view, legal, send);
      const box = document.getElementById("prompt");
      if (box) box.textContent = prompt(view, legal);
    };
    container.replaceChildren(boardSvg(view, legal, send, redraw), itemTools(boardMoves(legal), redraw),
      choiceBox(send, redraw), footnote(view));
  },

  private(container, view) {
    if (view.seat === null) {
      generic.private(container, view);
      return;
    }
    const me = view.players[view.seat];
    const flags = [me.ambushed && "your point is ambushed", me.loses_next_turn && "paralysed: you lose your next turn"]
      .filter(Boolean);
    container.replaceChildren(
      el("p", {}, "You are ", el("strong", { id: "your-player", text: `Player ${me.number}` }),
        ` (seat ${me.seat}): start ${me.spawn.toUpperCase()}, your point ${me.point.toUpperCase()}.`),
      el("p", { id: "your-stats", text: `HP ${me.hp}/10 · VP ${me.vp}/12 · boots ${me.boots}` }),
      el("p", { id: "your-weapons", text: `Weapons: ${arms(me)}.` }),
      el("p", { id: "your-reserve",
        text: `Item reserve (${me.reserve.length}/5): ${me.reserve.map(cardName).join(", ") || "empty"}.` }),
      el("p", { text: `On your point: ${me.point_cards.map(cardName).join(", ") || "nothing"}.` }),
      flags.length ? el("p", { class: "pa-flags", text: cap(`${flags.join("; ")}.`) }) : "",
      turnLine(view) ?? "",
      el("p", { class: "muted", id: "your-decks",
        text: `Decks (face down): Item ${view.decks.item}, Collectible ${view.decks.collectible}, Enemy ${view.decks.enemy}.` }),
    );
  },

  players(container, view, table) {
    const kinds = new Map((table?.seats ?? []).map((s) => [s.seat, s.kind === "human" ? "human" : s.bot]));
    const header = el("tr", {}, ...["Player", "HP", "VP", "Weapons", "Items"].map((t) => el("th", { text: t })));
    const rows = view.players.map((p) => el("tr", { class: p.seat === view.seat ? "you" : null, "data-seat-row": p.seat },
      el("td", {}, who(view, p.seat), el("small", { class: "muted", text: ` seat ${p.seat} ${kinds.get(p.seat) ?? ""}` })),
      el("td", { text: p.hp }), el("td", { text: p.vp }), el("td", { text: arms(p) }),
      el("td", { text: [p.reserve.map(cardName).join(", "), p.boots ? `${p.boots} boot(s)` : ""]
        .filter(Boolean).join("; ") || "—" })));
    const grid = el("table", { class: "grid" }, el("thead", {}, header), el("tbody", {}, ...rows));
    container.replaceChildren(el("div", SCROLL, grid));
  },
};
