// The table page: one WebSocket to the server, which sends this seat's view, its events and
// its legal moves; every click sends {type: "act", action}. The page keeps nothing secret of
// its own: it only shows what the server sent for this seat.
import { cap, el, eventWords, gameOverText } from "./dom.js";
import { createChat } from "./chat.js";
import { awayRule, createClock, logEntries } from "./clock.js";
import { rendererFor } from "./renderers.js"; // every game's board renderer (RENDERERS)
import { marksDrawn, setRecent } from "./recent.js";
import { keepFocus, watchBoardKeys } from "./keys.js";
import { guideFor, renderGuide, useGuide, watchHelp } from "./guide.js";
import { createRematch } from "./rematch.js";
import { forgetSeats, rememberSeat } from "./seats.js";
import { createDevices, seatKey } from "./devices.js";
import { createZoom } from "./zoom.js";
import { createHints } from "./hints.js";
import { createAlerts } from "./alerts.js";

const FINAL_CLOSE_CODES = new Set([4403, 4404]);
const LEAVE_QUESTION = "Leave this table for good? A bot plays your seat to the end, and this "
  + "link will not open the table again.";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const key = seatKey(tableId); // the seat's secret (a claimed one, or the link's) and claim
if (key.token) rememberSeat({ table: tableId, token: key.token, opened: true }); // "Your tables"

const game = { view: null, legal: [], log: [], table: null, pending: false, left: false, sinceMove: null };
let socket = null;
const chat = createChat($("chat"), (message) => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
});
const devices = createDevices($("connection"), key, tableId, (message) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
});
const rematch = createRematch($("rematch"), (message) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
});
const clock = createClock($("clock"), (message) => { // countdowns, stand-ins, votes
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
});
const hints = createHints($("hints"), (message) => { // a First game's hint line
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
});
const alerts = createAlerts($("turn-alerts")); // a sound and a notification on your turn
let retryDelay = 500;

function renderer() {
  return rendererFor(game.view?.game);
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || game.pending) return;
  game.pending = true;
  $("error").textContent = "";
  // The step names the position the move answers: a resent or outdated move is not replayed.
  socket.send(JSON.stringify({ type: "act", action, step: game.view.step }));
  game.sinceMove = game.log.length; // the lines after this one are what others did since
  game.sinceView = game.view; // where the pieces stood then (a move's start, for the board)
  render();
}

function turnState(view) {
  if (game.left) return "left";
  if (!view) return "connecting";
  if (view.is_over) return "over";
  if (game.pending) return "pending";
  return game.legal.length ? "yours" : "waiting";
}

function actionButton({ action, text }) {
  // A move the game warns about (its text carries ⚠) is drawn dashed, not only in colour.
  return el("button", {
    type: "button", class: text.includes("⚠") ? "action warn" : "action", "data-action": action,
    disabled: game.pending,
    onclick: () => send(action),
  }, text, text !== action ? el("code", { text: action }) : "");
}

function renderActions(r) {
  // Moves the board itself offers (clicking a seat) are also listed, folded away.
  const onBoard = (a) => r.boardVerbs.has(a.action.split(" ")[0]);
  const buttons = game.legal.filter((a) => !onBoard(a)).map(actionButton);
  const listed = game.legal.filter(onBoard).map(actionButton);
  const folded = listed.length
    ? el("details", { class: "board-moves" }, el("summary", { text: "…or choose from a list" }),
      el("div", { class: "actions" }, ...listed))
    : "";
  $("actions").replaceChildren(...buttons, folded);
}

function renderOutcome(view) {
  const box = $("outcome");
  box.hidden = !view.is_over || !view.outcome;
  if (box.hidden) return;
  const { winners, reason, returns = [] } = view.outcome;
  // No winners: a draw, except for a seat out before the end (a negative return), which lost.
  const out = view.seat !== null && (returns[view.seat] ?? 0) < 0;
  const draw = winners.length === 0 && !out;
  const mine = view.seat !== null && !draw;
  let verdict = gameOverText(winners, returns);
  if (mine) verdict = winners.includes(view.seat) ? "You win!" : "You lose.";
  const mood = mine ? (winners.includes(view.seat) ? "won" : "lost") : draw ? "draw" : "";
  box.className = `outcome ${mood}`;
  box.dataset.result = draw ? "draw" : mine ? mood : "over";
  // Who won and why, then what the game reveals at its end (a renderer's `final`), then the way
  // back; the rematch and replay links follow in the panel.
  box.replaceChildren(
    el("p", { class: "verdict", text: reason ? `${verdict} ${cap(reason)}.` : verdict }),
    renderer().final(view) ?? "",
    el("p", {}, el("a", { href: "/", class: "lobby-link", text: "Back to the lobby" })));
}

