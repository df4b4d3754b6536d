// The replay page of a finished game: step by step, as one seat saw it, as a spectator saw it,
// or with everything revealed. `GET /api/tables/{id}/replay?seat=…` gives every step's actor,
// action and events; `GET /api/tables/{id}/replay/{step}?seat=…` one step's view (revealed:
// the public view and every seat's). The board is drawn by the game's own renderer, the one
// the table page uses, with no legal moves. The server refuses a replay until the game is over.
import { cap, el, eventWords, gameOverText } from "./dom.js";
import { setRecent } from "./recent.js";
import { rendererFor } from "./renderers.js";
import { createZoom } from "./zoom.js";

const ALL = "all";
const MAX_CACHED_STEPS = 600;

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const base = `/api/tables/${encodeURIComponent(tableId)}/replay`;

const replay = {
  perspective: ALL, // "all", "spectator" or a seat number (as text)
  step: 0,
  index: null, // the chosen perspective's index: table info and every step without views
  indexes: new Map(), // perspective → promise of its index
  steps: new Map(), // "perspective/step" → promise of that step
  ticket: 0, // the latest navigation: a slow answer never overwrites a newer one
};

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail ?? `the server answered ${response.status}`);
  return body;
}

function cached(cache, key, load) {
  if (!cache.has(key)) {
    const promise = load();
    promise.catch(() => cache.delete(key)); // a failure may be retried
    cache.set(key, promise);
    if (cache.size > MAX_CACHED_STEPS) cache.delete(cache.keys().next().value);
  }
  return cache.get(key);
}

const loadIndex = (p) => cached(replay.indexes, p, () => getJson(`${base}?seat=${p}`));
const loadStep = (p, step) =>
  cached(replay.steps, `${p}/${step}`, () => getJson(`${base}/${step}?seat=${p}`));

// -- drawing one step -------------------------------------------------------------------------
const seatOf = (p) => (p === ALL || p === "spectator" ? null : Number(p));

function who(seat) {
  return seat === seatOf(replay.perspective) ? "you" : `seat ${seat}`;
}

function caption(index, data) {
  const head = `Step ${data.step} of ${index.length}`;
  if (data.step === 0) return `${head}: the set-up.`;
  if (data.action === null) return `${head}: ${who(data.seat)} moved.`;
  const code = data.action_text !== data.action ? ` (${data.action})` : "";
  return `${head}: ${who(data.seat)} — ${data.action_text}${code}.`;
}

function renderOutcome(view) {
  const box = $("outcome");
  box.hidden = !view.is_over || !view.outcome;
  if (box.hidden) return;
  const { winners, reason, returns = [] } = view.outcome;
  const me = seatOf(replay.perspective);
  // A draw for the seat unless it was out before the end (a negative return).
  const drew = me !== null && !winners.length && (returns[me] ?? 0) >= 0;
  let verdict = gameOverText(winners, returns);
  let mood = "";
  if (drew) [verdict, mood] = [`A draw for seat ${me}.`, "draw"];
  else if (me !== null && winners.includes(me)) [verdict, mood] = [`Seat ${me} wins.`, "won"];
  else if (me !== null) [verdict, mood] = [`Seat ${me} loses.`, "lost"];
  box.className = `outcome ${mood}`;
  box.textContent = reason ? `${verdict} ${cap(reason)}.` : verdict;
}

function renderSecrets(r, data) {
  const box = $("private");
  if (replay.perspective !== ALL) {
    const me = seatOf(replay.perspective);
    $("private-title").textContent = me === null ? "Secrets" : `Seat ${me}`;
    r.private(box, data.view);
    return;
  }
  // Everything revealed: every seat's private side by side.
  $("private-title").textContent = "Every seat's secrets";
  box.replaceChildren(...data.views.map((view) => {
    const inner = el("div");
    r.private(inner, view);
    return el("div", { class: "seat-secrets", "data-seat": view.seat },
      el("h3", { text: `Seat ${view.seat}` }), inner);
  }));
}

function logLine(event, text, seats, step, current) {
  const { kind, private: secret } = event;
  const line = text ?? eventWords(kind);
  const shown = seats ? `${seats.map((s) => `seat ${s}`).join(", ")} · ${line}` : line;
  const classes = [secret ? "private" : null, step === current ? "current" : null];
  return el("li", { class: classes.filter(Boolean).join(" ") || null, "data-kind": kind,
    "data-step": step, text: shown });
}

function chatLine(line, step, current) {
  // Table talk said at this step (text only, never HTML); whispers only if the table reveals them.
  const whisper = line.to !== null;
  const head = whisper ? `seat ${line.seat} → seat ${line.to} (whisper)` : `seat ${line.seat}`;
  return el("li", { class: ["chat", step === current ? "current" : null].filter(Boolean).join(" "),
    "data-kind": "chat", "data-step": step, text: `${head}: “${line.text}”` });
}

