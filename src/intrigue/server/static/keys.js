// The board by keyboard (issue #17, item 9). Every thing on a board that explains itself
// (data-help) can take the focus and is labelled for a screen reader ("C3: Nun (2♠, masked)");
// those that play a move (data-legal) are buttons, played with Enter or Space; and after a move,
// when the page draws the board again, the focus comes back to the same square (or the first
// move the board offers, or the move list) instead of falling to the page's start.
const IDENTITIES = ["data-action", "data-cell", "data-place", "data-square", "data-province",
  "data-piece-at", "data-deck", "data-mode"];

function label(node) {
  const help = node.getAttribute("data-help") ?? node.querySelector?.("title")?.textContent ?? "";
  // A move's words in full (its warning included); a thing's name and state, without the
  // guide's paragraph (the line under the board reads that out when it takes the focus).
  const said = node.hasAttribute("data-legal") ? help : help.split(" — ")[0];
  // Words drawn inside a button come first, as shown (speech input names it by them).
  const shown = node.hasAttribute("data-legal")
    ? [...node.querySelectorAll("text")].map((t) => t.textContent.trim()).filter(Boolean).join(" ")
    : "";
  return shown && !said.startsWith(shown) ? `${shown}: ${said}` : said;
}

// Make the board under `root` reachable by keyboard; call after each drawing.
export function keyboardBoard(root) {
  for (const node of root.querySelectorAll("[data-help], [data-legal]")) {
    const text = label(node);
    if (!text) continue;
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", text);
    node.setAttribute("role", node.hasAttribute("data-legal") ? "button" : "img");
  }
  for (const drawing of root.querySelectorAll("svg[role='img']")) {
    // Its parts are now things of their own: the drawing is a group of them.
    if (drawing.querySelector("[tabindex]")) drawing.setAttribute("role", "group");
  }
}

// Enter or Space on a board button plays it, as a click would (once, on the root).
export function watchBoardKeys(root) {
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target;
    if (target?.getAttribute?.("role") !== "button" || !root.contains(target)) return;
    event.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
}

function identity(node) {
  const name = IDENTITIES.find((attr) => node.hasAttribute?.(attr));
  return name ? { name, value: node.getAttribute(name) } : null;
}

function findAgain(areas, thing) {
  if (!thing) return null;
  const value = CSS.escape(thing.value);
  return areas.map((area) => area.querySelector(`[${thing.name}="${value}"][tabindex], button[${thing.name}="${value}"]`))
    .find((node) => node && !node.disabled) ?? null;
}

// Keep the keyboard on the board and the move list (`areas`) while they are drawn again: the
// thing last focused there is remembered; when a drawing removes it (the focus falls to the
// page's body), the focus goes to the same thing drawn anew, else the board's first move, else
// the first move button. A player who moved the focus elsewhere on purpose is left alone.
export function keepFocus(board, moves) {
  const areas = [board, moves];
  let kept = null; // {name, value}: what had the focus, or {} when it had no identity
  for (const area of areas) {
    area.addEventListener("focusin", (event) => { kept = identity(event.target) ?? {}; });
    area.addEventListener("focusout", (event) => {
      const left = event.target;
      setTimeout(() => {
        // Still on the page but no longer focused: the player went elsewhere.
        const inside = areas.some((a) => a.contains(document.activeElement));
        if (left.isConnected && !inside) kept = null;
      }, 0);
    });
  }
  const restore = () => {
    keyboardBoard(board);
    if (!kept || (document.activeElement && document.activeElement !== document.body)) return;
    const next = findAgain(areas, kept.name ? kept : null) ?? board.querySelector("[data-legal][tabindex]")
      ?? moves.querySelector("button:not([disabled])");
    next?.focus({ preventScroll: true });
  };
  const watcher = new MutationObserver(restore);
  for (const area of areas) watcher.observe(area, { childList: true, subtree: true });
  restore();
}
