// How the player makes moves: click a card then a target, drag a card onto a target, or use
// the keyboard. Every way ends in one move in notation ("H7-C1") handed to `onMove`; the
// server decides whether it is legal and says why not.
//
// Keys (documented on the page, see KEY_HELP):
//   P            pick the pay-off pile         1-5      pick a hand card (left to right)
//   S then 1-4   a side stack (pick or discard) C then 1-4  a center stack (build)
//   D then 1-4   discard the picked hand card onto a side stack
//   Enter/Space  pick or drop on the focused pile   Escape  cancel (or skip an animation)
//   Arrow keys   move between piles            H hint · U undo · N next game

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { _, N_ } from "./i18n.js";
import { movesBySource } from "./moves.js";
import { highlight } from "./table.js";
import { capitalise } from "./words.js";

const DRAG_THRESHOLD_PX = 6;

// The keys' names stay as printed on the keyboard; their words are translated where shown.
export const KEY_HELP = [
  ["P", N_("pick your pay-off pile")],
  ["1 – 5", N_("pick a hand card, left to right")],
  [N_("S, then 1 – 4"), N_("pick a side stack (with a hand card picked and nothing to build there: discard onto it)")],
  [N_("D, then 1 – 4"), N_("discard the picked hand card onto a side stack")],
  [N_("C, then 1 – 4"), N_("build on a center stack")],
  [N_("Tab, arrow keys"), N_("move between piles")],
  [N_("Enter or Space"), N_("pick the focused card, or play onto the focused pile")],
  [N_("Escape"), N_("cancel the pick; skip the opponent's animation")],
  ["H", N_("hint")],
  ["U", N_("undo your last move (against the computer)")],
  ["N", N_("next game, when a game is over")],
];

/** The keys, as a definition list for the page. */
export function keyList() {
  return h("dl", { class: "keys" },
    KEY_HELP.flatMap(([key, what]) => [h("dt", {}, h("kbd", {}, _(key))), h("dd", {}, _(what))]));
}

/** The card a pile shows on top (a hand card is its own), or null for an empty pile. */
function shownCard(node) {
  if (node.classList.contains("card")) return node;
  return node.querySelector(".fan-top") ?? node.querySelector(".card:not(.card-empty)");
}

export class MoveInput {
  /**
   * @param {HTMLElement} root the table
   * @param {object} hooks onMove(move), onMessage(text), canAct() -> true or a reason string,
   *   keys: {h, u, n} extra shortcuts, onEscape() -> true when it used the key
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.legal = new Map();
    this.selectedKey = null;
    this.prefix = null;
    this.hint = null;
    this.drag = null;
    this.suppressClick = false;
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.keyHandler = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    document.removeEventListener("keydown", this.keyHandler);
    this.cancelDrag();
  }

  /** New legal moves (a new state was drawn): forget a pick that no longer makes sense. */
  setLegal(legalMoves) {
    this.legal = movesBySource(legalMoves);
    if (!legalMoves?.length) this.selectedKey = null;
    this.prefix = null;
    this.refresh();
  }

  setHint(move) {
    if (!move) this.hint = null;
    else {
      const [source, target] = move.split("-");
      this.hint = { source, target };
    }
    this.refresh();
  }

  get selected() {
    if (!this.selectedKey) return null;
    return this.root.querySelector(`[data-key="${CSS.escape(this.selectedKey)}"]`);
  }

  /** Re-apply the highlights (after a redraw or a change of pick). */
  refresh() {
    const selected = this.selected;
    if (this.selectedKey && !selected) this.selectedKey = null;
    const source = selected?.dataset.source;
    highlight(this.root, {
      movable: this.legal,
      selected,
      targets: source ? this.legal.get(source) ?? [] : [],
      hint: this.hint,
    });
  }

  clear() {
    this.selectedKey = null;
    this.prefix = null;
    this.refresh();
  }

  select(node) {
    this.selectedKey = node.dataset.key;
    this.prefix = null;
    this.refresh();
    const source = node.dataset.source;
    const targets = this.legal.get(source) ?? [];
    if (targets.length === 0) {
      // TRANSLATORS: {card} is a picked card as the page describes it ("the Seven of clubs")
      this.hooks.onMessage(capitalise(_("{card} cannot be played now.", { card: this.describe(node) })));
    } else {
      this.hooks.onMessage(_("Picked {card}: choose where it goes.", { card: this.describe(node) }));
    }
  }

  /** The picked card in words: "the Seven of clubs", "the Queen of spades from side stack 2". */
  describe(node) {
    const source = node.dataset.source;
    const card = shownCard(node)?.dataset.card;
    // TRANSLATORS: a picked card, as in "Picked {card}: choose where it goes."
    if (source.startsWith("H") && card) return _("the {card}", { card: cardName(card) });
    if (!card) {
      if (source === "P") return _("your pay-off pile");
      if (source.startsWith("S")) return _("your side stack {n}", { n: source.slice(1) });
      return _("your hand");
    }
    return source === "P"
      ? _("your pay-off card, the {card}", { card: cardName(card) })
      : _("the {card} from side stack {n}", { card: cardName(card), n: source.slice(1) });
  }

