// The lobby: create a table (game, players, seats, options) and list the open tables.
import { rememberSeat } from "./seats.js";
import { clockChoice, watchClockForm } from "./clock.js";
const SEAT_KINDS = [
  ["human", "Human (gets a link)"],
  ["easy", "Bot: easy"],
  ["medium", "Bot: medium"],
  ["hard", "Bot: hard"],
];

const $ = (id) => document.getElementById(id);
let games = [];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function fillPlayers() {
  const game = currentGame();
  $("game-summary").textContent = game.summary || "";
  $("players").replaceChildren(...game.players.map((n) => el("option", { value: n, text: n })));
  fillSeats();
  fillOptions();
}

function fillSeats() {
  const count = Number($("players").value);
  const rows = [];
  for (let seat = 0; seat < count; seat++) {
    const select = el("select", { name: `seat-${seat}`, "data-seat": seat });
    for (const [value, text] of SEAT_KINDS) select.append(el("option", { value, text }));
    select.value = seat === 0 ? "human" : "medium";
    rows.push(el("label", {}, el("span", { class: "name", text: `Seat ${seat}` }), select));
  }
  $("seats").replaceChildren(el("legend", { text: "Seats" }), ...rows);
}

function optionInput(opt) {
  const name = `option-${opt.name}`;
  if (opt.type === "bool") {
    const select = el("select", { name });
    select.append(el("option", { value: "", text: `default (${opt.default})` }));
    select.append(el("option", { value: "true", text: "yes" }), el("option", { value: "false", text: "no" }));
    return select;
  }
  if (opt.choices && opt.type !== "list") {
    const select = el("select", { name });
    select.append(el("option", { value: "", text: `default (${opt.default ?? "none"})` }));
    for (const choice of opt.choices) select.append(el("option", { value: choice, text: choice }));
    return select;
  }
  const type = opt.type === "int" ? "number" : "text";
  const hint = opt.type === "list" ? "comma-separated" : `default: ${opt.default ?? "none"}`;
  const attrs = { type, name, placeholder: hint };
  if (type === "number") attrs.min = 1;
  return el("input", attrs);
}

function optionRow(opt) {
  return el("label", {}, el("span", { class: "name", text: opt.name }), optionInput(opt),
    el("small", { text: opt.help + (opt.choices ? ` (${opt.choices.join(", ")})` : "") }));
}

// Options that fix what chance decides (roles, deals, who starts) are offered only behind the
// explicit "custom deal / puzzle" choice: such a table is marked as a custom deal for everyone.
function fillOptions() {
  const game = currentGame();
  $("options").replaceChildren(...game.options.filter((o) => !o.fixes).map(optionRow));
  $("custom-options").replaceChildren(...game.options.filter((o) => o.fixes).map(optionRow));
  $("custom-options").hidden = !$("custom-deal").checked;
}

function readOptions() {
  const options = {};
  const custom = $("custom-deal").checked;
  for (const opt of currentGame().options) {
    if (opt.fixes && !custom) continue;
    const input = document.querySelector(`[name="option-${opt.name}"]`);
    const text = input.value.trim();
    if (text === "") continue;
    if (opt.type === "int") options[opt.name] = Number(text);
    else if (opt.type === "bool") options[opt.name] = text === "true";
    else if (opt.type === "list") options[opt.name] = text.split(",").map((s) => s.trim()).filter(Boolean);
    else options[opt.name] = text;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  const body = { game: $("game").value, players: Number($("players").value), seats, options: readOptions() };
  body.custom_deal = $("custom-deal").checked && Object.keys(body.options).some(
    (name) => currentGame().options.find((o) => o.name === name)?.fixes);
  body.bot_speed = $("bot-speed").value; // instant, normal or slow pauses before bot moves
  body.reveal_chat = $("reveal-chat").checked; // table talk: whispers shown once the game is over
  Object.assign(body, clockChoice($)); // time control and clock bot
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    $("create-error").textContent = data.detail || "the table could not be created";
    return;
  }
  showCreated(data);
  refreshTables();
}

function showCreated(table) {
  $("created").hidden = false;
  $("created-id").textContent = table.id;
  $("created-links").replaceChildren(...table.links.map((link) =>
    el("li", { "data-seat-link": link.seat }, `Seat ${link.seat}: `,
      el("a", { href: link.url, target: "_blank", text: link.url }))));
  if (!table.links.length) $("created-links").append(el("li", { text: "Only bots: spectate below." }));
  $("created-spectate").href = table.spectate;
  $("created-spectate").textContent = table.spectate;
  $("created-screen").href = `${table.spectate}/screen`;
  $("created-screen").textContent = `${table.spectate}/screen`;
  // Remembered for "Your tables"; links not opened here are marked as sent to others.
  for (const link of table.links) rememberSeat({ table: table.id, token: link.token });
}

function seatSummary(table) {
  return table.seats.map((s) => (s.kind === "human" ? "human" : s.bot)).join(", ");
}

async function refreshTables() {
  const response = await fetch("/api/tables");
  if (!response.ok) return;
  const { tables } = await response.json();
  const rows = tables.map((t) => el("tr", {},
    el("td", {}, t.name, ...(t.custom_deal?.length
      ? [el("br"), el("small", { class: "custom-deal", text: `custom deal: fixed ${t.custom_deal.join(", ")}` })]
      : [])), el("td", {}, el("code", { text: t.id })),
    el("td", { text: seatSummary(t) }), el("td", { text: t.step }),
    el("td", {}, el("a", { href: `/table/${t.id}`, text: "spectate" }))));
  document.querySelector("#open-tables tbody").replaceChildren(...rows);
  $("no-tables").hidden = tables.length > 0;
}

async function start() {
  games = await (await fetch("/api/games")).json();
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.id, text: g.name })));
  $("rules-links").replaceChildren(...games.map((g) => el("li", {},
    el("a", { href: `/rules/${encodeURIComponent(g.id)}`, "data-game": g.id, text: `How to play ${g.name}` }))));
  $("game").value = games.some((g) => g.id === "masquerade-murder") ? "masquerade-murder" : games[0].id;
  $("game").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  $("create-form").addEventListener("submit", createTable);
  $("custom-deal").addEventListener("change", () => { $("custom-options").hidden = !$("custom-deal").checked; });
  fillPlayers();
  watchClockForm($);
  refreshTables();
  setInterval(refreshTables, 5000);
}

start();
