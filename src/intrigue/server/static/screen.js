// The table screen: a shared display (TV, laptop) in the middle of the table shows the public
// view large, the digital form of the cubes on the real board, while each player's phone is
// its private screen. It is a spectator connection: it never sends a token (even if one is in
// the address), so the server sends it the public view and public events only.
import { cap, el, eventWords, gameOverText } from "./dom.js";
import { setRecent } from "./recent.js";
import { rendererFor } from "./renderers.js";

const LOG_LINES = 12;
const RECENT_LINES = 4; // the latest lines, marked on the board
const FINAL_CLOSE_CODES = new Set([4404]);

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const screen = { view: null, log: [], table: null };
let retryDelay = 500;

function renderOutcome(view) {
  const box = $("outcome");
  box.hidden = !view.is_over || !view.outcome;
  if (box.hidden) return;
  const { winners, reason, returns } = view.outcome;
  box.textContent = `${gameOverText(winners, returns)}${reason ? ` ${cap(reason)}.` : ""}`;
}

function renderLog() {
  const lines = screen.log.slice(-LOG_LINES).map(({ event, text }) =>
    el("li", { "data-kind": event.kind, text: text ?? eventWords(event.kind) }));
  $("log").replaceChildren(...lines);
  $("log").start = Math.max(1, screen.log.length - LOG_LINES + 1);
}

function render() {
  const view = screen.view;
  document.body.dataset.turn = !view ? "connecting" : view.is_over ? "over" : "waiting";
  if (!view) return;
  const r = rendererFor(view.game);
  document.body.dataset.step = view.step;
  $("status").textContent = r.status(view);
  $("turn").textContent = r.prompt(view, []); // "Waiting for seat 2, seat 4…" in the game's words
  renderOutcome(view);
  // The latest lines marked on the board (recent.js); pieces slide in as updates arrive.
  const fresh = screen.log.length > (screen.drawnLog ?? 0);
  screen.drawnLog = screen.log.length;
  setRecent(screen.log.slice(-RECENT_LINES), null, fresh);
  r.board($("board"), view, [], () => {}); // nothing to click: the screen does not play
  r.players($("players"), view, screen.table);
  renderLog();
}

function seatLine(seat) {
  const who = seat.kind === "human" ? "a player, with their own link" : `bot (${seat.bot})`;
  return `seat ${seat.seat}: ${who}`;
}

function renderJoin() {
  const origin = location.origin;
  const seats = screen.table?.seats ?? [];
  $("join").replaceChildren(
    el("li", { text: "Each player opens their own seat link on their phone: the phone shows " +
      "their secrets and their moves; this screen shows only what everyone may see." }),
    el("li", { text: "Lost a link? The browser that created or opened it lists it in the " +
      `lobby under "Your tables": ${origin}/` }),
    seats.length ? el("li", { text: `Seats: ${seats.map(seatLine).join("; ")}.` }) : "",
    el("li", { text: `Another screen: ${origin}/table/${tableId}/screen` }),
  );
}

function onRematch(message) {
  const next = `/table/${encodeURIComponent(message.table)}/screen`;
  if (message.jump) {
    location.assign(next);
    return;
  }
  const link = $("rematch-next");
  link.hidden = false;
  link.href = next;
  link.textContent = `Rematch: show table ${message.table}`;
}

function receive(message) {
  if (message.type === "rematch") return onRematch(message);
  if (message.type !== "sync" && message.type !== "update") return; // errors, chat, …
  if (message.type === "sync") screen.log = [];
  message.events.forEach((event, i) => screen.log.push({ event, text: message.event_texts[i] }));
  screen.view = message.view;
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => { // a spectator's hello: no token
    socket.send(JSON.stringify({ type: "hello" }));
    $("connection").textContent = "connected";
    retryDelay = 500;
  };
  socket.onmessage = (msg) => receive(JSON.parse(msg.data));
  socket.onclose = (closing) => {
    $("connection").textContent = "disconnected";
    if (FINAL_CLOSE_CODES.has(closing.code)) return;
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  };
}

async function loadTableInfo() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) {
    $("title").textContent = "no such table";
    return;
  }
  screen.table = await response.json();
  $("title").textContent = `${screen.table.name} · table ${screen.table.id}`;
  document.title = `intrigue — ${screen.table.name} (table screen)`;
  renderJoin();
  render();
}

renderJoin();
loadTableInfo();
connect();
