// The tutorial pages (#/tutorial, #/tutorial/<lesson>) and the offer made on the first visit.
//
// The page holds no rules: the server runs each lesson (POST /api/tutorial/lessons/<key>
// with the moves accepted so far and the move tried) and answers with the table, the legal
// moves, what to do and what became of the move. This module draws the answer with the
// game's own table (table.js) and input (input.js: clicks, drags and the same keys as at
// the game's table); the accepted moves stay in memory only.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { fitTable, keepFitted } from "./fit.js";
import { _ } from "./i18n.js";
import { saveRoomTicket } from "./store.js";
import { MoveInput } from "./input.js";
import { menuButton } from "./menu.js";
import { renderTable } from "./table.js";
import { offlinePost } from "../offline/tutorial.js";

/** The table's names in a lesson (made when drawn: the language may change meanwhile). */
const names = () => ({ me: "You", opponent: _("Your opponent") });

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  }).catch((error) => ({ offline: offlinePost(path, body, error) })); // no network: the offline engine
  if (response.offline) return response.offline;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error(data?.error?.message ?? _("The server answered {status}.", { status: String(response.status) }));
  }
  return data;
}

async function overview() {
  const response = await fetch("/api/tutorial");
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message ?? _("The server answered {status}.", { status: String(response.status) }));
  return data;
}

/** Start the practice game against Easy (a seeded, practice room) and open it. */
async function startPractice(practice, status) {
  status.textContent = _("Dealing the practice game…");
  try {
    const ticket = await api.createRoom({
      mode: "computer", level: practice.level, preset: practice.preset, seed: practice.seed,
    });
    saveRoomTicket(ticket);
    location.hash = `#/game/${ticket.room}`;
  } catch (error) {
    status.textContent = error.message;
  }
}

/** The list of lessons with the player's progress. */
export async function renderTutorial(mount, lessonKey) {
  if (lessonKey) return renderLesson(mount, lessonKey);
  replaceChildren(mount, h("div", { class: "page card-box" }, h("p", {}, _("Loading the tutorial…"))));
  let data;
  try {
    data = await overview();
  } catch (error) {
    replaceChildren(mount, h("div", { class: "page card-box" }, h("h1", {}, _("Tutorial")), h("p", {}, error.message)));
    return;
  }
  const status = h("p", { class: "form-status", role: "status", "aria-live": "polite" });
  const items = data.lessons.map((lesson) =>
    h("li", { class: `tutorial-item${lesson.finished ? " is-done" : ""}`, dataset: { lesson: lesson.key } },
      h("a", { href: `#/tutorial/${lesson.key}`, class: "resume-link" },
        h("b", {}, `${lesson.number}. ${lesson.title}`),
        lesson.finished ? h("span", { class: "tutorial-done" }, " · " + _("done")) : null,
        h("span", { class: "muted tutorial-intro" }, lesson.intro))));
  const practice = h("button", { class: "btn", type: "button", id: "tutorial-practice" },
    _("Play a short practice game against Easy"));
  practice.addEventListener("click", () => startPractice(data.practice, status));
  const next = data.next
    ? h("a", { class: "btn btn-primary", id: "tutorial-next", href: `#/tutorial/${data.next}` },
      data.progress.finished.length ? _("Go on with the next lesson") : _("Start the first lesson"))
    : h("p", {}, _("Every lesson is done. Play the practice game, or go over a lesson again."));
  replaceChildren(mount, h("div", { class: "page tutorial" },
    h("section", { class: "card-box" },
      h("h1", {}, _("Learn to play")),
      h("p", { class: "muted" },
        _("Eight short lessons on small hand-made deals, one idea each. Each lesson says what to do and explains a move that does not work. A short practice game against Easy ends the tutorial; its deal is known, so it is kept out of your ordinary statistics.")),
      next),
    h("section", { class: "card-box" }, h("ol", { class: "resume-list tutorial-list", id: "tutorial-list" }, items)),
    h("section", { class: "card-box" }, practice, status)));
}

