// Shadows over Japan: a map of Japan in SVG drawn from the seat's view only — every province with
// its owner, developments, samurai, army or occupying force and ninja (a style the seat may not
// know is a "?") — plus your secret Noble and hand. Clicking a highlighted province picks one of
// your ninjas (or an infiltrated army); the provinces it can reach light up, and clicking one
// plays the move; anything else the province offers (steal, sabotage, recruit…) is a button.
// The layout and the map facts come from shadows-over-japan-map.json (fetched once). On a narrow
// screen the same layout is drawn turned, so that Japan stands up and fills a phone's width.
import { SCROLL, cap, el, seatList, seatName, svg } from "./dom.js";
import { generic } from "./generic.js";
import { drawRecent } from "./recent.js";
import { explain, helpText } from "./guide.js";

const MAP_URL = new URL("./shadows-over-japan-map.json", import.meta.url);
const NOBLES = {
  oda: { short: "Oda", colour: "#e2b42b", tint: "#f6e3a6" },
  takeda: { short: "Takeda", colour: "#c8402f", tint: "#f0b7ae" },
  tokugawa: { short: "Tokugawa", colour: "#7f4fab", tint: "#d6c2e8" },
  date: { short: "Date", colour: "#3567ba", tint: "#b9cdee" },
};
const STYLES = { stone: "Stone Fist", scissor: "Scissor Kick", paper: "Paper Crane" };
const STYLE_MARK = { stone: "●", scissor: "✕", paper: "◇", hidden: "?" };
const PHASES = {
  setup: "set-up: the ninjas take their places",
  actions: "ninja actions",
  spend: "spending gold",
  discard: "discarding down to 6 cards",
  over: "the game is over",
};
// Verbs played on the map: the first argument is always a province (a card names one too).
const BOARD_VERBS = new Set(["move", "substitute", "march", "steal", "sabotage", "seppuku", "recruit"]);
const PAIR_VERBS = new Set(["move", "substitute", "march"]); // from → to
const TALL_TURN = -55; // degrees the layout turns on a narrow board (Kyushu down, Mutsu up)
const NARROW = 480; // px: a board narrower than this gets the turned layout
const MARGIN = 24; // viewBox units around the turned layout (names hang below their province)

let map = null; // the static map, indexed (see indexMap)
let mapState = "idle"; // idle | loading | ready | failed
let last = null; // the latest board() arguments, to draw again once the map has loaded
let lastPlayers = null; // the same for players() (the capitals' names come with the map)
let drawnShape = null; // "wide" or "tall": the layout drawn last
const ui = { selected: null, target: null, inspected: null }; // a move being chosen on the map

function turned(layout) {
  // The layout rotated by TALL_TURN and moved back into a viewBox starting at (MARGIN, MARGIN).
  const t = (TALL_TURN * Math.PI) / 180;
  const points = Object.entries(layout).map(([key, [x, y]]) =>
    [key, x * Math.cos(t) - y * Math.sin(t), x * Math.sin(t) + y * Math.cos(t)]);
  const [minX, minY] = [1, 2].map((i) => Math.min(...points.map((p) => p[i])));
  const at = Object.fromEntries(points.map(([key, x, y]) =>
    [key, [Math.round(x - minX + MARGIN), Math.round(y - minY + MARGIN)]]));
  const [maxX, maxY] = [0, 1].map((i) => Math.max(...Object.values(at).map((p) => p[i])));
  return { size: [maxX + MARGIN, maxY + MARGIN + 10], at };
}

function indexMap(data) {
  const provinces = new Map(data.provinces.map((p) => [p.key, p]));
  const shapes = { wide: { size: data.size, at: data.layout }, tall: turned(data.layout) };
  return { provinces, water: data.water, honours: data.honours, shapes };
}

const shapeFor = (container) => (container.clientWidth && container.clientWidth < NARROW ? "tall" : "wide");

function loadMap() {
  if (mapState !== "idle") return;
  mapState = "loading";
  fetch(MAP_URL)
    .then((response) => {
      if (!response.ok) throw new Error(`map: HTTP ${response.status}`);
      return response.json();
    })
    .then((data) => { map = indexMap(data); mapState = "ready"; })
    .catch(() => { mapState = "failed"; })
    .finally(() => {
      if (last) shadowsOverJapan.board(...last);
      if (lastPlayers) shadowsOverJapan.players(...lastPlayers);
    });
}

