// The page /rules/{game}: a game's "How to play", linked from the lobby.
import { guideFor, renderGuide } from "./guide.js";

async function start() {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
  const found = await guideFor(gameId);
  const box = document.getElementById("guide");
  if (!found) {
    box.textContent = "No such game.";
    return;
  }
  document.title = `How to play ${found.name} — intrigue`;
  document.getElementById("title").textContent = `How to play ${found.name}`;
  renderGuide(box, found.guide);
  box.prepend(Object.assign(document.createElement("h2"), { textContent: found.name }));
}

start();