/** One lesson: the words beside the table; picks go to the server, which answers. */
async function renderLesson(mount, key) {
  const table = h("div", { class: "table my-turn", id: "tutorial-table", role: "group", "aria-label": _("The lesson's table") });
  const wrap = h("div", { class: "table-wrap" }, table);
  const title = h("h1", { class: "tutorial-title", id: "tutorial-title" });
  const intro = h("p", { class: "muted", id: "tutorial-intro" });
  const say = h("p", { class: "tutorial-say", id: "tutorial-say" });
  const feedback = h("p", { class: "tutorial-feedback", id: "tutorial-feedback", role: "status", "aria-live": "polite" });
  const again = h("button", { class: "btn", type: "button", id: "tutorial-restart" }, _("Start again"));
  const showMe = h("button", { class: "btn", type: "button", id: "tutorial-show" }, _("Show me"));
  const onward = h("a", { class: "btn btn-primary", id: "tutorial-onward", hidden: true }, _("Next lesson"));
  const back = h("a", { class: "btn", href: "#/tutorial", id: "tutorial-back" }, _("All lessons"));
  const panel = h("section", { class: "tutorial-panel card-box" }, title, intro, say, feedback,
    h("div", { class: "tutorial-actions" }, onward, showMe, again, back, menuButton()));
  replaceChildren(mount, h("div", { class: "tutorial-lesson" }, wrap, panel));
  document.body.dataset.route = "tutorial-lesson";
  const stopFitting = keepFitted(table);
  window.addEventListener("hashchange", stopFitting, { once: true });

  let answer = null;
  let answers = 0;
  let refused = null;

  const tell = (text, tone = null) => {
    feedback.textContent = text;
    feedback.classList.toggle("is-wrong", tone === "wrong");
    feedback.classList.toggle("is-right", tone === "right");
  };

  const show = (data) => {
    answer = data;
    answers += 1;
    // for people nothing; for tests, what the server said last (they wait on it, not on time)
    panel.dataset.answers = String(answers);
    panel.dataset.step = String(data.step);
    panel.dataset.finished = data.finished ? "yes" : "no";
    const lesson = data.lesson;
    document.title = _("{lesson} · Tutorial · Spite & Malice", { lesson: lesson.title });
    title.textContent = _("Lesson {n} of {count}: {title}", { n: lesson.number, count: lesson.count, title: lesson.title });
    intro.textContent = lesson.intro;
    // TRANSLATORS: {say} is the lesson's instruction, from the server in the player's language
    say.textContent = data.finished ? data.say
      : _("Step {n} of {count}: {say}", { n: data.step + 1, count: lesson.steps, say: data.say });
    const attempt = data.attempt;
    tell(attempt ? attempt.text : "", attempt ? (attempt.accepted ? "right" : "wrong") : null);
    onward.hidden = !data.finished;
    showMe.hidden = data.finished;
    onward.textContent = lesson.next ? _("Next lesson") : _("Back to the lessons");
    onward.href = lesson.next ? `#/tutorial/${lesson.next}` : "#/tutorial";
    table.classList.toggle("my-turn", !data.finished);
    renderTable(table, data.state, names());
    fitTable(table);
    input.setHint(null);
    input.setLegal(data.legal_moves);
  };

  const send = async (move) => {
    try {
      show(await post(`/api/tutorial/lessons/${encodeURIComponent(key)}`, { moves: answer?.moves ?? [], move }));
    } catch (error) {
      tell(error.message, "wrong");
    }
  };

  // The game's own input (clicks, drags, keys): a legal move goes to the server; an illegal
  // one too, since the lesson's answer (the engine's reason and what to try) is the point.
  const input = new MoveInput(table, {
    onMove: (move) => send(move),
    onMessage: (text) => tell(text),
    onRefuse: (text) => {
      const move = refused;
      refused = null;
      if (move) send(move);
      else tell(text, "wrong");
    },
    explain: (move) => {
      refused = move;
      return null;
    },
    canAct: () => (answer && !answer.finished ? true : _("This lesson is done: go on to the next one.")),
    keys: { h: () => showMe.click() },
  });
  window.addEventListener("hashchange", () => input.destroy(), { once: true });

  showMe.addEventListener("click", () => {
    if (!answer?.show) return;
    input.clear();
    input.setHint(answer.show.move);
    tell(answer.show.text);
  });
  again.addEventListener("click", () => {
    if (answer) answer = { ...answer, moves: [] };
    send(null);
  });

  try {
    show(await post(`/api/tutorial/lessons/${encodeURIComponent(key)}`, { moves: [] }));
  } catch (error) {
    replaceChildren(mount, h("div", { class: "page card-box", id: "tutorial-missing" },
      h("h1", {}, _("No such lesson")), h("p", {}, error.message),
      h("p", {}, h("a", { class: "btn", href: "#/tutorial" }, _("All lessons")))));
  }
}

/** The first visit: a box above the lobby offering the tutorial, until it is answered. */
export async function offerTutorial(onLobby) {
  const box = document.getElementById("tutorial-offer");
  if (!box) return;
  box.hidden = true;
  if (!onLobby) return;
  let data;
  try {
    data = await overview();
  } catch {
    return; // the offer is a convenience: the menu always has the tutorial
  }
  if (data.progress.offered) return;
  const answered = async (take) => {
    box.hidden = true;
    try {
      await post("/api/tutorial/offered");
    } catch {
      // asked again next visit
    }
    if (take) location.hash = "#/tutorial";
  };
  replaceChildren(box,
    h("span", {}, _("New to Spite & Malice? Eight short lessons teach the game.")),
    h("button", { class: "btn btn-primary", type: "button", id: "tutorial-offer-yes", onclick: () => answered(true) },
      _("Take the tutorial")),
    h("button", { class: "btn", type: "button", id: "tutorial-offer-no", onclick: () => answered(false) },
      _("No, thanks")));
  box.hidden = document.body.dataset.route !== "play"; // the player may have moved on meanwhile
}