window.addEventListener("resize", () => {
  // A phone turned sideways (or a resized window) may want the other layout.
  if (last && mapState === "ready" && shapeFor(last[0]) !== drawnShape) shadowsOverJapan.board(...last);
});

const nobleName = (key) => NOBLES[key]?.short ?? key ?? "—";
// An Intelligence card id ("INT-TAKEDA-2") as players know it: "Takeda Intelligence".
const intelName = (card) => `${nobleName(card.split("-")[1]?.toLowerCase())} Intelligence`;
const provinceName = (key) => map?.provinces.get(key)?.name ?? key;
const honourName = (key) => map?.honours?.[key] ?? key;

function movesOf(legal) {
  // province → { here: moves made there, to: Map(destination → moves) }
  const from = new Map();
  for (const entry of legal) {
    const [verb, a, b] = entry.action.split(" ");
    if (!BOARD_VERBS.has(verb)) continue;
    const slot = from.get(a) ?? { here: [], to: new Map() };
    if (PAIR_VERBS.has(verb)) slot.to.set(b, [...(slot.to.get(b) ?? []), entry]);
    else slot.here.push(entry);
    from.set(a, slot);
  }
  return from;
}

function nextSetupProvince(view) {
  // The dealt province of your next set-up ninja (the first one still without it).
  if (view.phase !== "setup" || view.seat === null || view.current !== view.seat) return null;
  const mine = new Set(view.provinces.filter((p) => p.ninja?.seat === view.seat).map((p) => p.key));
  return (view.setup_provinces[view.seat] ?? []).find((key) => !mine.has(key)) ?? null;
}

// -- the map ------------------------------------------------------------------------------------
function line(kind, [x1, y1], [x2, y2]) {
  return svg("line", { class: kind, x1, y1, x2, y2 });
}

function edges(at) {
  const parts = [];
  for (const w of map.water) for (const key of w.provinces) parts.push(line("sj-water-link", at[w.id], at[key]));
  for (const p of map.provinces.values()) {
    for (const [kind, list] of [["sj-land-link", p.land], ["sj-lane", p.lanes]]) {
      // Each pair once.
      for (const key of list) if (key > p.key) parts.push(line(kind, at[p.key], at[key]));
    }
  }
  const labels = map.water.map((w) => svg("text", { class: "sj-water", x: at[w.id][0], y: at[w.id][1] + 3,
    "text-anchor": "middle", text: w.id }, svg("title", { text: w.name })));
  return [...parts, ...labels];
}

function developments(count) {
  const xs = count === 1 ? [0] : count >= 2 ? [-4.5, 4.5] : [];
  return xs.map((x) => svg("circle", { class: "sj-dev", cx: x, cy: -9.5, r: 2.6 }));
}

function samurai(style) {
  if (!style) return null;
  return svg("g", { class: "sj-samurai", "data-samurai": style },
    svg("rect", { x: -13, y: -6, width: 9, height: 9, rx: 1.5 }),
    svg("text", { x: -8.5, y: 1.2, "text-anchor": "middle", text: STYLE_MARK[style] ?? "?" }));
}

function army(p) {
  const noble = p.army ?? p.occupier;
  if (!noble) return null;
  // An occupying force is drawn as a squared flag with a dashed edge; a normal army as a pennant.
  const shape = p.army ? "M3,-6 L12,-1 L3,4 Z" : "M3,-6 L11,-6 L11,3 L3,3 Z";
  const cls = `sj-army${p.army ? "" : " occupier"}${p.army_moved ? " moved" : ""}`;
  return svg("path", { class: cls, d: shape, fill: NOBLES[noble]?.colour, "data-army": noble });
}

function ninja(n, view, at) {
  if (!n) return null;
  const mine = n.seat === view.seat;
  const cls = ["sj-ninja", mine ? "mine" : "", n.revealed ? "revealed" : "concealed",
    n.infiltrating ? "infiltrating" : ""].filter(Boolean).join(" ");
  return svg("g", { class: cls, "data-ninja": n.seat, "data-style": n.style ?? "unknown", "data-piece-at": at },
    svg("path", { d: "M0,3 L6.5,9.5 L0,16 L-6.5,9.5 Z" }),
    svg("text", { class: "sj-ninja-seat", x: 0, y: 12.3, "text-anchor": "middle", text: String(n.seat) }),
    svg("text", { class: "sj-ninja-style", x: 7, y: 16, text: n.style ? STYLE_MARK[n.style] : "?" }));
}