  /**
   * The player chose `node` (a click, a drop or a key): move, re-pick, or explain.
   *
   * With a hand card picked, my side stacks light up and a tap on one discards onto it:
   * one deliberate tap, asked about first when the player turned "confirm discards" on.
   * With no hand card picked, a tap on a side stack picks its top card.
   */
  choose(node) {
    const allowed = this.hooks.canAct();
    if (allowed !== true) {
      this.hooks.onMessage(allowed);
      return;
    }
    this.hooks.onAct?.();
    const selected = this.selected;
    if (selected && node === selected) {
      this.clear();
      this.hooks.onMessage(_("Pick cancelled."));
      return;
    }
    const target = node.dataset.target;
    const source = node.dataset.source;
    const stack = node.dataset.stack;
    if (selected) {
      const from = selected.dataset.source;
      if (stack && (from.startsWith("H") || this.dropping)) return this.discard(from, stack, node);
      if (stack) return this.select(node);
      if (target) {
        const move = `${from}-${target}`;
        if ((this.legal.get(from) ?? []).includes(target)) return this.play(move);
        return this.hooks.onRefuse(this.hooks.explain(move) ?? _("That move is not allowed."), node);
      }
      return this.select(node);
    }
    if (source) return this.select(node);
    this.hooks.onMessage(_("First pick a card: your pay-off pile, a hand card or a side stack."));
  }

  /** Discard the picked card onto side stack `target`, asking first when the player wants that. */
  async discard(from, target, node) {
    const move = `${from}-${target}`;
    if (!(this.legal.get(from) ?? []).includes(target)) {
      return this.hooks.onRefuse(this.hooks.explain(move) ?? _("That card cannot be discarded."), node);
    }
    const key = this.selectedKey;
    const dropping = this.dropping;
    if (this.hooks.confirmDiscard) {
      const ok = await this.hooks.confirmDiscard(move, this.describe(this.selected));
      if (!ok) {
        this.hooks.onMessage(_("Discard cancelled: your turn goes on."));
        return;
      }
      if (this.selectedKey !== key || this.hooks.canAct() !== true) return;
    }
    this.dropping = dropping;
    try {
      this.play(move);
    } finally {
      this.dropping = false;
    }
  }

