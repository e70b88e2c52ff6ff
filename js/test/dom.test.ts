import { expect, test } from "vitest";
import { h, patch } from "../src/dom";

const key = (el: Element) => (el as HTMLElement).dataset?.k;

test("keyed children are moved, not rebuilt: the same nodes, in the new order", () => {
  const live = h("div", {}, h("button", { "data-k": "a" }, "A"), h("button", { "data-k": "b" }, "B"), h("p", {}, "x"));
  document.body.append(live);
  const [a, b] = [...live.querySelectorAll("button")];
  b.focus();
  patch(live, h("div", {}, h("button", { "data-k": "b" }, "B"), h("button", { "data-k": "a", class: "on" }, "A"), h("p", {}, "y")), key);
  const [first, second] = [...live.querySelectorAll("button")];
  expect(first).toBe(b);
  expect(second).toBe(a);
  expect(a.className).toBe("on");
  expect(live.querySelector("p")?.textContent).toBe("y");
  expect(live.outerHTML).toBe('<div><button data-k="b">B</button><button data-k="a" class="on">A</button><p>y</p></div>');
  live.remove();
});

test("children and attributes that are gone are removed; new ones are added", () => {
  const live = h("div", { title: "old", "aria-disabled": "true" }, h("span", {}, "1"), h("span", {}, "2"), "text");
  patch(live, h("div", { title: "new" }, h("span", {}, "1"), h("em", { "data-k": "e" }, "!")), key);
  expect(live.outerHTML).toBe('<div title="new"><span>1</span><em data-k="e">!</em></div>');
});

test("an unchanged subtree is left alone", () => {
  const live = h("div", {}, h("span", {}, "same"));
  const span = live.firstElementChild as HTMLElement;
  (span as HTMLElement & { mark?: number }).mark = 1;
  patch(live, h("div", {}, h("span", {}, "same")), key);
  expect(live.firstElementChild).toBe(span);
  expect((live.firstElementChild as HTMLElement & { mark?: number }).mark).toBe(1);
});

test("form controls take their state from the new tree", () => {
  const live = h(
    "div",
    {},
    h("input", { type: "checkbox", checked: true }),
    h("input", { type: "range", value: "3" }),
    h("select", {}, h("option", { value: "en", selected: true }, "en"), h("option", { value: "fi" }, "fi")),
  );
  const [box, range] = [...live.querySelectorAll("input")];
  const select = live.querySelector("select") as HTMLSelectElement;
  box.checked = false;
  range.value = "5";
  select.selectedIndex = 0;
  patch(
    live,
    h(
      "div",
      {},
      h("input", { type: "checkbox", checked: true, "data-x": "1" }),
      h("input", { type: "range", value: "4" }),
      h("select", {}, h("option", { value: "en" }, "en"), h("option", { value: "fi", selected: true }, "fi")),
    ),
    key,
  );
  expect(box.checked).toBe(true);
  expect(range.value).toBe("4");
  expect(select.value).toBe("fi");
});
