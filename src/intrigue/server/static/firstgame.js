// The lobby's "First game" buttons: for each game, a table where you play one seat against
// easy bots, with a hint each turn (the medium bot's move for your seat, and why), bots at the
// slow pace and no clock. It is created like any table (POST /api/tables, with its limits), and
// the seat's page opens at once.
import { el } from "./dom.js";
import { rememberSeat } from "./seats.js";

const $ = (id) => document.getElementById(id);

// The table a beginner starts with: the fewest players the game allows, seat 0 yours.
export function firstGameBody(game) {
  const players = Math.min(...game.players);
  const seats = ["human", ...Array(players - 1).fill("easy")];
  return { game: game.id, players, seats, hints: true, bot_speed: "slow" };
}

async function start(game, button) {
  button.disabled = true;
  $("first-game-error").textContent = "";
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(firstGameBody(game)),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail || "the table could not be created");
    const [link] = data.links;
    rememberSeat({ table: data.id, token: link.token, opened: true }); // "Your tables"
    location.assign(link.url);
  } catch (error) {
    $("first-game-error").textContent = error.message;
    button.disabled = false;
  }
}

async function fill() {
  const list = $("first-games");
  if (!list) return;
  const games = await (await fetch("/api/games")).json();
  list.replaceChildren(...games.map((game) => {
    const players = Math.min(...game.players);
    const button = el("button", { type: "button", class: "first-game", "data-game": game.id },
      `First game: ${game.name}`);
    button.addEventListener("click", () => start(game, button));
    return el("li", {}, button, el("br"), el("small", { class: "muted",
      text: `you and ${players - 1} easy bot${players > 2 ? "s" : ""}` }));
  }));
}

fill();