  play(move) {
    // Where the card starts, for a short flight to its new place (not after a drag: the
    // player carried it there already).
    const selected = this.selected;
    const card = selected && !this.dropping ? shownCard(selected) : null;
    const from = card ? card.getBoundingClientRect() : null;
    this.selectedKey = null;
    this.prefix = null;
    this.refresh();
    this.hooks.onMove(move, { from, card: card?.dataset.card ?? null });
  }

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const node = event.target.closest("[data-source], [data-target]");
    if (node && this.root.contains(node)) this.choose(node);
    else if (this.selectedKey) this.clear();
  }

  // Drag and drop with pointer events (mouse, pen and touch alike).

  onPointerDown(event) {
    if (event.button !== 0) return;
    const node = event.target.closest("[data-source]");
    if (!node || this.hooks.canAct() !== true) return;
    this.drag = { node, startX: event.clientX, startY: event.clientY, ghost: null, over: null, id: event.pointerId };
    this.moveHandler = (e) => this.onPointerMove(e);
    this.upHandler = (e) => this.onPointerUp(e);
    window.addEventListener("pointermove", this.moveHandler);
    window.addEventListener("pointerup", this.upHandler);
    window.addEventListener("pointercancel", this.upHandler);
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.startX;
    const dy = event.clientY - drag.startY;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      this.select(drag.node);
      drag.ghost = this.makeGhost(drag.node);
      drag.node.classList.add("drag-source");
      document.body.classList.add("is-dragging");
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(3deg)`;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const over = under?.closest("[data-target], [data-stack]");
    const target = over && this.root.contains(over) && over !== drag.node ? over : null;
    if (target !== drag.over) {
      drag.over?.classList.remove("is-drop-over");
      target?.classList.add("is-drop-over");
      drag.over = target;
    }
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dropped = drag.ghost && event.type === "pointerup" ? drag.over : null;
    const dragged = Boolean(drag.ghost);
    this.cancelDrag();
    if (dragged) {
      this.suppressClick = true;
      setTimeout(() => (this.suppressClick = false), 0);
      if (dropped) {
        this.dropping = true;
        try {
          this.choose(dropped);
        } finally {
          this.dropping = false;
        }
      }
      else this.clear();
    }
  }

  cancelDrag() {
    const drag = this.drag;
    if (!drag) return;
    window.removeEventListener("pointermove", this.moveHandler);
    window.removeEventListener("pointerup", this.upHandler);
    window.removeEventListener("pointercancel", this.upHandler);
    drag.ghost?.remove();
    drag.node.classList.remove("drag-source");
    drag.over?.classList.remove("is-drop-over");
    document.body.classList.remove("is-dragging");
    this.drag = null;
  }

  /** A copy of the dragged card that follows the pointer. */
  makeGhost(node) {
    const card = shownCard(node) ?? node;
    const rect = card.getBoundingClientRect();
    const ghost = card.cloneNode(true);
    ghost.removeAttribute("tabindex");
    ghost.removeAttribute("data-key");
    ghost.removeAttribute("data-source");
    ghost.removeAttribute("data-target");
    ghost.classList.add("drag-ghost");
    Object.assign(ghost.style, {
      left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`,
    });
    document.body.append(ghost);
    return ghost;
  }

  // Keyboard.

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!this.root.isConnected || document.querySelector("dialog[open]")) return;
    const typing = event.target.closest?.("input, textarea, select, [contenteditable]");
    if (typing) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const focused = event.target.closest?.("[data-source], [data-target]");

    if (key === "Escape") {
      if (this.hooks.onEscape?.()) return event.preventDefault();
      if (this.selectedKey || this.prefix) {
        this.clear();
        this.hooks.onMessage(_("Pick cancelled."));
      }
      return;
    }
    if ((key === "Enter" || key === " ") && focused && this.root.contains(focused)) {
      event.preventDefault();
      this.choose(focused);
      return;
    }
    if (key.startsWith("Arrow")) {
      if (this.moveFocus(key, focused)) event.preventDefault();
      return;
    }
    const extra = this.hooks.keys?.[key];
    if (extra && !this.prefix) {
      event.preventDefault();
      extra();
      return;
    }
    if (key === "p") return this.keyPick(event, this.root.querySelector('[data-source="P"]'));
    if (key === "c" || key === "s" || key === "d") {
      event.preventDefault();
      this.prefix = key;
      this.hooks.onMessage({
        c: _("Center stack: press 1 – 4."), s: _("Side stack: press 1 – 4."), d: _("Discard onto side stack: press 1 – 4."),
      }[key]);
      return;
    }
    if (/^[1-9]$/.test(key)) {
      const n = Number(key);
      const prefix = this.prefix;
      this.prefix = null;
      if (prefix === "c") {
        return this.keyPick(event, this.root.querySelector(`[data-target="C${n}"]`), _("There is no center stack {n}.", { n }));
      }
      if (prefix === "s" || prefix === "d") return this.keySide(event, prefix, n);
      return this.keyPick(event, this.root.querySelector(`.hand [data-position="${n}"]`), _("There is no hand card {n}.", { n }));
    }
  }

  /**
   * S then a number picks that side stack (or, with a hand card picked and nothing on the
   * stack to build, discards onto it: two deliberate keys); D then a number discards.
   */
  keySide(event, prefix, n) {
    event.preventDefault();
    const stack = this.root.querySelector(`.fan[data-source="S${n}"]`);
    if (!stack) return this.hooks.onMessage(_("There is no side stack {n}.", { n }));
    stack.focus({ preventScroll: true });
    const allowed = this.hooks.canAct();
    if (allowed !== true) return this.hooks.onMessage(allowed);
    const from = this.selected?.dataset.source;
    const handPick = Boolean(from?.startsWith("H"));
    if (prefix === "d") {
      if (!handPick) return this.hooks.onMessage(_("First pick a hand card (1 – 5), then D and the side stack."));
      return this.discard(from, `S${n}`, stack);
    }
    if (handPick && !(this.legal.get(`S${n}`) ?? []).length) return this.discard(from, `S${n}`, stack);
    return this.choose(stack);
  }

  keyPick(event, node, missing = null) {
    event.preventDefault();
    if (!node) {
      this.hooks.onMessage(missing ?? _("There is no such pile."));
      return;
    }
    node.focus({ preventScroll: false });
    this.choose(node);
  }

  /** Move the keyboard focus to the nearest pile in the arrow's direction. */
  moveFocus(key, from) {
    const nodes = [...this.root.querySelectorAll("[data-key]")].filter((n) => !n.disabled);
    if (nodes.length === 0) return false;
    if (!from || !this.root.contains(from)) {
      nodes[0].focus();
      return true;
    }
    const a = from.getBoundingClientRect();
    const ax = a.left + a.width / 2;
    const ay = a.top + Math.min(a.height / 2, 60);
    let best = null;
    let bestScore = Infinity;
    for (const node of nodes) {
      if (node === from) continue;
      const b = node.getBoundingClientRect();
      const dx = b.left + b.width / 2 - ax;
      const dy = b.top + Math.min(b.height / 2, 60) - ay;
      const ok = { ArrowLeft: dx < -4, ArrowRight: dx > 4, ArrowUp: dy < -10, ArrowDown: dy > 10 }[key];
      if (!ok) continue;
      const along = key === "ArrowLeft" || key === "ArrowRight" ? Math.abs(dx) : Math.abs(dy);
      const across = key === "ArrowLeft" || key === "ArrowRight" ? Math.abs(dy) : Math.abs(dx);
      const score = along + across * 3;
      if (score < bestScore) {
        bestScore = score;
        best = node;
      }
    }
    best?.focus();
    return Boolean(best);
  }
}