// The tab says when it is your turn, in its title and its icon, so a player in another tab sees it.
function renderTitle(state) {
  const name = game.table?.name ?? "table";
  const yours = state === "yours";
  document.title = yours ? `(●) Your turn — ${name}` : state === "over" ? `Game over — ${name}` : `${name} — intrigue`;
  const icon = $("favicon");
  const href = `/static/${yours ? "favicon-turn.svg" : "favicon.svg"}`;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

// What happened since this seat last moved: those log lines, marked in the log and summed up
// above the board (the last few), so a player coming back sees the other players' moves.
function recentSince() {
  return game.view?.seat === null ? Math.max(0, game.log.length - 3) : game.sinceMove;
}

// The same lines, as marks on the board (recent.js): a piece that just moved slides in once,
// when the lines arrive.
function setBoardRecent() {
  const since = recentSince();
  const fresh = game.log.length > (game.drawnLog ?? 0);
  game.drawnLog = game.log.length;
  setRecent(since === null ? [] : game.log.slice(since), since === null ? null : game.sinceView ?? null, fresh);
}

const MARKS_LEGEND = " On the board: arrows for moves, bursts for attacks and fights, brackets for "
  + "what was placed, dotted rings for cards looked at, crosses for what is gone.";

function renderRecent() {
  const box = $("recent");
  const since = recentSince();
  const lines = game.log.slice(since ?? game.log.length).map((entry) => entry.text).filter(Boolean);
  box.hidden = !lines.length || game.view?.is_over;
  if (box.hidden) return;
  const shown = lines.slice(-4);
  box.replaceChildren(el("strong", { text: "Since your last move: " }),
    lines.length > shown.length ? `(${lines.length - shown.length} earlier) ` : "",
    ...shown.flatMap((line, i) => [i ? " · " : "", el("span", { text: line })]),
    marksDrawn() ? el("small", { class: "recent-legend muted", text: MARKS_LEGEND }) : "");
}

function renderLog() {
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.replaceChildren(...game.log.map(({ event, text }, index) => {
    const { kind, private: secret } = event;
    const line = text ?? eventWords(kind);
    const recent = game.sinceMove !== null && index >= game.sinceMove;
    const classes = [secret ? "private" : null, recent ? "recent" : null].filter(Boolean);
    return el("li", { class: classes.join(" ") || null, "data-kind": kind, text: line });
  }));
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function render() {
  const view = game.view;
  const state = turnState(view);
  document.body.dataset.turn = state;
  renderTitle(state);
  if (!view) return;
  const r = renderer();
  document.body.dataset.step = view.step;
  document.body.dataset.phase = view.phase ?? "";
  $("who").textContent = view.seat === null ? "spectating" : `you are seat ${view.seat}`;
  $("status").textContent = r.status(view);
  $("prompt").textContent = r.prompt(view, game.legal);
  $("prompt").className = `prompt${game.legal.length && !view.is_over ? " your-turn" : ""}`;
  renderOutcome(view);
  rematch.render(view);
  // A seat may give itself up while the game is on (spectators have nothing to leave).
  $("leave-box").hidden = view.seat === null || view.is_over || game.left;
  $("away-rule").hidden = $("leave-box").hidden;
  $("away-rule").textContent = `Away for a while? ${awayRule(clock.clocked())}`;
  alerts.show(!$("leave-box").hidden); // a seat in a game still on
  $("replay-link").hidden = !view.is_over; // a finished game offers its replay
  $("replay-link").href = `/table/${encodeURIComponent(tableId)}/replay`;
  renderActions(r);
  setBoardRecent();
  r.board($("board"), view, game.pending ? [] : game.legal, send);
  r.private($("private"), view);
  r.players($("players"), view, game.table);
  renderLog();
  renderRecent();
  hints.render(view, game.legal, game.pending); // after the moves and the board are drawn
}

function leave() {
  if (socket?.readyState !== WebSocket.OPEN || !window.confirm(LEAVE_QUESTION)) return;
  socket.send(JSON.stringify({ type: "leave" }));
}

// The server gave the seat up: this link is dead, so forget it and play no more from here.
function left(message) {
  game.left = true;
  game.legal = [];
  if (key.token) forgetSeats([key.token]);
  $("left-note").hidden = false;
  $("left-note").textContent = cap(message.message);
  render();
}

// The table's creator fixed what chance decides (roles, a deal...): everyone is told what.
function showCustomDeal(fixed) {
  $("custom-deal").hidden = !fixed?.length;
  if (fixed?.length) {
    $("custom-deal").textContent = `Custom deal: the table's creator fixed ${fixed.join(", ")}.`;
  }
}

function receive(message) {
  if (message.type === "left") return left(message);
  if (message.type === "credential" || message.type === "devices") return devices.receive(message);
  if (message.type === "sync") devices.synced(message.seat);
  if (message.type === "rematch") return rematch.receive(message, game.view);
  if (message.type === "chat" || message.about === "chat") return chat.receive(message);
  if (message.type === "sync") chat.sync(message);
  if (message.type === "sync") showCustomDeal(message.custom_deal);
  if (message.type === "hint" || message.type === "hints") return hints.receive(message);
  if (message.type === "sync") hints.receive(message);
  if (message.type === "error") {
    game.pending = false;
    $("error").textContent = message.message;
    render();
    return;
  }
  clock.receive(message);
  if (message.type === "table") { // a stand-in, a vote or a return: its note goes to the log
    game.log.push(...logEntries(message));
    render();
    return;
  }
  if (message.type === "sync") game.log = [];
  game.log.push(...logEntries(message)); // the events, and the server's notes in their place
  game.view = withPatch(game.view, message);
  if (message.legal_actions) game.legal = message.legal_actions; // absent: unchanged
  if (message.type === "sync" || message.accepted) game.pending = false;
  render();
  autoPass();
  // After autoPass: a turn the page passes by itself calls for no one.
  const name = game.table?.name ?? "intrigue";
  alerts.turn(turnState(game.view), { title: `Your turn — ${name}`, body: $("prompt").textContent,
    tag: `intrigue-turn-${tableId}` });
}

// This page asks for patches: an update carries only the top-level keys of the view that
// changed (and `unset`, the keys gone), applied to the view held; a sync the whole view.
function withPatch(view, message) {
  if (!message.patch) return message.view;
  const next = { ...view, ...message.patch };
  for (const key of message.unset ?? []) delete next[key];
  return next;
}

// No needless clicks: a prompt whose only move is "pass" carries no choice, and a renderer may
// pass for you where you asked it to (the Ball's release windows); once per position.
function autoPass() {
  const view = game.view;
  if (turnState(view) !== "yours" || game.autoStep === view.step) return;
  const only = game.legal.length === 1 && game.legal[0].action === "pass";
  const chosen = only ? "pass" : renderer().autoPass?.(view, game.legal);
  if (!chosen) return;
  game.autoStep = view.step;
  send(chosen);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // The token goes in the first message, never in the URL (which logs and proxies keep).
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => {
    // It takes patches: updates carry what changed (see withPatch).
    // A seat link is claimed the first time (devices.js); the page lists the seat's devices.
    const seat = key.token ? { token: key.token, devices: true, ...(key.claim ? { claim: true } : {}) } : {};
    socket.send(JSON.stringify({ type: "hello", ...seat, patches: true }));
    $("connection").textContent = "connected";
    retryDelay = 500;
  };
  socket.onmessage = (msg) => receive(JSON.parse(msg.data));
  socket.onclose = (closing) => {
    game.pending = false;
    $("connection").textContent = game.left ? "you left this table" : "disconnected";
    if (FINAL_CLOSE_CODES.has(closing.code) || game.left) return;
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
  game.table = await response.json();
  $("title").textContent = `${game.table.name} · table ${game.table.id}`;
  render();
  const found = await guideFor(game.table.game);
  game.guide = found?.guide ?? null;
  renderGuide($("guide"), game.guide);
  useGuide(game.guide); // the board's things explain themselves from now on
  render();
}

$("leave").addEventListener("click", leave);
createZoom($("board"), $("zoom")); // before keepFocus: a new drawing is boxed before the focus returns
watchHelp($("board"), $("board-help"));
watchBoardKeys($("board")); // squares and pieces by keyboard: Tab to them, Enter plays
keepFocus($("board"), $("actions")); // after a move the focus stays on the board or the moves
loadTableInfo();
connect();
