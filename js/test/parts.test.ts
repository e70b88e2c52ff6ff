// Parts of the table drawn again only when their inputs change (src/parts.ts): what did not
// change keeps its nodes, what changed shows the new view, and nothing stale stays on screen.
import { expect, test } from "vitest";
import { h, patch } from "../src/dom";
import { PartCache } from "../src/parts";
import { TableController } from "../src/index";
import { button, card, FakeModel, makeView, mountedTable } from "./helpers";

const table = mountedTable();

function drawn(extra = "JS") {
  // The learner drew `extra` from the stock: one card more, one fewer in the stock, play phase.
  const before = makeView();
  return makeView({ rev: before.rev + 1, phase: "play", hand: [...before.hand, card(extra)], stock_size: 69 });
}

test("a draw builds the new card and keeps every other card, the opponents and the melds", () => {
  const model = table.mount({ view: makeView() });
  const el = table.el;
  const handBefore = new Map([...el.querySelectorAll<HTMLElement>(".rw-hand [data-card]")].map((b) => [b.dataset.card, b]));
  const seat = el.querySelector(".rw-opponents");
  const meld = el.querySelector(".rw-meld");
  const drawer = el.querySelector(".rw-drawer");
  // Card pictures are clones of one drawn copy each (src/svg.ts): count them.
  const clone = Node.prototype.cloneNode;
  let pictures = 0;
  Node.prototype.cloneNode = function (this: Node, deep?: boolean) {
    if (this instanceof SVGSVGElement) pictures++;
    return clone.call(this, deep);
  };
  model.set("view", drawn());
  Node.prototype.cloneNode = clone;
  // Only the new card's picture is made: not the ten other cards', the meld's three, the
  // stock's back or the pile's top card, whose parts did not change.
  expect(pictures).toBe(1);
  const hand = [...el.querySelectorAll<HTMLElement>(".rw-hand [data-card]")];
  expect(hand).toHaveLength(11);
  for (const b of hand) {
    if (b.dataset.card === String(card("JS").id)) expect(handBefore.has(b.dataset.card)).toBe(false);
    else expect(b).toBe(handBefore.get(b.dataset.card));
  }
  expect(el.querySelector(".rw-opponents")).toBe(seat);
  expect(el.querySelector(".rw-meld")).toBe(meld);
  expect(el.querySelector(".rw-drawer")).toBe(drawer);
  // What changed is shown: the stock's count, the turn's words, and no stand-in anywhere.
  expect(el.querySelector(".rw-piles")?.textContent).toContain("69");
  expect(el.querySelector(".rw-status-text")?.textContent).not.toBe("");
  expect(el.querySelector("[data-rw-keep]")).toBeNull();
});

test("a part whose inputs changed is drawn again: the language reaches every part", () => {
  const model = table.mount({ view: makeView() });
  const el = table.el;
  model.set("view", drawn());
  model.set("lang", "fi");
  expect(button(el, "Tee pöytäys")).toBeTruthy();
  expect(el.querySelector(".rw-meld")?.getAttribute("aria-label")).toMatch(/setti/i);
  expect(el.querySelector(".rw-drawer summary")?.textContent).not.toBe("Menu");
  expect(el.querySelector(".rw-hand [data-card]")?.getAttribute("aria-label")).not.toMatch(/ of /);
});

test("a selection made in place (no redraw) is still right after the next redraw", () => {
  const model = table.mount({ view: drawn() });
  const el = table.el;
  const ace = () => el.querySelector<HTMLElement>(`.rw-hand [data-card="${card("AS").id}"]`) as HTMLElement;
  const meld = () => el.querySelector<HTMLElement>(".rw-meld") as HTMLElement;
  ace().click(); // selected in place: the card's picture on the page is not what was last drawn
  meld().click(); // the lay-off target, also in place
  expect(ace().getAttribute("aria-pressed")).toBe("true");
  expect(meld().getAttribute("aria-pressed")).toBe("true");
  // Python answers with a new revision (a refused move): the selection is cleared, so the
  // inputs are again those last drawn, and the page must not keep the selection shown.
  model.set("view", { ...drawn(), rev: drawn().rev + 1, message: { id: 1, kind: "error", text: "No." } });
  expect(ace().getAttribute("aria-pressed")).toBe("false");
  expect(meld().getAttribute("aria-pressed")).toBe("false");
  expect(button(el, "Discard").getAttribute("aria-disabled")).toBe("true");
});