function provinceNode(info, p, view, marks, [x, y]) {
  const owner = p?.owner ?? info.noble;
  const conquered = owner !== info.noble;
  const mark = marks.legal.get(info.key) ?? null;
  return svg("g", {
    class: `sj-province${marks.next === info.key ? " next" : ""}`, // next: your set-up ninja goes here
    transform: `translate(${x} ${y})`, "data-province": info.key, "data-legal": mark,
    onclick: () => marks.click(info.key), "data-help": provinceHelp(info, p, view),
  },
  svg("title", { text: describeProvince(info, p, view) }),
  svg("circle", { class: "sj-hit", r: 19 }),
  svg("circle", { class: `sj-land${conquered ? " conquered" : ""}`, r: 14, fill: NOBLES[owner]?.tint,
    stroke: conquered ? NOBLES[info.noble]?.colour : null }),
  info.capital ? svg("text", { class: "sj-star", x: -15, y: -8, text: "★" }) : null,
  marks.hand.has(info.key) ? svg("rect", { class: "sj-card", x: 9, y: -18, width: 7, height: 9, rx: 1 }) : null,
  ...developments(p?.developments ?? 0), samurai(p?.samurai), army(p ?? {}), ninja(p?.ninja, view, info.key),
  svg("text", { class: "sj-name", y: 26, "text-anchor": "middle", text: info.name }));
}

function mapSvg(view, marks, shape) {
  const { size: [w, h], at } = map.shapes[shape];
  const byKey = new Map(view.provinces.map((p) => [p.key, p]));
  const nodes = [...map.provinces.values()]
    .map((info) => provinceNode(info, byKey.get(info.key), view, marks, at[info.key]));
  const board = svg("svg", { class: "sj-map", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "map of Japan",
    "data-shape": shape }, svg("rect", { class: "sj-sea", x: 0, y: 0, width: w, height: h }), ...edges(at), ...nodes);
  drawRecent(board, recentMarks, (key) => at[key] ?? null, 30);
  return board;
}

const RESULTS = { won: "won", lost: "lost", tie: "tie", liberated: "liberated", occupied: "occupied" };

// What the log says happened, as marks on the map (recent.js): ninjas' moves and the fights at
// their end, Substitutions, armies marching, thefts, sabotage, seppuku, ninjas placed or
// recruited and provinces developed.
function recentMarks(entries) {
  const one = {
    placed: (e) => [{ kind: "place", at: e.at }],
    recruited: (e) => [{ kind: "place", at: e.at }],
    move: (e) => [{ kind: "move", at: e.to, from: e.frm },
      ...(e.fights?.length ? [{ kind: "fight", at: e.to, label: RESULTS[e.result] }] : [])],
    marched: (e) => [{ kind: "move", at: e.to, from: e.frm },
      ...(RESULTS[e.result] ? [{ kind: "fight", at: e.to, label: RESULTS[e.result] }] : [])],
    substituted: (e) => [{ kind: "swap", at: e.to, from: e.frm }],
    stole: (e) => [{ kind: "look", at: e.at }],
    sabotaged: (e) => [{ kind: "attack", at: e.at }],
    seppuku: (e) => [{ kind: "gone", at: e.at }],
    developed: (e) => (e.provinces ?? []).map((d) => ({ kind: "place", at: d.province })),
  };
  return entries.flatMap(({ event, text }) => (one[event.kind]?.(event) ?? []).map((m) => ({ ...m, text })));
}

// -- texts ----------------------------------------------------------------------------------------
function describeNinja(n, view) {
  const style = n.style ? STYLES[n.style] : "style unknown";
  const state = n.revealed ? "revealed" : "concealed";
  return `${seatName(n.seat, view)}'s ninja (${style}, ${state}${n.infiltrating ? ", infiltrating the army" : ""})`;
}

function provinceHelp(info, p, view) {
  // What is there, then what the guide says of each kind of piece on it.
  const styles = [p?.samurai, p?.ninja?.style].filter((st) => STYLES[st]);
  return helpText(describeProvince(info, p, view), p?.samurai && explain("samurai"), p?.army && explain("army"),
    p?.occupier && explain("occupier"), p?.ninja && explain("ninja"), ...[...new Set(styles)].map(explain));
}

