// Zoom and pan for any board (issue 17, item 8): the board's drawing (the first <svg> the game's
// renderer puts in the board) is drawn larger inside a box of its own, which scrolls and clips,
// so a dense board (the Shadows over Japan map, the four-player Ball) gets squares big enough to
// tap while the page never grows wider than the screen. Buttons zoom in, out and back; Ctrl+wheel
// (or a trackpad's pinch) zooms under the pointer; the box pans by scrolling, by touch, or by
// dragging with the mouse. Renderers draw the board anew after every update: the zoom and the
// place looked at are kept and put back on each new drawing.
import { el } from "./dom.js";

const LEVELS = [1, 1.5, 2, 2.5, 3];
const DRAG = 5; // px a mouse moves before a press becomes a pan (and no longer a click)

export function createZoom(board, controls) {
  let level = 0;
  let centre = { x: 0.5, y: 0.5 }; // the point looked at, as fractions of the drawing
  let box = null; // the current drawing's scroll box

  const zoomOut = el("button", { type: "button", class: "secondary zoom-out", "aria-label": "Zoom out",
    title: "Zoom out", text: "−", onclick: () => zoomTo(level - 1) });
  const zoomIn = el("button", { type: "button", class: "secondary zoom-in", "aria-label": "Zoom in",
    title: "Zoom in", text: "+", onclick: () => zoomTo(level + 1) });
  const reset = el("button", { type: "button", class: "secondary zoom-reset", title: "Show the whole board",
    text: "Fit", onclick: () => zoomTo(0) });
  const shown = el("span", { class: "zoom-level muted", "aria-live": "polite" });
  controls.replaceChildren(zoomOut, shown, zoomIn, reset);

  function drawing() {
    return box?.isConnected ? box.firstElementChild : null;
  }

  // Size the drawing for the level: its width at 100% (the page's own rules) times the level.
  function size() {
    const svg = drawing();
    if (!svg) return;
    svg.style.removeProperty("width");
    svg.style.removeProperty("max-width");
    box.classList.toggle("zoomed", level > 0);
    if (level > 0) {
      const natural = svg.getBoundingClientRect().width;
      svg.style.maxWidth = "none";
      svg.style.width = `${Math.round(natural * LEVELS[level])}px`;
    }
    board.dataset.zoom = String(LEVELS[level]);
    zoomOut.disabled = level === 0;
    reset.disabled = level === 0;
    zoomIn.disabled = level === LEVELS.length - 1;
    shown.textContent = `${Math.round(LEVELS[level] * 100)}%`;
  }

  // Scroll the box so that `centre` is in its middle (or at the anchor point given).
  function look(anchor = null) {
    if (!box) return;
    const ax = anchor?.x ?? box.clientWidth / 2;
    const ay = anchor?.y ?? box.clientHeight / 2;
    box.scrollLeft = centre.x * box.scrollWidth - ax;
    box.scrollTop = centre.y * box.scrollHeight - ay;
  }

  function remember(anchor = null) {
    if (!box || !box.scrollWidth) return;
    const ax = anchor?.x ?? box.clientWidth / 2;
    const ay = anchor?.y ?? box.clientHeight / 2;
    centre = { x: (box.scrollLeft + ax) / box.scrollWidth, y: (box.scrollTop + ay) / box.scrollHeight };
  }

  function zoomTo(next, anchor = null) {
    const clamped = Math.max(0, Math.min(LEVELS.length - 1, next));
    if (clamped === level || !drawing()) return;
    remember(anchor);
    level = clamped;
    if (level === 0) centre = { x: 0.5, y: 0.5 };
    size();
    look(anchor);
  }

  // A new drawing: put it in a scroll box of its own, at the kept zoom and place.
  function wrap() {
    const svg = board.querySelector(":scope > svg");
    controls.hidden = !svg && !drawing();
    if (!svg) return;
    box = el("div", { class: "zoom-box" });
    svg.replaceWith(box);
    box.append(svg);
    box.addEventListener("scroll", () => remember(), { passive: true });
    size();
    look();
  }

  // Ctrl+wheel (a trackpad's pinch arrives so) zooms under the pointer.
  board.addEventListener("wheel", (event) => {
    if (!event.ctrlKey || !box?.contains(event.target)) return;
    event.preventDefault();
    const rect = box.getBoundingClientRect();
    zoomTo(level + (event.deltaY < 0 ? 1 : -1), { x: event.clientX - rect.left, y: event.clientY - rect.top });
  }, { passive: false });

  // Dragging with the mouse pans a zoomed board; the click that ends a drag plays nothing.
  let press = null;
  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "mouse" || event.button !== 0 || level === 0 || !box?.contains(event.target)) return;
    press = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false };
  });
  board.addEventListener("pointermove", (event) => {
    if (!press || !(event.buttons & 1)) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < DRAG) return;
    press.moved = true;
    box.classList.add("panning");
    box.scrollLeft = press.left - dx;
    box.scrollTop = press.top - dy;
  });
  const release = () => {
    box?.classList.remove("panning");
    if (press && !press.moved) press = null;
  };
  board.addEventListener("pointerup", release);
  board.addEventListener("pointercancel", () => { press = null; release(); });
  board.addEventListener("click", (event) => {
    if (!press?.moved) return;
    press = null;
    event.stopPropagation();
    event.preventDefault();
  }, true);

  new MutationObserver(wrap).observe(board, { childList: true });
  window.addEventListener("resize", () => { size(); look(); });
  wrap();
  size();
}
