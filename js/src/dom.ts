// A tiny element builder and patcher: the table is re-rendered from the view and patched in
// place, so no framework is needed.

export type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = String(value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** On a stand-in for a part of the table that has not changed (parts.ts): `patch` leaves the
 * live element it is matched with as it is. */
export const KEEP = "data-rw-keep";

/** A control's identity across redraws (what it does, and on which card or meld). */
export type KeyOf = (el: Element) => string | undefined;

/**
 * Make `from` (the live tree) equal to `to` (a tree just built and thrown away after), touching
 * only what differs: an unchanged subtree is skipped whole, a keyed child (`key`) is matched by
 * its key among its siblings and moved rather than rebuilt, so the focused control and a
 * card's picture stay the same nodes. Form controls take their state from `to`: the
 * `checked` and `value` of an input and the `selected` option of a select. A stand-in marked
 * `KEEP` leaves its match alone.
 */
export function patch(from: Element, to: Element, key: KeyOf): void {
  if (to.hasAttribute(KEEP) || from.isEqualNode(to)) return;
  const had = from.attributes;
  for (let i = had.length - 1; i >= 0; i--) {
    const a = had[i];
    if (!to.hasAttributeNS(a.namespaceURI, a.localName)) from.removeAttributeNS(a.namespaceURI, a.localName);
  }
  for (const a of to.attributes) {
    if (from.getAttributeNS(a.namespaceURI, a.localName) !== a.value) from.setAttributeNS(a.namespaceURI, a.name, a.value);
  }
  const keyed = new Map<string, Element>();
  for (const child of from.children) {
    const k = key(child);
    if (k) keyed.set(k, child);
  }
  let at = from.firstChild;
  for (let want = to.firstChild; want; ) {
    const next = want.nextSibling;
    const k = want instanceof Element ? key(want) : undefined;
    let same: ChildNode | null | undefined = k ? keyed.get(k) : at;
    if (k) keyed.delete(k);
    else if (same && (same instanceof Element ? key(same) : false)) same = null;
    // A stand-in (parts.ts) is a plain element whatever its part's tag: it matches by key.
    if (same && (same.nodeName === want.nodeName || (k && (want as Element).hasAttribute(KEEP)))) {
      if (same === at) at = at.nextSibling;
      else from.insertBefore(same, at);
      if (same instanceof Element) patch(same, want as Element, key);
      else if (same.nodeValue !== want.nodeValue) same.nodeValue = want.nodeValue;
    } else {
      from.insertBefore(want, at);
    }
    want = next;
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
  if (from instanceof HTMLInputElement) {
    const input = to as HTMLInputElement;
    from.checked = input.checked;
    if (from.value !== input.value) from.value = input.value;
  } else if (from instanceof HTMLSelectElement) {
    from.selectedIndex = [...(to as HTMLSelectElement).options].findIndex((o) => o.hasAttribute("selected"));
  }
}