function describeProvince(info, p, view) {
  const owner = p?.owner ?? info.noble;
  const parts = [`${info.name}${info.capital ? " ★ capital" : ""}: ${nobleName(owner)}`
    + `${owner !== info.noble ? ` (conquered from ${nobleName(info.noble)})` : ""}`];
  parts.push(`${p?.developments ?? 0} development(s)`);
  if (p?.samurai) parts.push(`samurai: ${p.samurai === "hidden" ? "face down" : STYLES[p.samurai]}`);
  if (p?.army) parts.push(`${nobleName(p.army)} army${p.army_moved ? " (marched this season)" : ""}`);
  if (p?.occupier) parts.push(`${nobleName(p.occupier)} occupying force`);
  if (p?.ninja) parts.push(describeNinja(p.ninja, view));
  return parts.join(" · ");
}

// A move whose text carries a warning (a fight, the last gold: the server words it from the
// seat's own view) is never played by a single click on the map: it asks to be confirmed.
const warned = (entry) => entry.text.includes("⚠");

function choiceButton(entry, send) {
  return el("button", { type: "button", class: `choice${warned(entry) ? " warn" : ""}`, "data-action": entry.action,
    onclick: () => { resetChoice(); send(entry.action); } }, entry.text);
}

function choices(moves, send, redraw) {
  const cancel = el("button", { type: "button", class: "secondary", onclick: () => { resetChoice(); redraw(); } },
    "Cancel");
  const slot = ui.selected ? moves.get(ui.selected) : null;
  if (slot && ui.target) {
    const options = slot.to.get(ui.target) ?? [];
    const how = options.length === 1 ? "confirm (read the warning first)" : "choose how";
    return [el("p", { text: `${provinceName(ui.selected)} → ${provinceName(ui.target)}: ${how}.` }),
      el("div", { class: "actions" }, ...options.map((e) => choiceButton(e, send)), cancel)];
  }
  if (slot) {
    const reach = slot.to.size ? "Click a highlighted province to go there" : "Nothing to move from here";
    return [el("p", { text: `${provinceName(ui.selected)}: ${reach}${slot.here.length ? ", or:" : "."}` }),
      el("div", { class: "actions" }, ...slot.here.map((e) => choiceButton(e, send)), cancel)];
  }
  return [];
}

function resetChoice() {
  ui.selected = null;
  ui.target = null;
}

function clicker(moves, send, redraw) {
  return (key) => {
    const slot = ui.selected ? moves.get(ui.selected) : null;
    const options = slot?.to.get(key);
    if (options?.length === 1 && !warned(options[0])) {
      resetChoice();
      send(options[0].action);
      return;
    }
    if (options) ui.target = key;
    else if (moves.has(key) && ui.selected !== key) [ui.selected, ui.target] = [key, null];
    else resetChoice();
    ui.inspected = key;
    redraw();
  };
}

function legalMarks(moves) {
  // data-legal per province: the chosen piece's destinations, else every piece that can act.
  const marks = new Map();
  const slot = ui.selected ? moves.get(ui.selected) : null;
  if (slot) {
    marks.set(ui.selected, "selected");
    for (const key of slot.to.keys()) marks.set(key, ui.target === key ? "target" : "to");
  } else {
    for (const key of moves.keys()) marks.set(key, "from");
  }
  return marks;
}

function infoLine(view) {
  const key = ui.inspected;
  const info = key ? map.provinces.get(key) : null;
  const text = info
    ? describeProvince(info, view.provinces.find((p) => p.key === key), view)
    : "Tap or click a province to see what is there.";
  return el("p", { class: "sj-info", id: "sj-info", text });
}

function summaryLine(view) {
  const h = view.honours;
  const face = h.face_up ? `Honour face up: ${honourName(h.face_up)}` : "No Honour card face up";
  const piles = `Territory deck ${view.deck_size}, discard ${view.discard.length}, gold supply ${view.gold_supply}`;
  const honour = h.face_up ? explain(h.face_up) : null; // what it is awarded for
  return el("p", { class: "muted", text: `${face}; ${h.deck_size} Honour card(s) left. ${piles}.` },
    honour ? el("span", { class: "sj-honour-help", text: ` ${honour}` }) : "");
}

const LEGEND = "● Stone · ✕ Scissor · ◇ Paper (samurai in the white square, a ninja's next to it; ? = unknown) · "
  + "pennant = army, square flag = occupying force · ◆ = ninja with its seat (dashed = concealed) · "
  + "dots = developments · ★ capital · small card = in your hand · dotted lines: water regions (W…); "
  + "red dashes: army lanes.";

