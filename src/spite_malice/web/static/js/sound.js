// Sound effects: a card placed, a card drawn, a shuffle, your turn, a win, a loss. The files
// are made for this project (static/sounds/make_sounds.py synthesises them) and served with
// the page; nothing is fetched from elsewhere. Off or quieter in Settings (prefs.js).

import { pref } from "./prefs.js";

export const SOUND_NAMES = ["place", "draw", "shuffle", "turn", "win", "lose"];

/** The <audio> elements, made once and kept in a hidden box of the page (#sounds). */
function audioFor(name) {
  let box = document.getElementById("sounds");
  if (!box) {
    box = document.createElement("div");
    box.id = "sounds";
    box.hidden = true;
    document.body.append(box);
  }
  let audio = box.querySelector(`audio[data-sound="${name}"]`);
  if (audio?.error) {
    // Its file failed to load (a dropped connection, a busy server): fetch it again, or this
    // sound would stay silent for the rest of the visit.
    audio.remove();
    audio = null;
  }
  if (!audio) {
    audio = document.createElement("audio");
    audio.src = `/static/sounds/${name}.wav`;
    audio.preload = "auto";
    audio.dataset.sound = name;
    box.append(audio);
  }
  return audio;
}

/** Load every sound ahead of the first one that plays. */
export function preloadSounds() {
  if (!pref("sound")) return;
  for (const name of SOUND_NAMES) audioFor(name);
}

let lastPlayed = { name: "", at: 0 };

/** Play `name` at the chosen volume, unless sound is off (or the same sound just played). */
export function playSound(name) {
  if (!pref("sound") || !SOUND_NAMES.includes(name)) return;
  const now = performance.now();
  if (lastPlayed.name === name && now - lastPlayed.at < 40) return;
  lastPlayed = { name, at: now };
  const audio = audioFor(name);
  audio.volume = Math.max(0, Math.min(1, pref("volume")));
  try {
    audio.currentTime = 0;
  } catch {
    // Not loaded yet: it plays from the start anyway.
  }
  // A browser may refuse sound before the player has touched the page; nothing is lost.
  audio.play()?.catch?.(() => {});
}
