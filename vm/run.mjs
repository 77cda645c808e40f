// Run a Python file on the real MicroPython VM (the WebAssembly port, under Node.js).
//
//   node vm/run.mjs [--mount HOST_DIR:VM_DIR]... SCRIPT.py [ARGS...]
//
// Each mount copies HOST_DIR's .py/.mpy/.json/.sim/.html files into the VM's filesystem at VM_DIR
// and puts VM_DIR on sys.path. sys.argv is [SCRIPT's file name, ARGS...]. The script's output
// goes to stdout; an uncaught Python exception prints its traceback to stderr and
// exits with status 1, so a caller can never mistake a crash for a pass.
//
// Steps: a line "# --- vm step ---" splits the script into chunks that run one
// after another as separate top-level calls into the VM, sharing one namespace.
// The VM's gc.collect() only frees what earlier calls left behind, so a script
// that measures live heap collects in a later step than the one that allocated.
// A chunk under "# --- vm step: repeat ---" runs again while `repeat` is true.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const mounts = [];
while (args[0] === "--mount") {
  const spec = args[1];
  const cut = spec.lastIndexOf(":");
  mounts.push([spec.slice(0, cut), spec.slice(cut + 1)]);
  args.splice(0, 2);
}
if (args.length < 1) {
  process.stderr.write("usage: node vm/run.mjs [--mount HOST:VM]... SCRIPT.py [ARGS...]\n");
  process.exit(2);
}
const [script, ...scriptArgs] = args;

const decoder = new TextDecoder();
const write = (s) => process.stdout.write(typeof s === "string" ? s : decoder.decode(s));
const mp = await loadMicroPython({ stdout: write, stderr: write, linebuffer: false });

function mkdirs(dir) {
  let at = "";
  for (const part of dir.split("/").filter(Boolean)) {
    at += "/" + part;
    try { mp.FS.mkdir(at); } catch (e) { /* exists */ }
  }
}

// This VM has no native emitter: its compiler refuses `@micropython.native` and `.viper` (SyntaxError),
// which a board's compiles. The advisor's kernels carry them, so the VM gets them as bytecode, line for
// line, as a bytecode-only board does (dicetower_host/flash/build.py, as_bytecode).
const EMITTER = /^([ \t]*)@micropython\.(native|viper)[ \t]*$/gm;
const asBytecode = (source) => source.replace(EMITTER, "$1# @micropython.$2: none here, so bytecode");

function copyTree(hostDir, vmDir) {
  mkdirs(vmDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const from = path.join(hostDir, entry.name);
    const to = vmDir + "/" + entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(from, to);
    } else if (entry.name.endsWith(".py")) {
      mp.FS.writeFile(to, asBytecode(fs.readFileSync(from, "utf8")));
    } else if (/\.(mpy|json|sim|html)$/.test(entry.name)) {
      mp.FS.writeFile(to, fs.readFileSync(from));
    }
  }
}

for (const [hostDir, vmDir] of mounts) copyTree(hostDir, vmDir);
const source = fs.readFileSync(script, "utf8");

const setup = [
  "import sys",
  ...mounts.map(([, vmDir]) => `sys.path.insert(0, ${JSON.stringify(vmDir)})`),
  // The script by its file name alone: a host path's length changed what the VM interned (a path
  // under about 32 characters is a qstr), and with it the heap a probe measures (tests/heap_budget.py).
  `sys.argv[:] = ${JSON.stringify([path.basename(script), ...scriptArgs])}`,
].join("\n");

try {
  mp.runPython(setup);
  const chunks = source.split(/^# --- vm step(: repeat)? ---$/m);
  // split() with a capture group interleaves the markers: code, marker, code, ...
  mp.runPython(chunks[0]);
  for (let i = 1; i < chunks.length; i += 2) {
    const repeat = chunks[i] !== undefined;
    do {
      mp.runPython(chunks[i + 1]);
    } while (repeat && mp.globals.get("repeat"));
  }
} catch (e) {
  process.stderr.write(String(e.message || e) + "\n");
  process.exit(1);
}