/** A host on the page, its parts, and `patch`'s key for them. */
function partsOnPage() {
  const host = h("div");
  document.body.append(host);
  const key = (el: Element) => (el.getAttribute("data-rw-part") ? `part:${el.getAttribute("data-rw-part")}` : undefined);
  return { host, parts: new PartCache(host), key };
}

test("a stand-in that finds no part to stand for is reported, and a full draw replaces it", () => {
  const { host, parts, key } = partsOnPage();
  const draw = (first: boolean) =>
    h("div", {}, ...(first ? [] : [h("div", {}, "new band")]), h("div", {}, parts.part("seat", [1], () => h("p", {}, "Aino"))));
  host.append(draw(true));
  expect(parts.settle()).toBe(true);
  // A band appears before the part's unkeyed parent: `patch` pairs that parent with the new
  // band by position, so the stand-in lands on the page instead of the part.
  patch(host.firstElementChild as Element, draw(false), key);
  expect(host.querySelector("[data-rw-keep]")).not.toBeNull();
  expect(parts.settle()).toBe(false);
  patch(host.firstElementChild as Element, draw(false), key);
  expect(parts.settle()).toBe(true);
  expect(host.querySelector("[data-rw-keep]")).toBeNull();
  expect(host.textContent).toBe("new bandAino");
});

test("a stand-in is a plain element whatever its part's tag: the live part keeps its node and state", () => {
  const { host, parts, key } = partsOnPage();
  const draw = (count: number) =>
    h("div", {}, parts.part("drawer", ["menu"], () => h("details", {}, h("summary", {}, "Menu"))), h("p", {}, String(count)));
  host.append(draw(1));
  expect(parts.settle()).toBe(true);
  const drawer = host.querySelector("details") as HTMLDetailsElement;
  drawer.open = true;
  const next = draw(2);
  // Making a <details> (or an SVG) costs more than a plain element: the stand-in is an <i>.
  expect(next.firstElementChild?.tagName).toBe("I");
  patch(host.firstElementChild as Element, next, key);
  expect(parts.settle()).toBe(true);
  expect(host.querySelector("details")).toBe(drawer);
  expect(drawer.open).toBe(true);
  expect(host.textContent).toBe("Menu2");
});

test("parts patched in place, with the frame left alone, leave the page as a full redraw would", () => {
  const model = new FakeModel({ view: makeView() });
  const el = document.createElement("div");
  document.body.append(el);
  const controller = new TableController(model, el);
  const frame = PartCache.prototype.frame;
  let inPlace = 0;
  PartCache.prototype.frame = function (this: PartCache, inputs, build) {
    const got = frame.call(this, inputs, build);
    if (got.hasAttribute("data-rw-keep")) inPlace++;
    return got;
  };
  const fullRedraw = () => {
    (controller as unknown as { parts: PartCache }).parts.forget();
    controller.draw();
    return el.innerHTML;
  };
  const before = makeView();
  const steps = [
    drawn(), // the learner draws: the hand, the stock, the line
    { ...drawn(), message: { id: 7, kind: "error" as const, text: "Select the cards to meld first." } },
    makeView({ rev: before.rev + 2, hand: before.hand.slice(1), discard_pile: [...before.discard_pile, before.hand[0]] }),
    makeView({ rev: before.rev + 3, hand: before.hand.slice(1), stock_size: 0 }),
  ];
  try {
    for (const view of steps) {
      const seen = inPlace;
      model.set("view", view);
      expect(inPlace).toBe(seen + 1); // this draw went straight into the parts on the page
      const patched = el.innerHTML;
      expect(el.querySelector("[data-rw-keep]")).toBeNull();
      expect(fullRedraw()).toBe(patched);
    }
    // A new frame (the language) is built and compared whole, as before.
    const seen = inPlace;
    model.set("lang", "fi");
    expect(inPlace).toBe(seen);
    expect(el.querySelector(".rw-deal")?.textContent).toMatch(/Jako/);
  } finally {
    PartCache.prototype.frame = frame;
    controller.destroy();
  }
});
