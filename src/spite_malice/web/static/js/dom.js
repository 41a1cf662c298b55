// Small helpers for building DOM nodes without a framework.

/**
 * Create an element: h("button", {class: "btn", onclick: fn}, "Text", child, ...).
 * Attributes whose value is null, undefined or false are left out; `true` sets an empty one.
 * Keys starting with "on" add event listeners; `dataset` and `style` take objects.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else if (key === "text") {
      node.textContent = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replace every child of `node`. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** Wait `ms` milliseconds (0 resolves on the next task). */
export function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A translated sentence with elements in it: each `{name}` of `text` becomes `nodes[name]`
 * (a link, a bold word), so that the translation keeps the whole sentence and its own word
 * order. Returns the pieces, for `h()` or `replaceChildren()`.
 */
export function withNodes(text, nodes) {
  return text.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
    const name = part.match(/^\{(\w+)\}$/)?.[1];
    return name && nodes[name] !== undefined ? nodes[name] : part;
  });
}
