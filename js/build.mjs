// Bundles the widget front end for anywidget: one ESM file (its style sheet inside) in
// ../rummy_widget/static/ (git-ignored; built by hatch-jupyter-builder on install).
import { readdir, readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { build, transform } from "esbuild";

// The translation tables are shared with Python and hold far more than the table needs;
// keep only the keys the front end's source names, so the bundle stays small. A key is kept
// if the source names it ("ui.meld"), names its prefix in a template (`ui.kind.${kind}`), or
// names the key it varies ("log.draw_stock" keeps "log.draw_stock.you", "ui.stock_count" keeps
// "ui.stock_count_one").
// FRONT_END_KEYS bounds the families the front end may use (a card's inflected forms, .gen and
// .part, serve Python's Finnish sentences only) (tests/test_locales.py reads it:
// none of them may hold a count form the front end's formatter does not know).
const FRONT_END_KEYS = /^(ui\.|log\.|card\.(?!.*\.(gen|part)$)|error\.(draw_first|already_drawn|stock_empty|discard_empty)$)/;

async function usedKeys() {
  const names = new Set();
  const prefixes = new Set();
  for (const file of await readdir("src")) {
    if (!file.endsWith(".ts")) continue;
    const text = await readFile(`src/${file}`, "utf8");
    for (const m of text.matchAll(/["`]((?:ui|log|card|error)\.[\w.]*)/g)) {
      if (m[1].endsWith(".")) prefixes.add(m[1]);
      else names.add(m[1]);
    }
    for (const m of text.matchAll(/`((?:ui|log|card|error)\.[\w.]*\.)\$\{/g)) prefixes.add(m[1]);
  }
  return (key) =>
    FRONT_END_KEYS.test(key) &&
    (names.has(key) ||
    names.has(key.replace(/\.you$/, "")) ||
    names.has(key.replace(/_one$/, "")) ||
    [...prefixes].some((p) => key.startsWith(p)));
}

const keep = await usedKeys();

// Both tables share one list of keys (a virtual module), and each table is only its texts in
// that order: the key strings are in the bundle once, not once per language.
const LOCALES = new URL("../rummy_widget/locales/", import.meta.url);
const keyList = Object.keys(JSON.parse(await readFile(new URL("en.json", LOCALES), "utf8")))
  .filter(keep)
  .sort();

// Each list is one "|"-joined string, split in the browser: two quotes and a comma fewer per
// key and text in the bundle.
function joined(list) {
  if (list.some((x) => x.includes("|"))) throw new Error("a locale key or text contains '|'");
  return list.join("|");
}

const localesOnlyFrontEndKeys = {
  name: "locales-front-end-keys",
  setup(b) {
    b.onResolve({ filter: /^rw-locale-keys$/ }, () => ({ path: "keys", namespace: "rw-locale" }));
    b.onLoad({ filter: /.*/, namespace: "rw-locale" }, () => ({
      contents: `export default ${JSON.stringify(joined(keyList))}.split("|");`,
      loader: "js",
    }));
    b.onLoad({ filter: /locales[\\/][a-z]+\.json$/ }, async (args) => {
      const table = JSON.parse(await readFile(args.path, "utf8"));
      // A missing text is "" (no text in the locales is empty).
      const texts = JSON.stringify(joined(keyList.map((k) => table[k] ?? "")));
      return {
        contents:
          `import keys from "rw-locale-keys"; const texts = ${texts}.split("|");` +
          "const table = {}; keys.forEach((k, i) => { if (texts[i]) table[k] = texts[i]; });" +
          "export default table;",
        loader: "js",
        resolveDir: args.path.replace(/[\\/][^\\/]+$/, ""),
      };
    });
  },
};

// The sheet rides in the bundle as a string (src/styles.ts adopts it): "./widget.css?inline"
// is the minified CSS.
const inlineCss = {
  name: "inline-css",
  setup(b) {
    b.onResolve({ filter: /\.css\?inline$/ }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/\?inline$/, "")),
      namespace: "rw-css",
    }));
    b.onLoad({ filter: /.*/, namespace: "rw-css" }, async (args) => {
      const { code } = await transform(await readFile(args.path, "utf8"), { loader: "css", minify: true });
      return { contents: `export default ${JSON.stringify(code.trim())};`, loader: "js" };
    });
  },
};

const common = { bundle: true, minify: true, charset: "utf8", logLevel: "info", target: ["es2022"] };

await build({
  ...common,
  entryPoints: ["src/index.ts"],
  outfile: "../rummy_widget/static/widget.js",
  format: "esm",
  plugins: [localesOnlyFrontEndKeys, inlineCss],
});

// The bundle's budget (docs/widget.md): at most 60,000 B minified and 25,000 B gzipped.
const bundle = await readFile("../rummy_widget/static/widget.js");
const gzipped = gzipSync(bundle, { level: 9 }).length;
const over = bundle.length > 60000 || gzipped > 25000 ? "  OVER BUDGET" : "";
console.log(`widget.js: ${bundle.length} B minified, ${gzipped} B gzipped (budget 60000 / 25000)${over}`);