function drawBoard(container, view, legal, send) {
  const moves = movesOf(legal);
  const slot = ui.selected ? moves.get(ui.selected) : null;
  if (!slot) resetChoice(); // the chosen piece can no longer act (a move was played, or it is over)
  else if (ui.target && !slot.to.has(ui.target)) ui.target = null;
  const redraw = () => drawBoard(container, view, legal, send);
  const marks = {
    legal: legalMarks(moves),
    next: nextSetupProvince(view),
    hand: new Set((view.you?.hand ?? []).map((c) => c.key)),
    click: clicker(moves, send, redraw),
  };
  drawnShape = shapeFor(container);
  container.replaceChildren(mapSvg(view, marks, drawnShape),
    el("div", { class: "sj-choices", id: "sj-choices" }, ...choices(moves, send, redraw)),
    infoLine(view), summaryLine(view),
    el("details", {}, el("summary", { text: "How to read the map" }), el("p", { class: "muted", text: LEGEND })));
}

// -- side panels ------------------------------------------------------------------------------------
function swatch(noble) {
  return el("span", { class: "sj-swatch", style: `background:${NOBLES[noble]?.colour ?? "#999"}` });
}

function nobleCell(p) {
  if (p.noble) return el("td", { "data-noble": p.noble }, swatch(p.noble), ` ${nobleName(p.noble)}`);
  const text = p.ruled_out.length ? `? (not ${p.ruled_out.map(nobleName).join(", ")})` : "?";
  return el("td", { "data-noble": "unknown", text });
}

function clansTable(view, table) {
  const kinds = new Map((table?.seats ?? []).map((s) => [s.seat, s.kind === "human" ? "human" : s.bot]));
  // (A clan's pool is 6 less its ninjas on the board: not repeated here.)
  const header = el("tr", {}, ...["Seat", "Noble", "Marker", "Gold", "Hand", "Ninjas", "Intel."]
    .map((t) => el("th", { text: t })));
  const rows = view.players.map((p) => el("tr", { class: p.seat === view.seat ? "you" : null, "data-seat-row": p.seat },
    el("td", {}, seatName(p.seat, view), el("small", { class: "muted", text: ` ${kinds.get(p.seat) ?? ""}` }),
      view.current === p.seat && !view.is_over ? " ◀" : ""),
    nobleCell(p), el("td", { text: p.marker }), el("td", { text: p.gold }), el("td", { text: p.hand_size }),
    el("td", { text: p.ninjas }), el("td", { text: p.intelligence.length })));
  return el("table", { class: "grid" }, el("thead", {}, header), el("tbody", {}, ...rows));
}

function noblesTable(view) {
  const scores = new Map((view.final?.scores ?? []).map((s) => [s.noble, s.political]));
  const power = scores.size ? ["Power"] : []; // Political Power, once the game is over
  const cols = ["Noble", ...power, "Capital", "Prov.", "Econ.", "Mil.", "Armies", "Sam.", "+/−", "Intel", "Honours"];
  const rows = view.nobles.map((n) => el("tr", { "data-noble-row": n.key },
    el("td", { title: explain(n.key) }, swatch(n.key), ` ${nobleName(n.key)}`),
    scores.size ? el("td", { text: scores.get(n.key) ?? "" }) : "", el("td", { text: provinceName(n.capital) }),
    ...[n.provinces, n.economy, n.military, n.armies, n.samurai, `+${n.conquered}/−${n.lost}`,
      n.intelligence_at_capital, n.honours].map((v) => el("td", { text: v }))));
  return el("table", { class: "grid" }, el("thead", {}, el("tr", {}, ...cols.map((t) => el("th", { text: t })))),
    el("tbody", {}, ...rows));
}

function handList(you) {
  const claimable = new Set(you.claimable);
  const items = you.hand.map((c) => el("li", { "data-card": c.key, class: claimable.has(c.key) ? "claimable" : null },
    el("strong", { text: `${c.name}${c.capital ? " ★" : ""}` }),
    ` ${c.card} · ${c.mission} against ${nobleName(c.against)}`,
    claimable.has(c.key) ? " · mission complete: claim it" : ""));
  return items.length ? el("ul", { class: "sj-hand", id: "your-hand" }, ...items)
    : el("p", { class: "muted", id: "your-hand", text: "No territory cards in your hand." });
}

