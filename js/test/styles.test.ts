import { describe, expect, it } from "vitest";
import { adoptStyles } from "../src/styles";

const CSS = ".rw-root{color:red}";

describe("adoptStyles", () => {
  it("parses the sheet once a page and adopts it once a document", () => {
    const a = document.createElement("div");
    const b = document.createElement("div");
    document.body.append(a, b);
    const before = document.adoptedStyleSheets.length;
    adoptStyles(a, CSS);
    adoptStyles(b, CSS);
    expect(document.adoptedStyleSheets.length).toBe(before + 1);
    const sheet = document.adoptedStyleSheets[before];
    expect(sheet.cssRules.length).toBe(1);
    // An element not attached yet styles its document: the same sheet, not a second one.
    adoptStyles(document.createElement("div"), CSS);
    expect(document.adoptedStyleSheets.length).toBe(before + 1);
  });

  it("gives a shadow root (marimo) the same parsed sheet", () => {
    const host = document.createElement("div");
    document.body.append(host);
    adoptStyles(host, CSS);
    const shadow = host.attachShadow({ mode: "open" });
    const el = document.createElement("div");
    shadow.append(el);
    adoptStyles(el, CSS);
    adoptStyles(el, CSS);
    expect(shadow.adoptedStyleSheets.length).toBe(1);
    expect(document.adoptedStyleSheets).toContain(shadow.adoptedStyleSheets[0]);
  });

  it("keeps another build's sheet apart", () => {
    const el = document.createElement("div");
    document.body.append(el);
    const before = document.adoptedStyleSheets.length;
    adoptStyles(el, ".rw-root{color:blue}");
    expect(document.adoptedStyleSheets.length).toBe(before + 1);
  });
});