function renderLog(index, current) {
  const lines = [];
  for (const entry of index.steps.slice(0, current + 1)) {
    entry.events.forEach((event, i) => lines.push(logLine(event, entry.event_texts[i],
      entry.event_seats?.[i] ?? null, entry.step, current)));
    (entry.chat ?? []).forEach((line) => lines.push(chatLine(line, entry.step, current)));
  }
  const log = $("log");
  log.replaceChildren(...lines);
  log.scrollTop = log.scrollHeight; // the current step's lines are the last ones
}

function renderControls(index, step) {
  const slider = $("replay-slider");
  slider.max = String(index.length);
  slider.value = String(step);
  $("replay-first").disabled = $("replay-prev").disabled = step === 0;
  $("replay-last").disabled = $("replay-next").disabled = step === index.length;
  $("replay-seat").value = replay.perspective;
}

function render(index, data) {
  const r = rendererFor(index.game);
  const view = data.view;
  $("error").textContent = "";
  renderControls(index, data.step);
  $("replay-caption").textContent = caption(index, data);
  $("status").textContent = r.status(view);
  $("prompt").textContent = r.prompt(view, []);
  renderOutcome(view);
  // The shown step's events marked on the board (recent.js), its moved pieces sliding in.
  const shown = index.steps.find((entry) => entry.step === data.step);
  setRecent(shown ? shown.events.map((event, i) => ({ event, text: shown.event_texts[i] })) : [], null, true);
  r.board($("board"), view, [], () => {});
  renderSecrets(r, data);
  r.players($("players"), view, index);
  renderLog(index, data.step);
  document.body.dataset.perspective = replay.perspective;
  document.body.dataset.replayStep = String(data.step);
  history.replaceState(null, "", `?seat=${replay.perspective}&step=${data.step}`);
}

// -- navigation -------------------------------------------------------------------------------
async function show(step, perspective = replay.perspective) {
  const ticket = ++replay.ticket;
  try {
    const index = await loadIndex(perspective);
    const wanted = Math.max(0, Math.min(Number(step) || 0, index.length));
    const data = await loadStep(perspective, wanted);
    if (ticket !== replay.ticket) return;
    Object.assign(replay, { perspective, index, step: wanted });
    render(index, data);
    if (wanted < index.length) loadStep(perspective, wanted + 1).catch(() => {}); // read ahead
  } catch (error) {
    if (ticket === replay.ticket) $("error").textContent = error.message;
  }
}

function seatOptions(index) {
  const kind = (s) => (s.kind === "human" ? "human" : `bot, ${s.bot}`);
  return [
    el("option", { value: ALL, text: "everything revealed" }),
    el("option", { value: "spectator", text: "a spectator" }),
    ...index.seats.map((s) => el("option", { value: String(s.seat), text: `seat ${s.seat} (${kind(s)})` })),
  ];
}

function onKey(event) {
  // The slider and the selector answer the arrow keys themselves.
  if (!replay.index || ["INPUT", "SELECT"].includes(event.target.tagName)) return;
  const moves = { ArrowLeft: replay.step - 1, ArrowRight: replay.step + 1, Home: 0,
    End: replay.index.length };
  if (!(event.key in moves)) return;
  event.preventDefault();
  show(moves[event.key]);
}

function wire() {
  $("replay-first").onclick = () => show(0);
  $("replay-prev").onclick = () => show(replay.step - 1);
  $("replay-next").onclick = () => show(replay.step + 1);
  $("replay-last").onclick = () => show(replay.index?.length ?? 0);
  $("replay-slider").oninput = (event) => show(Number(event.target.value));
  $("replay-seat").onchange = (event) => show(replay.step, event.target.value);
  document.addEventListener("keydown", onKey);
}

async function start() {
  const params = new URLSearchParams(location.search);
  $("back").href = `/table/${encodeURIComponent(tableId)}`;
  let perspective = params.get("seat") ?? ALL;
  let index;
  try {
    index = await loadIndex(perspective).catch(() => {
      perspective = ALL; // a seat this table does not have: show everything
      return loadIndex(ALL);
    });
  } catch (error) {
    // Not over yet (or no such table): nothing to replay.
    $("title").textContent = `table ${tableId}`;
    $("error").textContent = error.message;
    document.body.dataset.replayStep = "unavailable";
    document.querySelectorAll(".replay-controls button, .replay-controls input, .replay-controls select")
      .forEach((control) => { control.disabled = true; });
    return;
  }
  $("title").textContent = `${index.name} · table ${index.id}`;
  document.title = `intrigue — replay of ${index.name}`;
  $("replay-seat").replaceChildren(...seatOptions(index));
  wire();
  await show(params.get("step") ?? 0, perspective);
}

createZoom($("board"), $("zoom")); // the same zoom and pan as the table page
start();
