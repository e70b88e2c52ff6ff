// The table's style sheet. anywidget puts a widget's `_css` into a <style> it rewrites for every
// new table, and the browser then parses the sheet again and restyles every table already on
// the page (a lesson holds several). Instead the bundle carries the sheet: it is parsed once a
// page and adopted by each document or shadow root (marimo renders widgets in one) showing a
// table.
import css from "./widget.css?inline";

/** Give the document or shadow root `el` is shown in the table's styles, once a root. The
 * parsed sheets live on the window, by their text: another build's sheet is another sheet.
 * Every browser JupyterLab 4 supports has constructable sheets (Baseline since 2023). */
export function adoptStyles(el: Element, text: string = css): void {
  const doc = el.ownerDocument;
  const found = el.getRootNode() as Partial<ShadowRoot>;
  // A document or a shadow root adopts sheets; an element not attached yet: its document.
  const root = (found.adoptedStyleSheets ? found : doc) as Document | ShadowRoot;
  const win = doc.defaultView as typeof globalThis & { rwSheets?: Record<string, CSSStyleSheet> };
  const sheets = (win.rwSheets ??= {});
  let sheet = sheets[text];
  if (!sheet) (sheet = sheets[text] = new win.CSSStyleSheet()).replaceSync(text);
  const adopted = root.adoptedStyleSheets;
  if (!adopted.includes(sheet)) root.adoptedStyleSheets = [...adopted, sheet];
}
