import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { backSvg, faceSvg, RANK_PATHS, SUIT_PATHS } from "../src/svg";

const doc = readFileSync(resolve(import.meta.dirname, "../../docs/display.md"), "utf8");

test("every suit and rank path is the one written down in docs/display.md", () => {
  for (const path of Object.values(SUIT_PATHS)) expect(doc).toContain(path);
  for (const [rank, [width, path]] of Object.entries(RANK_PATHS)) {
    expect(doc).toContain(`| ${rank} | ${width} | \`${path}\` |`);
  }
  expect(Object.keys(RANK_PATHS)).toHaveLength(13);
});

test("a face has two indices and a centre suit; a back depends on no card", () => {
  const face = faceSvg("7", "H");
  expect(face.getAttribute("viewBox")).toBe("0 0 56 80");
  const paths = [...face.querySelectorAll("path")];
  expect(paths.filter((p) => p.getAttribute("d") === SUIT_PATHS.H)).toHaveLength(3);
  expect(paths.filter((p) => p.getAttribute("d") === RANK_PATHS["7"][1])).toHaveLength(2);
  expect(face.querySelector("rect")?.getAttribute("fill")).toBe("#ffffff");
  expect(backSvg().outerHTML).toBe(backSvg().outerHTML);
  expect(backSvg().querySelector("rect")?.getAttribute("fill")).toBe("#1f4e8c");
  expect(backSvg().querySelectorAll("path")[0].getAttribute("d")?.match(/Z/g)).toHaveLength(35);
});

test("pictures are built once and handed out as independent copies", () => {
  const first = faceSvg("Q", "S");
  first.setAttribute("data-changed", "yes");
  const second = faceSvg("Q", "S");
  expect(second).not.toBe(first);
  expect(second.hasAttribute("data-changed")).toBe(false);
  expect(second.querySelectorAll("path")).toHaveLength(first.querySelectorAll("path").length);
  expect(backSvg()).not.toBe(backSvg());
});