// The end: every Noble's Political Power by source, and which clan backed whom (now revealed).
function finalScores(view) {
  const final = view.final;
  if (!final?.scores) return null;
  const backers = new Map();
  (final.nobles ?? []).forEach((noble, seat) => backers.set(noble, [...(backers.get(noble) ?? []), seat]));
  const cols = ["Noble", "Backed by", "Honours", "Economy award", "Military award", "Conquered",
    "Intelligence", "Lost", "Political Power"];
  const rows = final.scores.map((s) => el("tr", { "data-noble-row": s.noble },
    el("td", {}, swatch(s.noble), ` ${nobleName(s.noble)}`),
    el("td", { text: (backers.get(s.noble) ?? []).map((seat) => seatName(seat, view)).join(", ") || "nobody" }),
    ...[s.honours, s.economy_award, s.military_award, s.conquered, s.intelligence,
      s.shame ? `−${s.shame}` : "0", s.political].map((v) => el("td", { text: v }))));
  return el("div", { ...SCROLL, class: "scroll final" }, el("table", { class: "grid" },
    el("caption", { text: "Political Power by source" }),
    el("thead", {}, el("tr", {}, ...cols.map((t) => el("th", { text: t })))), el("tbody", {}, ...rows)));
}

export const shadowsOverJapan = {
  final: finalScores,

  boardVerbs: BOARD_VERBS,

  status(view) {
    const season = `${cap(view.season)} of year ${view.year}`;
    const round = view.max_turns ? `season ${view.round} of at most ${view.max_turns}` : `season ${view.round}`;
    const actions = view.phase === "actions" ? `, ${view.actions_left} action(s) left` : "";
    const who = view.current === null ? "" : ` · ${seatName(view.current, view)}${actions}`;
    return `${season} (${round}) — ${PHASES[view.phase] ?? view.phase}${who}`;
  },

  prompt(view, legal) {
    if (view.is_over) return "The game is over.";
    if (!legal.length) return `Waiting for ${seatList(view.to_move, view)} (${PHASES[view.phase] ?? view.phase}).`;
    if (view.phase === "setup") {
      const where = nextSetupProvince(view);
      return `Choose the style of your ninja${where ? ` in ${provinceName(where)} (ringed on the map)` : ""}.`;
    }
    if (view.phase === "discard") return "Your hand holds more than 6 cards: discard one.";
    const claim = legal.some((a) => a.action.startsWith("claim ")) ? " You completed a mission: claim it below." : "";
    const onMap = movesOf(legal).size > 0;
    if (view.phase === "spend") {
      return `Spend gold${onMap ? ": click a highlighted province to recruit or march" : ""}, or press End.${claim}`;
    }
    const how = onMap ? "click one of your highlighted pieces on the map, then where it goes" : "use the buttons";
    return `${view.actions_left} action(s) left: ${how}; End when done.${claim}`;
  },

  board(container, view, legal, send) {
    last = [container, view, legal, send];
    if (mapState === "failed") {
      generic.board(container, view);
      return;
    }
    if (mapState !== "ready") {
      container.replaceChildren(el("p", { class: "muted", text: "Loading the map…" }));
      loadMap();
      return;
    }
    drawBoard(container, view, legal, send);
  },

  private(container, view) {
    const you = view.you;
    if (!you) {
      generic.private(container, view);
      return;
    }
    const pool = Object.entries(you.pool).filter(([, n]) => n).map(([s, n]) => `${n} ${STYLES[s]}`);
    const noble = view.nobles.find((n) => n.key === you.noble);
    container.replaceChildren(
      el("p", {}, "You secretly back ", swatch(you.noble), " ",
        el("strong", { id: "your-noble", text: noble?.name ?? nobleName(you.noble) }), "."),
      el("p", { text: `Ninjas in your pool: ${pool.join(", ") || "none"}.` }),
      el("h3", { text: "Your hand" }), handList(you),
      you.intelligence.length ? el("p", { text: `Intelligence: ${you.intelligence.map(intelName).join(", ")}.` }) : "",
    );
  },

  players(container, view, table) {
    lastPlayers = [container, view, table];
    const awarded = view.honours.awarded
      .map((a) => `${honourName(a.honour)} → ${a.noble ? nobleName(a.noble) : "buried"}`);
    container.replaceChildren(
      el("div", SCROLL, clansTable(view, table)),
      el("h3", { text: "Nobles" }),
      el("div", SCROLL, noblesTable(view)),
      awarded.length ? el("p", { class: "muted", text: `Honours awarded: ${awarded.join(", ")}.` }) : "",
    );
  },
};
