// Runs a Python file in Pyodide (CPython compiled to 32-bit WebAssembly) under Node, with this
// checkout's rummy_widget package copied into Pyodide's file system, and prints what the file's
// last expression gives. Used by tests/test_pyodide.py:
//   node tests/pyodide/run.mjs <pyodide.mjs> <rummy_widget folder> <script.py>
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideModule, packageDir, script] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideModule).href);
const pyodide = await loadPyodide();

/** Copy the package's Python files and translation tables (not the front-end bundle). */
function copy(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (statSync(path).isDirectory()) {
      if (name !== "__pycache__" && name !== "static") copy(path, `${to}/${name}`);
    } else if (/\.(py|json)$/.test(name)) {
      pyodide.FS.writeFile(`${to}/${name}`, readFileSync(path));
    }
  }
}

copy(packageDir, "/home/pyodide/checkout/rummy_widget");
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/checkout')");
process.stdout.write(String(pyodide.runPython(readFileSync(script, "utf8"))));
