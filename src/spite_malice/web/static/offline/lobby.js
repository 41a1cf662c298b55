// The lobby's offline part (docs/offline.md): a match against the computer starts in the
// offline engine when the server cannot be reached, and the unfinished offline matches are
// listed to resume.

import { api } from "../js/api.js";
import { h } from "../js/dom.js";
import { _, formatNumber } from "../js/i18n.js";
import { playerRecord, roomTicket, saveRoomTicket } from "../js/store.js";
import { giveUpOfflineMatch, offlineInstalled, startOfflineMatch } from "./client.js";
import { allMatches } from "./db.js";

async function offlineMatch(body, player) {
  if (!(await offlineInstalled())) {
    throw new Error(_("Offline play is not installed on this device. Connect to the internet to play."));
  }
  try {
    return await startOfflineMatch({ ...body, name: player });
  } catch (error) {
    throw new Error(error?.message ?? String(error));
  }
}

/** POST /api/rooms, or with no network (and a match against the computer) an offline match. */
export async function createRoom(body, player) {
  if (body.mode === "computer" && navigator.onLine === false) return offlineMatch(body, player);
  try {
    return await api.createRoom(body);
  } catch (error) {
    if (error?.code !== "offline" || body.mode !== "computer") throw error;
    return offlineMatch(body, player);
  }
}

/** Add the unfinished offline matches to the lobby's resume list; `giveUp(opponent, item,
 * action)` is the lobby's give-up (it asks, then runs `action`), as for the server's rooms. */
export async function listOfflineMatches(list, box, levels, giveUp) {
  let matches;
  try {
    matches = await allMatches(playerRecord()?.id ?? null);
  } catch {
    return;
  }
  for (const { record } of matches.reverse()) {
    if (record.over || !roomTicket(record.room) || list.querySelector(`[data-room="${record.room}"]`)) continue;
    const name = { name: levels.find((l) => l.id === record.level)?.name ?? record.level };
    list.append(h("li", { class: "resume-item offline", dataset: { room: record.room } },
      h("a", { href: `#/game/${record.room}`, class: "resume-link" },
        h("b", {}, _("vs {name}", name)),
        h("span", { class: "muted" }, " · " + _("played offline") + " · " + _("game {n} · score {mine}–{theirs} · room {room}", {
          n: record.game_number, mine: formatNumber(record.score[0]), theirs: formatNumber(record.score[1]), room: record.room,
        }))),
      h("span", { class: "resume-actions" },
        h("a", { class: "btn", href: `#/game/${record.room}`, "aria-label": _("Resume the game against {name}", name) },
          _("Resume")),
        h("button", {
          class: "btn give-up", type: "button", "aria-label": _("Give up the game against {name}", name),
          onclick: (event) => giveUp(name.name, event.target.closest("li"), async () => {
            await giveUpOfflineMatch(record.room);
            window.spiteMaliceOffline?.sendOfflineGames(); // counted as soon as the server answers
          }),
        }, _("Give up")))));
    box.hidden = false;
  }
}

export { saveRoomTicket };
