import { expect, test } from "vitest";
import widget from "../src/index";

test("render marks the root", () => {
  const el = document.createElement("div");
  widget.render({ model: { get: () => "en" }, el });
  expect(el.classList.contains("rw-root")).toBe(true);
});
