// "Tell me when it's my turn" (issue #17): a short tone and a browser notification when the
// turn comes to this seat. Both are off until the player ticks them; the choice is remembered
// in this browser (localStorage) for every table. The tone is made with the Web Audio API, so
// there is no sound file to ship; the notification is asked for only when its box is ticked.
import { el } from "./dom.js";

const KEY = "intrigue.turn-alerts";
const BLOCKED = "Notifications are blocked for this site: allow them in the browser's site "
  + "settings, then tick the box again.";
const UNSUPPORTED = "This browser cannot show notifications.";
const NOT_ALLOWED = "The browser did not allow notifications: tick the box to be asked again.";

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return { sound: saved?.sound === true, notify: saved?.notify === true };
  } catch {
    return { sound: false, notify: false }; // storage disabled or damaged: both off
  }
}

function saveSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage disabled: the choice lasts as long as this page
  }
}

function permission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

// The one audio context of the page. A browser starts it suspended unless the page was clicked
// or typed in, so every click or key press while the sound is on wakes it (`unlock`).
let audio = null;

function audioContext() {
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// A soft two-step chime, about a third of a second: one oscillator, its pitch raised halfway,
// its volume faded in and out (no click).
function chime() {
  const context = audioContext();
  if (!context) return;
  const now = context.currentTime;
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.type = "sine";
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.setValueAtTime(880, now + 0.14);
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.32);
  tone.connect(volume).connect(context.destination);
  tone.start(now);
  tone.stop(now + 0.34);
}

// A notification only when the player is not looking at this page; clicking it brings the
// tab forward. One per table: a newer one replaces an older one still shown (`tag`).
function notify({ title, body, tag }) {
  if (!document.hidden && document.hasFocus()) return;
  try {
    const note = new Notification(title, { body, tag, icon: "/static/favicon-turn.svg" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // some browsers (Chrome on Android) show notifications only from a service worker
  }
}

function checkbox(id, text, onchange) {
  const input = el("input", { type: "checkbox", id, onchange });
  return { input, label: el("label", { class: "check", for: id }, input, ` ${text}`) };
}

// The control (in `box`, a fieldset) and what happens on a turn. `turn(state, message)` is
// called with the page's turn state after every message from the server: the chime and the
// notification come only when it becomes "yours" after the page saw it not yours — not on
// the first sync of a page just opened, not again while it stays yours (the seat's own
// moves pass through "pending").
export function createAlerts(box) {
  const settings = loadSettings();
  const note = el("p", { class: "muted alerts-note", role: "status" });
  const sound = checkbox("alert-sound", "sound", () => setSound(sound.input.checked));
  const popup = checkbox("alert-notify", "notification (when this tab is in the background)",
    () => setNotify(popup.input.checked));
  box.replaceChildren(el("legend", { text: "Tell me when it's my turn" }), sound.label, " ",
    popup.label, note);

  let refused = settings.notify && permission() === "denied"; // blocked since it was ticked

  function show() {
    const allowed = permission();
    sound.input.checked = settings.sound;
    popup.input.checked = settings.notify && allowed === "granted";
    popup.input.disabled = allowed === "unsupported";
    const why = allowed === "denied" ? BLOCKED : NOT_ALLOWED;
    note.textContent = allowed === "unsupported" ? UNSUPPORTED : refused ? why : "";
  }

  function setSound(on) {
    settings.sound = on;
    saveSettings(settings);
    if (on) chime(); // what it sounds like; the click also lets the page play sound later
  }

  async function setNotify(on) {
    // The browser asks the player once; after a refusal it answers "denied" without asking.
    if (on && permission() === "default") await Notification.requestPermission();
    settings.notify = on && permission() === "granted";
    refused = on && !settings.notify;
    saveSettings(settings);
    show();
  }

  const unlock = () => {
    if (settings.sound) audioContext();
  };
  document.addEventListener("pointerdown", unlock);
  document.addEventListener("keydown", unlock);
  show();

  let last = null; // the last state seen other than "pending"; null until the first sync
  return {
    show(seated) {
      box.hidden = !seated;
    },
    turn(state, message) {
      if (state === "pending" || state === "connecting") return;
      const comes = state === "yours" && last !== null && last !== "yours";
      last = state;
      if (!comes) return;
      if (settings.sound) chime();
      if (settings.notify && permission() === "granted") notify(message);
    },
  };
}
